//! The score stage: grading each decision, aggregating metrics with intervals, and the
//! statistics behind them.

pub mod ablation;
pub mod attribution;
pub mod belt;
pub mod belt_fold;
pub mod compare;
pub mod curve;
pub mod errors;
pub mod grade;
mod matrix;
pub mod metrics;
pub mod preconditions;
pub mod retrieval;
pub mod stats;
pub mod values;

pub use grade::{Graded, Outcome, grade};
pub use metrics::{Metrics, Observation};
pub use stats::Rate;

/// One graded observation, as written to `outcomes.jsonl` (what `compare` pairs on).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OutcomeLine {
    pub model: String,
    pub task_id: String,
    pub trial: u32,
    pub kind: crate::tasks::Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub called: Option<String>,
    pub outcome: crate::score::Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args_correct: Option<bool>,
}

//! What scoring produces, as data: rates with their intervals, each graded outcome, the
//! metrics of a run, retrieval, the distractor curve and the ablation, the belt's split. The
//! score stage computes them (`crate::score`); run.json and the reports carry them.

pub(crate) mod belt;
pub(crate) mod compare;
pub(crate) mod curve;
pub(crate) mod metrics;
pub(crate) mod retrieval;

use serde::{Deserialize, Serialize};

pub(crate) use belt::BeltScore;
pub(crate) use compare::ModelComparison;
pub(crate) use curve::{Ablation, Curve};
pub(crate) use metrics::{Attribution, Metrics};

/// A rate with its sample size and 95% Wilson interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Rate {
    pub k: u64,
    pub n: u64,
    /// k / n (0 when n is 0).
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// What happened on one task, in the scoring contract's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Outcome {
    /// The expected (or an acceptable) tool was called, or nothing when no tool fits.
    Correct,
    /// Another tool of the catalog was called instead of the expected one.
    Confused,
    /// A tool was expected and nothing was called.
    Missed,
    /// No tool fits and one was called anyway.
    FalseCall,
    /// Transport failure, malformed output, or a tool name the catalog does not have.
    Error,
    /// The intended tool was called, but so was a tool the task did not ask for whose
    /// annotations say it may write (`readOnlyHint: false`, or `destructiveHint: true`) —
    /// before it, after it, or beside it in one reply: an agent that deletes before (or after)
    /// it books has not done the task.
    UnaskedWrite,
    /// Like [`Outcome::UnaskedWrite`], but the unasked tool has no `readOnlyHint` at all: MCP
    /// says to assume such a tool may write, so the task fails, and it is counted apart because
    /// the fix is an annotation, not a description.
    UnannotatedCall,
}

/// The layer of argument grading a call failed (`crate::score::grade::args_layer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ArgsLayer {
    /// Invalid against the tool's input schema (missing required, wrong type, unknown key).
    Schema,
    /// Valid, but an expected value differs.
    Values,
}

/// One graded observation, as written to `outcomes.jsonl` (what `compare` pairs on).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct OutcomeLine {
    pub model: String,
    pub task_id: String,
    pub trial: u32,
    pub kind: crate::record::kind::Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub called: Option<String>,
    pub outcome: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args_correct: Option<bool>,
}

/// Tool `before` was called ahead of the intended tool `tool` in `rate.k` of `rate.n` trials
/// in which `tool` was called.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Precondition {
    pub before: String,
    pub tool: String,
    pub rate: Rate,
    /// `tool`'s description mentions `before`.
    pub declared: bool,
    /// Observed in at least 30% of trials while the description never mentions it.
    pub undeclared: bool,
}

//! The score stage: grading each decision, aggregating metrics with intervals, and the
//! statistics behind them.

pub mod ablation;
pub mod attribution;
pub mod belt;
pub mod belt_fold;
pub mod compare;
pub mod curve;
pub mod grade;
mod matrix;
pub mod metrics;
pub mod preconditions;
pub mod retrieval;
pub mod stats;
pub mod values;

pub use crate::record::scores::OutcomeLine;
pub use grade::{Graded, Outcome, grade};
pub use metrics::{Metrics, Observation};
pub use stats::Rate;

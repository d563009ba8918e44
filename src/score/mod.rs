//! The score stage: grading each decision, aggregating metrics with intervals, and the
//! statistics behind them.

pub mod compare;
pub mod grade;
pub mod metrics;
pub mod stats;

pub use grade::{Graded, Outcome, grade};
pub use metrics::{Metrics, Observation};
pub use stats::Rate;

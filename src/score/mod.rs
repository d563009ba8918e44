//! The score stage: grading each decision, aggregating metrics with intervals, and the
//! statistics behind them.

pub(crate) mod ablation;
pub(crate) mod attribution;
pub(crate) mod belt;
pub(crate) mod belt_fold;
pub(crate) mod compare;
pub(crate) mod curve;
pub(crate) mod grade;
mod matrix;
pub(crate) mod metrics;
pub(crate) mod preconditions;
pub(crate) mod retrieval;
pub(crate) mod stats;
pub(crate) mod values;

pub(crate) use crate::record::scores::OutcomeLine;
pub(crate) use grade::{Graded, Outcome, grade};
pub(crate) use metrics::{Metrics, Observation};
pub(crate) use stats::Rate;

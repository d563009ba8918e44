//! The evaluation stage: runs models over tasks, persisting every decision as it arrives so a
//! run can be resumed, then scores the run.

pub mod baseline;
pub mod run_file;
pub mod runner;

pub use run_file::{PredictionLine, RunFile};

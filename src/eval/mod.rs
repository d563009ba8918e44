//! The evaluation stage: owns the run directory. It creates or resumes one from
//! [`EvalOptions`], runs models over tasks (persisting every decision as it arrives), scores
//! the run and writes its files and reports.

pub mod ablation;
pub mod baseline;
mod baseline_seal;
pub mod belt;
mod cost;
pub mod curve;
mod dirs;
pub(crate) mod in_memory;
pub mod incremental;
pub mod marks;
mod options;
mod probe;
pub mod rundir;
pub mod runner;
mod scorer;
pub mod shard;
mod start;
pub mod suite;

pub use rundir::{EvalOptions, RunDir, evaluate, load_tasks};

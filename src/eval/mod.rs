//! The evaluation stage: owns the run directory. It creates or resumes one from
//! [`EvalOptions`], runs models over tasks (persisting every decision as it arrives), scores
//! the run and writes its files and reports.

pub(crate) mod ablation;
pub(crate) mod baseline;
mod baseline_seal;
pub(crate) mod belt;
mod cost;
pub(crate) mod curve;
mod dirs;
pub(crate) mod in_memory;
pub(crate) mod incremental;
pub(crate) mod marks;
mod options;
mod probe;
pub(crate) mod rundir;
pub(crate) mod runner;
mod scorer;
pub(crate) mod shard;
mod start;
pub(crate) mod suite;

pub(crate) use rundir::{EvalOptions, RunDir, evaluate, load_tasks};

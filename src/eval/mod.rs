//! The evaluation stage: owns the run directory. It creates or resumes one from
//! [`EvalOptions`], runs models over tasks (persisting every decision as it arrives), scores
//! the run and writes its files and reports.

pub mod baseline;
pub mod belt;
pub mod curve;
mod dirs;
pub mod incremental;
mod options;
mod probe;
pub mod run_file;
pub mod rundir;
pub mod runner;
mod scorer;
pub mod shard;
pub mod suite;
pub mod v1;

pub use run_file::{PredictionLine, RunFile, RunStatus};
pub use rundir::{EvalOptions, RunDir, evaluate, load_tasks};

/// Every file name of a run directory, defined once.
pub mod files {
    pub const RUN_FILE: &str = "run.json";
    pub const PREDICTIONS_FILE: &str = "predictions.jsonl";
    pub const OUTCOMES_FILE: &str = "outcomes.jsonl";
    pub const REPORT_MD: &str = "report.md";
    pub const REPORT_HTML: &str = "report.html";
    /// Held (flock) while a process writes the directory.
    pub const RUN_LOCK: &str = ".lock";
}

//! The run record, as data: `run.json` and `predictions.jsonl` (their types, their v1 wire
//! form, reading and writing them), each feature's part of the record (shard, reuse, belt), the
//! lint report, and the gate's reasons and states. It imports no stage above it: the gate
//! decides over these types, the evaluation plan fills them, the reports render them, and a
//! model adapter never writes a field of them (it returns a `Decision`).

pub mod belt;
pub mod ci;
pub mod ci_json;
pub mod contract;
pub mod decision;
pub mod gate;
pub mod io;
pub mod kind;
pub mod lint;
pub mod lock;
pub mod metric;
pub mod model;
pub mod probe;
pub mod reuse;
pub mod run;
pub mod scores;
pub mod seal;
pub mod settings;
pub mod shard;
pub mod v1;

pub use gate::GateReason;
pub use io::{PredictionWriter, for_each_prediction, read_outcomes, read_predictions};
pub use lint::LintSummary;
pub use run::{ModelResult, PredictionLine, RunFile, RunStatus};

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

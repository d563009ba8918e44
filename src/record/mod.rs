//! The run record, as data: `run.json` and `predictions.jsonl` (their types, their v1 wire
//! form, reading and writing them), each feature's part of the record (shard, reuse, belt), the
//! lint report, and the gate's reasons and states. It imports no stage above it: the gate
//! decides over these types, the evaluation plan fills them, the reports render them, and a
//! model adapter never writes a field of them (it returns a `Decision`).

pub(crate) mod belt;
pub(crate) mod ci;
pub(crate) mod ci_json;
pub(crate) mod contract;
pub(crate) mod decision;
pub(crate) mod gate;
pub(crate) mod io;
pub(crate) mod kind;
pub(crate) mod lint;
pub(crate) mod lock;
pub(crate) mod metric;
pub(crate) mod model;
pub(crate) mod probe;
pub(crate) mod reuse;
pub(crate) mod run;
pub(crate) mod scores;
pub(crate) mod seal;
pub(crate) mod settings;
pub(crate) mod shard;
pub(crate) mod v1;

pub(crate) use gate::GateReason;
pub(crate) use io::{PredictionWriter, for_each_prediction, read_outcomes, read_predictions};
pub(crate) use lint::LintSummary;
pub(crate) use run::{ModelResult, PredictionLine, RunFile, RunStatus};

/// Every file name of a run directory, defined once.
pub(crate) mod files {
    pub(crate) const RUN_FILE: &str = "run.json";
    pub(crate) const PREDICTIONS_FILE: &str = "predictions.jsonl";
    pub(crate) const OUTCOMES_FILE: &str = "outcomes.jsonl";
    pub(crate) const REPORT_MD: &str = "report.md";
    pub(crate) const REPORT_HTML: &str = "report.html";
    /// Held (flock) while a process writes the directory.
    pub(crate) const RUN_LOCK: &str = ".lock";
}

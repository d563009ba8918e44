//! How to run an evaluation: the options a command resolves before the eval stage starts.

use std::path::PathBuf;

use crate::models::{ModelOptions, ModelSpec};
use crate::tasks::SplitArg;

/// How to run an evaluation. `Default` is `toolgate run`'s defaults.
#[derive(Clone, Debug)]
pub(crate) struct EvalOptions {
    /// Model specs (`bm25`, `openai:gpt-4o-mini`, …).
    pub models: Vec<ModelSpec>,
    /// Trials per task for models that are not deterministic.
    pub trials: u32,
    pub split: SplitArg,
    /// Run directory to create (default: `runs/<time>-<label>`).
    pub out: Option<PathBuf>,
    pub label: Option<String>,
    /// Continue the run in this directory.
    pub resume: Option<PathBuf>,
    /// Requests in flight at once, per provider.
    pub concurrency: usize,
    /// Calls a model may make per task.
    pub max_steps: u32,
    /// Run only this slice of the suite (`--shard K/N`).
    pub shard: Option<super::shard::Shard>,
    /// The tools re-measured (`run --only`); empty for the whole suite. The tasks are chosen
    /// before the evaluation starts; this is recorded in run.json.
    pub only: Vec<String>,
    /// Reuse this base's decisions where a change cannot reach (`--incremental`).
    pub incremental: Option<IncrementalBase>,
    pub model: ModelOptions,
    /// Stop paying once the estimate says this many US dollars are spent (`--max-cost`): the
    /// per-call estimate becomes a call budget, like `--max-calls`.
    pub max_cost: Option<f64>,
}

/// The base of an incremental run and the name reports give it.
#[derive(Clone, Debug)]
pub(crate) struct IncrementalBase {
    pub base: std::sync::Arc<super::baseline::Baseline>,
    pub name: String,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            models: vec![ModelSpec::bm25()],
            trials: 1,
            split: SplitArg::All,
            out: None,
            label: None,
            resume: None,
            concurrency: 4,
            max_steps: 1,
            shard: None,
            only: Vec::new(),
            incremental: None,
            model: ModelOptions::default(),
            max_cost: None,
        }
    }
}

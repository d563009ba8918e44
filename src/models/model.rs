//! What every model under evaluation is: the `Model` interface (a spec, whether it is
//! deterministic, and a decision per request), and the options LLM models are reached with.

use std::future::Future;
use std::pin::Pin;

use super::llm::LlmOptions;
use crate::record::decision::Decision;
use crate::record::probe::DescriptionProbe;
use crate::tasks::Task;

pub(crate) type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A model under evaluation.
pub trait Model: Send + Sync {
    /// The spec it was built from, normalised (`bm25:1.5`): the model's identity in run files.
    fn spec(&self) -> String;
    /// True when the same request always gets the same decision (no need for trials).
    fn deterministic(&self) -> bool;
    /// Decides what to call for `task`. Never fails: problems become `Decision::error`.
    fn decide<'a>(&'a self, task: &'a Task, trial: u32) -> BoxFuture<'a, Decision>;
    /// Announces the requests about to be decided, so a model can work on them in batches
    /// (the embedding router embeds them together). Optional: `decide` works without it.
    fn prepare(&self, _requests: &[&str]) {}
    /// Things worth reporting about how the model was run (e.g. a dropped temperature).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// Why the model's endpoint was stopped before the run ended (decisions it did not make
    /// are not recorded, so the run is partial and a resume makes them). `None`: it was not.
    fn stopped(&self) -> Option<String> {
        None
    }
    /// Whether tool descriptions reach the model on this endpoint, shown by behaviour (a
    /// canary, [`Canary`]), not by the `usage` an endpoint reports: some local chat formats
    /// leave descriptions out of the prompt. `request` and `prompt_tokens` (what it cost with
    /// the catalog as served) are kept for the record. `None`: not an LLM.
    fn descriptions_reach<'a>(
        &'a self,
        _request: &'a str,
        _prompt_tokens: Option<u64>,
    ) -> BoxFuture<'a, Option<DescriptionProbe>> {
        Box::pin(async { None })
    }
}

/// How LLM models are reached: flags that apply to every model of a run.
#[derive(Clone, Debug, Default)]
pub struct ModelOptions {
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub llm: LlmOptions,
}

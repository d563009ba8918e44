//! Models that choose a tool for a request: the offline BM25 router here; LLM adapters and
//! replayed logs build on the same interface. A model is built for one catalog.

pub mod bm25;
pub mod cache;
pub mod card_search;
pub mod codex_search;
pub mod cost;
pub mod discover;
pub mod embed;
pub mod error;
pub mod llm;
pub mod local;
pub mod provider;
pub mod replay;
pub mod spec;
pub mod tool_search;
pub mod wire;

use std::future::Future;
use std::pin::Pin;

use anyhow::bail;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use error::{DecisionError, ErrorKind};
pub use spec::{ModelKind, ModelSpec};

use crate::catalog::Catalog;
use crate::tasks::Task;

/// What a model decided for one request (one trial).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The tool called, or `None` when the model called nothing.
    #[serde(default)]
    pub tool: Option<String>,
    /// The arguments given, when the model gives arguments (BM25 does not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Map<String, Value>>,
    /// Transport failures, malformed output, invented tools: scored as errors, never as a
    /// confusion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The error's kind, typed where it happened (absent in files of older toolgates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<ErrorKind>,
    /// What the model said instead of calling (kept for the report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A ranking model's best tools, best first (up to `score::retrieval::DEPTH`), for the
    /// retrieval metrics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranking: Option<Vec<String>>,
    /// The router's score for its choice (BM25), for diagnosis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(default)]
    pub latency_ms: u64,
    /// The model id (and fingerprint) the provider says answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_by: Option<String>,
    /// Every call in order, when the model may make several (`--max-steps` > 1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
    /// Calls after the first in the same reply (parallel tool calls), scored with it (an
    /// unasked write among them fails the task).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parallel_calls: Vec<Step>,
    /// Prompt and completion tokens the provider reported for this decision (all turns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<u64>,
    /// Every reply of this decision came from the response cache.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
}

impl Decision {
    /// Every call the decision made, in order: the steps of a multi-step run, else the call
    /// and any parallel calls of its one reply.
    pub fn calls(&self) -> Vec<Step> {
        if !self.steps.is_empty() {
            return self.steps.clone();
        }
        let Some(tool) = &self.tool else {
            return Vec::new();
        };
        let mut out = vec![Step {
            tool: tool.clone(),
            arguments: self.arguments.clone(),
            error: None,
            turn: Some(0),
        }];
        // Calls of the same reply: made together with the first.
        out.extend(self.parallel_calls.iter().map(|s| Step {
            turn: Some(0),
            ..s.clone()
        }));
        out
    }
}

/// One call of a multi-step decision.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The model's reply this call was made in (0 for the first): calls of one reply were
    /// made together, in parallel, and none of them comes before another. Absent in replayed
    /// logs and files of older toolgates, where each call is its own step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
}

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

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

/// The result of the description probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DescriptionProbe {
    /// What the probe showed: passed, failed or could not check. Only `passed` lets a run of
    /// this model pass a gate.
    pub outcome: ProbeOutcome,
    /// Why it could not check (or what failed), in a sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// Shown to reach the model (the canary followed the descriptions).
    pub reach: bool,
    #[serde(default)]
    pub canary: Canary,
    /// What the canary model called: with the descriptions as written, then swapped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub picked: Vec<String>,
    /// Prompt tokens of one request as reported, for the record (never the verdict: an
    /// endpoint may report a constant, or nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
}

/// The description probe's outcome, as every sink shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeOutcome {
    /// The canary followed the descriptions: they reach the model.
    Passed,
    /// The canary called the same tool with the descriptions swapped: they do not reach it.
    Failed,
    /// The canary was not sent, errored, or gave no clear answer.
    CouldNotCheck,
}

impl ProbeOutcome {
    pub fn label(self) -> &'static str {
        match self {
            ProbeOutcome::Passed => "passed",
            ProbeOutcome::Failed => "failed",
            ProbeOutcome::CouldNotCheck => "could not check",
        }
    }
}

impl From<Canary> for ProbeOutcome {
    fn from(c: Canary) -> Self {
        match c {
            Canary::Follows => ProbeOutcome::Passed,
            Canary::Ignores => ProbeOutcome::Failed,
            Canary::Inconclusive => ProbeOutcome::CouldNotCheck,
        }
    }
}

impl DescriptionProbe {
    /// A probe that was not (or could not be) sent, and why.
    pub fn unchecked(why: impl Into<String>) -> Self {
        DescriptionProbe {
            outcome: ProbeOutcome::CouldNotCheck,
            why: Some(why.into()),
            reach: false,
            canary: Canary::Inconclusive,
            picked: vec![],
            prompt_tokens: None,
        }
    }
}

/// What the description canary showed. Two tools with neutral names and one parameter alike
/// differ only in their descriptions; one request fits one description. Asked once as
/// written and once with the two descriptions swapped, a model that reads descriptions calls
/// a different tool each time — the described one; a model that never sees them calls the
/// same name (or position) both times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Canary {
    /// It called the described tool both times.
    Follows,
    /// It called the same tool both times: the descriptions made no difference.
    Ignores,
    /// No call, an error, or a wrong call once: it could not tell.
    #[default]
    Inconclusive,
}

/// How LLM models are reached: flags that apply to every model of a run.
#[derive(Clone, Debug, Default)]
pub struct ModelOptions {
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub llm: llm::LlmOptions,
}

/// Builds the LLM a `--fixer`/`--generator` spec names (`<provider>:<model>`).
pub fn build_llm(
    spec: &str,
    catalog: &Catalog,
    opts: &ModelOptions,
) -> anyhow::Result<llm::LlmModel> {
    let not_llm = || {
        anyhow::anyhow!(
            "`{spec}` is not an LLM: use <provider>:<model>, e.g. openai:gpt-4o-mini or ollama:llama3.1"
        )
    };
    let parsed: ModelSpec = match spec.parse() {
        Ok(p) => p,
        // A provider named without its model says so; anything else is not an LLM at all.
        Err(e) if e.contains("name the model") => bail!(e),
        Err(_) => return Err(not_llm()),
    };
    let ModelKind::Llm(p) = parsed.kind() else {
        return Err(not_llm());
    };
    let ep = provider::endpoint(p, opts.base_url.as_deref(), opts.api_key.as_deref())?;
    llm::LlmModel::new(
        parsed.as_str().to_string(),
        parsed.rest().to_string(),
        ep,
        catalog,
        opts.llm.clone(),
    )
}

/// Builds the model a parsed spec names, for `catalog`: `bm25[:min_score]`,
/// `embed[@min_cosine]:<dir>`, `hybrid[@min_cosine]:<dir>`, `replay:<file.jsonl>`, or
/// `<provider>:<model>` with provider one of openai, openrouter, ollama, vllm, llamacpp,
/// lmstudio, openai-compat, anthropic.
pub fn build(
    spec: &ModelSpec,
    catalog: &Catalog,
    opts: &ModelOptions,
) -> anyhow::Result<Box<dyn Model>> {
    let (head, rest) = (spec.head(), spec.rest());
    Ok(match spec.kind() {
        ModelKind::Bm25 => Box::new(bm25::Bm25::from_spec(rest, catalog)?),
        ModelKind::Replay => Box::new(replay::Replay::load(rest)?),
        ModelKind::ToolSearch if head == "toolsearch-card" => {
            Box::new(card_search::CardSearch::from_spec(rest, catalog)?)
        }
        ModelKind::ToolSearch if head == "toolsearch-codex" => {
            Box::new(codex_search::CodexSearch::from_spec(rest, catalog)?)
        }
        ModelKind::ToolSearch => Box::new(tool_search::ToolSearch::from_spec(head, rest, catalog)?),
        ModelKind::Embed => Box::new(embed::Embed::from_spec(head, rest, catalog)?),
        ModelKind::Hybrid => Box::new(embed::hybrid::Hybrid::from_spec(head, rest, catalog)?),
        ModelKind::Llm(p) if p.name == "local" => {
            if opts.base_url.is_some() {
                anyhow::bail!(
                    "`{spec}`: toolgate starts this llama-server itself, so --base-url does not apply (use llamacpp:<model> with --base-url for a server you run)"
                );
            }
            let slots = opts.llm.cache.as_ref().map(|c| c.dir().join("llama-slots"));
            let server = local::LocalServer::start(
                std::path::Path::new(rest),
                &crate::catalog::canonical::catalog_hash(catalog),
                slots.as_deref(),
            )?;
            let ep = provider::Endpoint {
                provider: p,
                base_url: server.base_url(),
                key: None,
            };
            // One slot (`-np 1`): one request at a time, whatever --concurrency says.
            let mut llm_opts = opts.llm.clone();
            llm_opts.concurrency = Some(1);
            Box::new(
                llm::LlmModel::new(
                    spec.as_str().to_string(),
                    rest.to_string(),
                    ep,
                    catalog,
                    llm_opts,
                )?
                .with_local(std::sync::Arc::new(server)),
            )
        }
        ModelKind::Llm(p) => {
            let ep = provider::endpoint(p, opts.base_url.as_deref(), opts.api_key.as_deref())?;
            Box::new(llm::LlmModel::new(
                spec.as_str().to_string(),
                rest.to_string(),
                ep,
                catalog,
                opts.llm.clone(),
            )?)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_their_provider() {
        let p = |s: &str| s.parse::<ModelSpec>().unwrap().provider();
        assert_eq!(p("openai:gpt-4o-mini").unwrap().name, "openai");
        assert_eq!(
            p("anthropic:claude-x").unwrap().wire,
            provider::Wire::Anthropic
        );
        assert!(p("bm25").is_none());
        let c = Catalog::default();
        let err = |s: &str| {
            build_llm(s, &c, &ModelOptions::default())
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert!(err("gpt4").contains("is not an LLM"));
        assert!(err("ollama:").contains("name the model"));
        assert!(err("bm25").contains("is not an LLM"));
    }
}

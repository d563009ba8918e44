//! The types of a run directory's files: `run.json` (versioned, `toolgate.run/v1`) and
//! `predictions.jsonl` (one line per task × trial × model); reading and writing them is
//! [`super::io`].

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::record::decision::Decision;
use crate::record::scores::Metrics;

pub(crate) use super::gate::GateResult;

pub(crate) const RUN_SCHEMA: &str = "toolgate.run/v1";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct CatalogInfo {
    pub source: String,
    pub sha256: String,
    pub tools: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct SuiteInfo {
    pub path: String,
    pub sha256: String,
    pub tasks: usize,
    pub by_kind: BTreeMap<String, usize>,
    /// Tasks no person approved (generated and not yet `toolgate approve`d). A suite with any
    /// is a smoke suite: its accuracy is shown and badged as "smoke", and it never decides a
    /// threshold gate.
    #[serde(default)]
    pub pending: usize,
    /// Of `pending`, tasks that were approved but changed since (their stamp no longer
    /// matches): an edited approved file is a smoke suite until a person approves it again.
    #[serde(default)]
    pub stale: usize,
}

impl SuiteInfo {
    /// Every task approved or hand-written: the suite may give a headline and a gate.
    pub(crate) fn reviewed(&self) -> bool {
        self.pending == 0
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ModelInfo {
    pub spec: String,
    pub deterministic: bool,
    /// Trials run per task for this model (1 for deterministic models).
    pub trials: u32,
    /// Model ids (and fingerprints) the provider reported.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub served_by: Vec<String>,
    /// How the model was run (e.g. a temperature it rejected).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Whether tool descriptions reach the model on this endpoint (LLMs with `usage`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub descriptions: Option<crate::record::probe::DescriptionProbe>,
    /// Tokens, latency and cache use over the run's decisions (LLMs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Why this model's decisions stopped before the run was complete (its endpoint stopped
    /// answering), when they did; a resumed run clears it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// What the run was expected to cost before it started (LLMs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimate>,
}

/// When the list prices of the cost estimate were read.
pub(crate) const PRICES_AS_OF: &str = "2025-08";

/// What a run of one model is expected to spend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Estimate {
    pub calls: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// US dollars at list price; `None` when the model's price is not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd: Option<f64>,
}

impl Estimate {
    /// One line for the log and the report.
    pub(crate) fn sentence(&self, spec: &str) -> String {
        let cost = match self.usd {
            Some(0.0) => " (runs on your own hardware: no per-token price)".to_string(),
            Some(usd) => format!(" ≈ ${usd:.2} at list price ({PRICES_AS_OF})"),
            None => " (no price known for this model: tokens only)".to_string(),
        };
        format!(
            "estimate for {spec}: {} call(s), ~{} prompt + ~{} reply tokens{cost}; cached replies cost nothing",
            self.calls, self.prompt_tokens, self.completion_tokens
        )
    }

    #[cfg(test)]
    /// The calls `max_usd` pays for at this estimate's price per call (`None`: no price).
    pub(crate) fn calls_for(&self, max_usd: f64) -> Option<u64> {
        let usd = self.usd?;
        if usd <= 0.0 || self.calls == 0 {
            return Some(u64::MAX);
        }
        let per_call = usd / self.calls as f64;
        Some((max_usd / per_call).floor() as u64)
    }
}

/// What a model's decisions cost and how fast they came.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Usage {
    pub decisions: usize,
    /// Decisions read from the response cache (no request made).
    pub cached: usize,
    /// Prompt and completion tokens over the decisions that reported them.
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub latency_p50_ms: u64,
    pub latency_p95_ms: u64,
}

/// What [`Usage`] is computed from, gathered one prediction at a time.
#[derive(Clone, Debug, Default)]
pub(crate) struct UsageTally {
    decisions: usize,
    cached: usize,
    prompt_tokens: u64,
    completion_tokens: u64,
    /// Latencies of the decisions that made requests.
    latencies: Vec<u64>,
}

impl UsageTally {
    pub(crate) fn add(&mut self, p: &PredictionLine) {
        let d = &p.decision;
        self.decisions += 1;
        if d.cached {
            self.cached += 1;
        } else {
            self.latencies.push(d.latency_ms);
        }
        self.prompt_tokens += d.prompt_tokens.unwrap_or(0);
        self.completion_tokens += d.completion_tokens.unwrap_or(0);
    }

    pub(crate) fn usage(mut self) -> Usage {
        let lat = &mut self.latencies;
        lat.sort_unstable();
        let q = |f: f64| {
            if lat.is_empty() {
                0
            } else {
                lat[((lat.len() - 1) as f64 * f).round() as usize]
            }
        };
        Usage {
            decisions: self.decisions,
            cached: self.cached,
            prompt_tokens: self.prompt_tokens,
            completion_tokens: self.completion_tokens,
            latency_p50_ms: q(0.5),
            latency_p95_ms: q(0.95),
        }
    }
}

impl Usage {}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ModelResult {
    pub model: String,
    pub metrics: Metrics,
}

/// Where a run stands. `Errored` is a run whose error rate is over the policy's maximum:
/// its numbers measure the endpoint's failures, not the tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RunStatus {
    Running,
    Complete,
    Partial,
    Errored,
}

impl std::fmt::Display for RunStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::out::wire_name(self))
    }
}

fn one() -> u32 {
    1
}

/// `run.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct RunFile {
    pub schema_version: String,
    pub toolgate_version: String,
    pub created: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<String>,
    pub status: RunStatus,
    pub catalog: CatalogInfo,
    pub suite: SuiteInfo,
    pub models: Vec<ModelInfo>,
    /// Trials asked for (non-deterministic models).
    pub trials: u32,
    /// Which split was run (`all`, `dev`, `heldout`).
    pub split: String,
    /// Calls a model could make per task.
    #[serde(default = "one")]
    pub max_steps: u32,
    /// The seed passed to APIs that accept one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The provider URL given with --base-url, for `--resume` (never one holding credentials).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// The --concurrency given, for `--resume`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<usize>,
    /// The slice of the suite this run covers (`--shard K/N`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<super::shard::Shard>,
    /// The tools this run re-measured (`--only`): the suite's tasks that expect one of them or
    /// lure toward one, against the whole catalog; absent for a run of the whole suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only: Option<Vec<String>>,
    /// Decisions reused from a base (`--incremental`); absent for a run that made them all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reused: Option<super::reuse::Reuse>,
    /// The belt the tasks ran in (`--belt`): your tools and the belt's were offered together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub belt: Option<super::belt::BeltInfo>,
    /// Accuracy as the belt's tools join yours (`--belt`): the distractor curve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curve: Option<crate::record::scores::Curve>,
    /// The suite run again without descriptions and with neutral names (`--ablation`): what the
    /// score measures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ablation: Option<crate::record::scores::Ablation>,
    #[serde(default)]
    pub results: Vec<ModelResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<GateResult>,
}

impl RunFile {
    /// The base URL kept for `--resume`: never one holding credentials.
    pub(crate) fn resumable_url(url: Option<&str>) -> Option<String> {
        url.filter(|u| crate::secrets::redact_url(u) == *u)
            .map(str::to_string)
    }
}

impl RunFile {}

/// One line of `predictions.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct PredictionLine {
    pub model: String,
    pub task_id: String,
    pub trial: u32,
    #[serde(flatten)]
    pub decision: Decision,
}

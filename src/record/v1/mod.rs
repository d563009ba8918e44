//! Frozen wire types of `toolgate.run/v1` (run.json, and the run inside a baseline and ci.json):
//! field for field what the files have always said, converted from and to the internal types
//! (as zizmor keeps its `output/json/v1.rs`), so scoring can change inside toolgate without
//! changing what a base branch's files mean. A change here is a new schema version, not an edit.
//! Leaf values whose wire form is pinned by their own serde attributes are shared: `Rate`,
//! `RunStatus`, `GateReason`, `Draw`, `Arm`, `ArgsLayer`; so are the feature parts the record
//! defines for the file itself (`Shard`, `Reuse`, `BeltInfo`). The snapshot tests in
//! `tests/it/record_snapshots.rs` hold the whole wire form, so a change to any shared type
//! shows there.

#![allow(missing_docs)]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::record::run::{self as internal, RunStatus};

#[macro_use]
mod convert;
mod curve;
mod metrics;
mod probe;
pub(crate) use curve::{AblationV1, CurveV1};
pub(crate) use metrics::*;
pub(crate) use probe::DescriptionProbeV1;

fn one() -> u32 {
    1
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct CatalogInfoV1 {
    pub source: String,
    pub sha256: String,
    pub tools: Vec<String>,
}

impl From<internal::CatalogInfo> for CatalogInfoV1 {
    fn from(v: internal::CatalogInfo) -> Self {
        CatalogInfoV1 {
            source: v.source,
            sha256: v.sha256,
            tools: v.tools,
        }
    }
}

impl From<CatalogInfoV1> for internal::CatalogInfo {
    fn from(v: CatalogInfoV1) -> Self {
        internal::CatalogInfo {
            source: v.source,
            sha256: v.sha256,
            tools: v.tools,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct SuiteInfoV1 {
    pub path: String,
    pub sha256: String,
    pub tasks: usize,
    pub by_kind: BTreeMap<String, usize>,
    /// Tasks no person approved: a smoke suite (files of older toolgates: 0).
    #[serde(default, skip_serializing_if = "is_zero_usize")]
    pub pending: usize,
    /// Of `pending`, approved tasks edited since their approval (files of older toolgates: 0).
    #[serde(default, skip_serializing_if = "is_zero_usize")]
    pub stale: usize,
}

fn is_zero_usize(n: &usize) -> bool {
    *n == 0
}

impl From<internal::SuiteInfo> for SuiteInfoV1 {
    fn from(v: internal::SuiteInfo) -> Self {
        SuiteInfoV1 {
            path: v.path,
            sha256: v.sha256,
            tasks: v.tasks,
            by_kind: v.by_kind,
            pending: v.pending,
            stale: v.stale,
        }
    }
}

impl From<SuiteInfoV1> for internal::SuiteInfo {
    fn from(v: SuiteInfoV1) -> Self {
        internal::SuiteInfo {
            path: v.path,
            sha256: v.sha256,
            tasks: v.tasks,
            by_kind: v.by_kind,
            pending: v.pending,
            stale: v.stale,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ModelInfoV1 {
    pub spec: String,
    pub deterministic: bool,
    pub trials: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub served_by: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub descriptions: Option<DescriptionProbeV1>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<UsageV1>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<internal::Estimate>,
}

impl From<internal::ModelInfo> for ModelInfoV1 {
    fn from(v: internal::ModelInfo) -> Self {
        ModelInfoV1 {
            spec: v.spec,
            deterministic: v.deterministic,
            trials: v.trials,
            served_by: v.served_by,
            notes: v.notes,
            descriptions: v.descriptions.map(Into::into),
            usage: v.usage.map(Into::into),
            stopped: v.stopped,
            estimate: v.estimate,
        }
    }
}

impl From<ModelInfoV1> for internal::ModelInfo {
    fn from(v: ModelInfoV1) -> Self {
        internal::ModelInfo {
            spec: v.spec,
            deterministic: v.deterministic,
            trials: v.trials,
            served_by: v.served_by,
            notes: v.notes,
            descriptions: v.descriptions.map(Into::into),
            usage: v.usage.map(Into::into),
            stopped: v.stopped,
            estimate: v.estimate,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct UsageV1 {
    pub decisions: usize,
    pub cached: usize,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub latency_p50_ms: u64,
    pub latency_p95_ms: u64,
}

impl From<internal::Usage> for UsageV1 {
    fn from(v: internal::Usage) -> Self {
        UsageV1 {
            decisions: v.decisions,
            cached: v.cached,
            prompt_tokens: v.prompt_tokens,
            completion_tokens: v.completion_tokens,
            latency_p50_ms: v.latency_p50_ms,
            latency_p95_ms: v.latency_p95_ms,
        }
    }
}

impl From<UsageV1> for internal::Usage {
    fn from(v: UsageV1) -> Self {
        internal::Usage {
            decisions: v.decisions,
            cached: v.cached,
            prompt_tokens: v.prompt_tokens,
            completion_tokens: v.completion_tokens,
            latency_p50_ms: v.latency_p50_ms,
            latency_p95_ms: v.latency_p95_ms,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ModelResultV1 {
    pub model: String,
    pub metrics: MetricsV1,
}

impl From<internal::ModelResult> for ModelResultV1 {
    fn from(v: internal::ModelResult) -> Self {
        ModelResultV1 {
            model: v.model,
            metrics: v.metrics.into(),
        }
    }
}

impl From<ModelResultV1> for internal::ModelResult {
    fn from(v: ModelResultV1) -> Self {
        internal::ModelResult {
            model: v.model,
            metrics: v.metrics.into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct GateResultV1 {
    pub passed: bool,
    pub reasons: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<crate::record::GateReason>,
}

impl From<crate::record::gate::GateResult> for GateResultV1 {
    fn from(v: crate::record::gate::GateResult) -> Self {
        GateResultV1 {
            passed: v.passed,
            reasons: v.reasons,
            failures: v.failures,
        }
    }
}

impl From<GateResultV1> for crate::record::gate::GateResult {
    fn from(v: GateResultV1) -> Self {
        crate::record::gate::GateResult {
            passed: v.passed,
            reasons: v.reasons,
            failures: v.failures,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct RunFileV1 {
    pub schema_version: String,
    pub toolgate_version: String,
    pub created: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<String>,
    pub status: RunStatus,
    pub catalog: CatalogInfoV1,
    pub suite: SuiteInfoV1,
    pub models: Vec<ModelInfoV1>,
    pub trials: u32,
    pub split: String,
    #[serde(default = "one")]
    pub max_steps: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The provider URL given with --base-url (never one holding credentials).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// The --concurrency given, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::record::shard::Shard>,
    /// The tools re-measured with `--only`; absent for a run of the whole suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reused: Option<crate::record::reuse::Reuse>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub belt: Option<crate::record::belt::BeltInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curve: Option<CurveV1>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ablation: Option<AblationV1>,
    #[serde(default)]
    pub results: Vec<ModelResultV1>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<GateResultV1>,
}

impl From<internal::RunFile> for RunFileV1 {
    fn from(v: internal::RunFile) -> Self {
        RunFileV1 {
            schema_version: v.schema_version,
            toolgate_version: v.toolgate_version,
            created: v.created,
            finished: v.finished,
            status: v.status,
            catalog: v.catalog.into(),
            suite: v.suite.into(),
            models: v.models.into_iter().map(Into::into).collect(),
            trials: v.trials,
            split: v.split,
            max_steps: v.max_steps,
            seed: v.seed,
            base_url: v.base_url,
            concurrency: v.concurrency,
            shard: v.shard,
            only: v.only,
            reused: v.reused,
            belt: v.belt,
            curve: v.curve.map(Into::into),
            ablation: v.ablation.map(Into::into),
            results: v.results.into_iter().map(Into::into).collect(),
            gate: v.gate.map(Into::into),
        }
    }
}

impl From<RunFileV1> for internal::RunFile {
    fn from(v: RunFileV1) -> Self {
        internal::RunFile {
            schema_version: v.schema_version,
            toolgate_version: v.toolgate_version,
            created: v.created,
            finished: v.finished,
            status: v.status,
            catalog: v.catalog.into(),
            suite: v.suite.into(),
            models: v.models.into_iter().map(Into::into).collect(),
            trials: v.trials,
            split: v.split,
            max_steps: v.max_steps,
            seed: v.seed,
            base_url: v.base_url,
            concurrency: v.concurrency,
            shard: v.shard,
            only: v.only,
            reused: v.reused,
            belt: v.belt,
            curve: v.curve.map(Into::into),
            ablation: v.ablation.map(Into::into),
            results: v.results.into_iter().map(Into::into).collect(),
            gate: v.gate.map(Into::into),
        }
    }
}

/// `#[serde(with = "crate::record::v1::run_serde")]` on a field holding the internal run: it is
/// written and read as [`RunFileV1`].
pub(crate) mod run_serde {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::RunFileV1;
    use crate::record::run::RunFile;

    pub(crate) fn serialize<S: Serializer>(run: &RunFile, s: S) -> Result<S::Ok, S::Error> {
        RunFileV1::from(run.clone()).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RunFile, D::Error> {
        RunFileV1::deserialize(d).map(Into::into)
    }
}

/// The internal run as run.json's text (pretty, newline-terminated).
pub(crate) fn to_text(run: &internal::RunFile) -> serde_json::Result<String> {
    let mut s = serde_json::to_string_pretty(&RunFileV1::from(run.clone()))?;
    s.push('\n');
    Ok(s)
}

/// run.json's text as the internal run.
pub(crate) fn from_text(text: &str) -> serde_json::Result<internal::RunFile> {
    serde_json::from_str::<RunFileV1>(text).map(Into::into)
}

#[cfg(test)]
mod tests {
    /// run.json written before the wire types were frozen reads and writes back unchanged.
    #[test]
    fn the_example_run_round_trips_byte_for_byte() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/example/toolgate-baseline.json"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let run_text = serde_json::to_string_pretty(&v["run"]).unwrap() + "\n";
        let run = super::from_text(&run_text).unwrap();
        assert_eq!(super::to_text(&run).unwrap(), run_text);
    }
}

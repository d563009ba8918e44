//! Models that choose a tool for a request: the offline BM25 router here; LLM adapters and
//! replayed logs build on the same interface. A model is built for one catalog.

pub mod bm25;

use std::future::Future;
use std::pin::Pin;

use anyhow::bail;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::catalog::Catalog;

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
    /// What the model said instead of calling (kept for the report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The router's score for its choice (BM25), for diagnosis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(default)]
    pub latency_ms: u64,
}

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A model under evaluation.
pub trait Model: Send + Sync {
    /// The spec it was built from, normalised (`bm25:1.5`): the model's identity in run files.
    fn spec(&self) -> String;
    /// True when the same request always gets the same decision (no need for trials).
    fn deterministic(&self) -> bool;
    /// Decides what to call for `request`. Never fails: problems become `Decision::error`.
    fn decide<'a>(&'a self, request: &'a str, trial: u32) -> BoxFuture<'a, Decision>;
}

/// Builds a model from its spec (`bm25`, `bm25:<min_score>`).
pub fn build(spec: &str, catalog: &Catalog) -> anyhow::Result<Box<dyn Model>> {
    let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
    match kind {
        "bm25" => Ok(Box::new(bm25::Bm25::from_spec(rest, catalog)?)),
        other => bail!(
            "unknown model `{other}` in `{spec}`: this build knows `bm25` and `bm25:<min_score>`"
        ),
    }
}

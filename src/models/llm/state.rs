//! An LLM model's state and settings: the endpoint, tools and client it calls with, its
//! limits and counters, and the options a run gives it. What it does is the parent's and its
//! siblings' (`impl LlmModel` blocks).

use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Semaphore;

use super::budget::{Budget, Limiters};
use super::inflight::InFlight;
use crate::models::DecisionError;
use crate::models::cache::Cache;
use crate::models::provider::Endpoint;

#[derive(Clone, Debug)]
/// Why a provider call failed: a parameter the model refused (sent again without it), or
/// for good.
pub(crate) enum CallError {
    TemperatureRejected,
    /// The model wants `max_completion_tokens` instead of `max_tokens`.
    MaxTokensRejected,
    Failed(DecisionError),
}

/// A provider's answer to one request body: the reply, whether it came from the response
/// cache, and how long the provider took.
pub(super) type Fetched = Result<(Value, bool, Duration), CallError>;

/// The error text of a decision not made because `--max-calls` was reached. The runner does
/// not persist such decisions, so a resumed run (with a larger budget) makes them.
pub(crate) const BUDGET_EXHAUSTED: &str = "budget exhausted (--max-calls)";

#[derive(Clone, Debug)]
pub struct LlmOptions {
    pub timeout: Duration,
    pub retries: u32,
    /// Requests in flight at once to this model's provider; `None`: the endpoint's default
    /// ([`Endpoint::default_concurrency`]: 1 on this machine, 4 elsewhere).
    pub concurrency: Option<usize>,
    pub cache: Option<Cache>,
    pub budget: Option<Arc<Budget>>,
    pub seed: Option<u64>,
    /// First retry wait when the provider gives no Retry-After.
    pub backoff: Duration,
    /// Longest wait between retries, whatever `Retry-After` asks for (a longer or unusable
    /// value is capped, with a note).
    pub max_wait: Duration,
    /// Calls the model may make per task; each is answered with a synthetic result.
    pub max_steps: u32,
    /// One request limiter per provider, shared by every model of that provider in a run.
    pub limiters: Limiters,
}

impl Default for LlmOptions {
    fn default() -> Self {
        LlmOptions {
            timeout: Duration::from_secs(60),
            retries: 4,
            concurrency: None,
            cache: None,
            budget: None,
            seed: None,
            backoff: Duration::from_millis(500),
            max_wait: Duration::from_secs(120),
            max_steps: 1,
            limiters: Limiters::default(),
        }
    }
}

pub struct LlmModel {
    pub(super) spec: String,
    pub(super) model: String,
    pub(super) endpoint: Endpoint,
    pub(super) tools: Vec<Value>,
    pub(super) client: reqwest::Client,
    pub(super) sem: Arc<Semaphore>,
    pub(super) opts: LlmOptions,
    pub(super) temperature: AtomicBool,
    /// The model refused `max_tokens`: the bound is sent as `max_completion_tokens`.
    pub(super) completion_tokens: AtomicBool,
    pub(super) notes: Mutex<Vec<String>>,
    /// The synthetic result each tool returns in multi-step runs (from its outputSchema).
    pub(super) results: std::collections::HashMap<String, String>,
    /// HTTP requests actually sent (cache hits excluded).
    pub calls: AtomicUsize,
    /// Requests in flight, by cache key: an identical request waits for that one's reply.
    pub(super) inflight: InFlight<Fetched>,
    /// The endpoint runs on this machine and is sent one request at a time: a timed-out
    /// request may still hold its only slot (see `retry::LlmModel::wait_for_slot`).
    pub(super) one_slot: bool,
    /// Why the endpoint was stopped for the rest of the run; every later request fails at
    /// once with [`ErrorKind::Stopped`].
    pub(super) halted: Mutex<Option<String>>,
    /// Connection attempts in a row that reached nothing (refused, unresolved, connect
    /// timeout); any reply resets it. At [`DEAD_AFTER`] the endpoint is stopped.
    pub(super) unreachable: AtomicUsize,
    /// Requests in a row that failed with a server error (5xx) after all their retries; any
    /// other reply resets it. At [`FAILING_AFTER`] the endpoint is stopped.
    pub(super) server_errors: AtomicUsize,
    /// The llama-server toolgate started for a `local:` spec (stopped when dropped).
    pub(super) local: Option<Arc<crate::models::local::LocalServer>>,
    /// The parameters this endpoint rejected in an earlier run, read from the cache once.
    pub(super) quirks: std::sync::Once,
}

/// Connection attempts in a row that reach nothing before an endpoint is stopped for the rest
/// of the run: a dead endpoint ends a run in seconds, not after every decision's retries.
pub(crate) const DEAD_AFTER: usize = 3;

/// Requests in a row that fail with server errors (HTTP 5xx) after all their retries before an
/// endpoint is stopped for the rest of the run (issue 43 point 4: an endpoint answering 500 to
/// everything took 403 s for 70 tasks); a passing hiccup is retried within one request.
pub(crate) const FAILING_AFTER: usize = 3;

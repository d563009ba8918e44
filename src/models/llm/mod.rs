//! The LLM adapter: one model behind an OpenAI-compatible or Anthropic endpoint. It never
//! aborts a run: timeouts, 429/5xx (retried with backoff that honours Retry-After, a bounded
//! number of times), malformed tool-call JSON, non-object arguments, invented tool names and
//! plain-text replies all become scored outcomes. Temperature 0 is sent and dropped, with a
//! note, when a model rejects it; a seed is sent where the API takes one. Replies are cached.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::cache::Cache;
use super::provider::{Endpoint, Wire};
use super::wire::{self, Reply};
use super::{DecisionError, ErrorKind};
use crate::catalog::Catalog;

mod budget;
mod decide;
mod inflight;
mod probe;
mod quirks;
mod retry;
mod slot;
mod state;

pub(crate) use budget::Budget;
use decide::synthetic_result;
use inflight::InFlight;
pub(crate) use probe::advice;
use quirks::Quirk;
pub use state::LlmOptions;
pub(crate) use state::{BUDGET_EXHAUSTED, DEAD_AFTER, FAILING_AFTER, LlmModel};
use state::{CallError, Fetched};

impl LlmModel {
    pub fn new(
        spec: String,
        model: String,
        endpoint: Endpoint,
        catalog: &Catalog,
        opts: LlmOptions,
    ) -> anyhow::Result<Self> {
        // A redirect to another origin would carry the key (`x-api-key` is not one of the
        // headers reqwest drops across hosts): refuse it.
        let client = crate::catalog::net::client_builder()
            .connect_timeout(Duration::from_secs(10))
            .user_agent(concat!("toolgate/", env!("CARGO_PKG_VERSION")))
            .redirect(crate::catalog::net::same_origin_redirects())
            .build()?;
        let mut notes = Vec::new();
        let permits = opts.concurrency.unwrap_or_else(|| {
            let n = endpoint.default_concurrency();
            if n == 1 {
                notes.push(format!(
                    "{}: the endpoint is on this machine, so one request is sent at a time (local runtimes queue the rest, and a queued request spends its --timeout waiting); pass --concurrency N if it serves more",
                    endpoint.provider.name
                ));
            }
            n
        });
        let sem = opts.limiters.get(endpoint.provider.name, permits);
        let one_slot = permits == 1 && endpoint.is_local();
        if endpoint.key.is_some()
            && let Some(w) = crate::catalog::net::plain_http_warning(
                &endpoint.base_url,
                &format!("the {} API key", endpoint.provider.name),
            )
        {
            notes.push(w);
        }
        Ok(LlmModel {
            spec,
            model,
            tools: wire::tools(endpoint.provider.wire, catalog),
            results: catalog
                .tools
                .iter()
                .map(|t| (t.name().to_string(), synthetic_result(t)))
                .collect(),
            endpoint,
            client,
            sem,
            temperature: AtomicBool::new(true),
            completion_tokens: AtomicBool::new(false),
            notes: Mutex::new(notes),
            calls: AtomicUsize::new(0),
            inflight: InFlight::default(),
            one_slot,
            halted: Mutex::new(None),
            unreachable: AtomicUsize::new(0),
            server_errors: AtomicUsize::new(0),
            local: None,
            quirks: std::sync::Once::new(),
            opts,
        })
    }

    /// Serves through `server`, a llama-server toolgate started: each request waits until
    /// it is ready, and the first answered one saves its slot cache.
    pub fn with_local(mut self, server: Arc<crate::models::local::LocalServer>) -> Self {
        self.local = Some(server);
        self
    }

    /// Why the endpoint was stopped for the rest of the run, if it was.
    pub fn stopped(&self) -> Option<String> {
        self.halted.lock().ok().and_then(|h| h.clone())
    }

    fn url(&self) -> String {
        match self.endpoint.provider.wire {
            Wire::OpenAi => format!("{}/chat/completions", self.endpoint.base_url),
            Wire::Anthropic => {
                let base = &self.endpoint.base_url;
                if base.ends_with("/v1") {
                    format!("{base}/messages")
                } else {
                    format!("{base}/v1/messages")
                }
            }
        }
    }

    /// Removes the key from any text that could be shown or stored.
    fn scrub(&self, text: &str) -> String {
        match &self.endpoint.key {
            Some(k) if !k.expose().is_empty() => text.replace(k.expose(), "[redacted]"),
            _ => text.to_string(),
        }
    }

    fn note(&self, n: String) {
        if let Ok(mut notes) = self.notes.lock()
            && !notes.contains(&n)
        {
            notes.push(n);
        }
    }

    /// Sends the body `make_body(temperature)` through the cache, the budget and the retries,
    /// dropping the temperature (with a note) when the model rejects it; returns the parsed reply.
    async fn exchange(
        &self,
        make_body: &(dyn Fn(bool) -> Value + Sync),
        trial: u32,
    ) -> Result<Reply, DecisionError> {
        self.exchange_with(make_body, trial, true).await
    }

    /// [`Self::exchange`]; `budgeted: false` for toolgate's own probe requests, which
    /// `--max-calls` does not count.
    async fn exchange_with(
        &self,
        make_body: &(dyn Fn(bool) -> Value + Sync),
        trial: u32,
        budgeted: bool,
    ) -> Result<Reply, DecisionError> {
        self.recall_quirks();
        loop {
            let mut body = make_body(self.temperature.load(Ordering::SeqCst));
            if self.completion_tokens.load(Ordering::SeqCst) {
                body = wire::with_completion_tokens(body);
            }
            let endpoint = self.cache_endpoint();
            let key = Cache::key(
                self.endpoint.provider.name,
                endpoint,
                &self.model,
                &body,
                trial,
            );
            let fetch = || self.fetch(&key, &body, budgeted);
            // Identical requests in flight together are sent once when replies are shared
            // anyway (the cache is on); `--no-cache` sends every request.
            let (outcome, sent_here) = if self.opts.cache.is_some() {
                self.inflight.run(&key, fetch).await
            } else {
                (fetch().await, true)
            };
            let (reply, cached, elapsed) = match outcome {
                Ok(fetched) => fetched,
                Err(CallError::TemperatureRejected) => {
                    if self.temperature.load(Ordering::SeqCst) {
                        self.learn(Quirk::Temperature, false);
                    }
                    continue;
                }
                Err(CallError::MaxTokensRejected) => {
                    if !self.completion_tokens.load(Ordering::SeqCst) {
                        self.learn(Quirk::MaxTokens, false);
                    }
                    continue;
                }
                Err(CallError::Failed(e)) => return Err(e),
            };
            // A reply shared with an identical request in flight cost this decision no call:
            // counted like a cache hit.
            let cached = cached || !sent_here;
            return wire::parse(self.endpoint.provider.wire, &reply)
                .map(|mut r| {
                    r.cached = cached;
                    r.elapsed = if cached { Duration::ZERO } else { elapsed };
                    r
                })
                .map_err(|e| {
                    DecisionError::new(ErrorKind::Malformed, format!("unexpected reply: {e}"))
                });
        }
    }

    /// The reply to `body`: from the cache, else sent once a request slot is free (the
    /// `--timeout` clock starts then, not while queued) and stored in the cache on success.
    async fn fetch(&self, key: &str, body: &Value, budgeted: bool) -> Fetched {
        if let Some(v) = self.opts.cache.as_ref().and_then(|c| c.get(key)) {
            return Ok((v, true, Duration::ZERO));
        }
        let _permit = self.sem.acquire().await.map_err(|e| {
            CallError::Failed(DecisionError::new(ErrorKind::Transport, e.to_string()))
        })?;
        // Built before a request that was sent meanwhile learned the model rejects
        // temperature 0: rebuilt without it rather than sent to be refused.
        if body.get("temperature").is_some() && !self.temperature.load(Ordering::SeqCst) {
            return Err(CallError::TemperatureRejected);
        }
        if let Some(l) = &self.local
            && let Err(cause) = l.ready(&self.client).await
        {
            return Err(self.halt(cause));
        }
        let start = Instant::now();
        let v = self.send(body, budgeted).await?;
        if let Some(l) = &self.local {
            l.save_once(&self.client).await;
        }
        if let Some(c) = &self.opts.cache {
            c.put(key, &v);
        }
        Ok((v, false, start.elapsed()))
    }

    /// A plain completion (no tools): the reply text. `variant` keys the cache, and variants
    /// after the first are sampled without temperature 0, so a regenerated request differs.
    pub async fn complete(&self, system: &str, user: &str, variant: u32) -> Result<String, String> {
        let wire = self.endpoint.provider.wire;
        let make = |t: bool| wire::text_body(wire, &self.model, system, user, t && variant == 0);
        let reply = self.exchange(&make, variant).await.map_err(|e| e.message)?;
        reply
            .text
            .ok_or_else(|| "the writer replied with no text".to_string())
    }

    /// One model turn with the tools offered.
    async fn turn(
        &self,
        request: &str,
        turns: &[wire::Turn],
        trial: u32,
    ) -> Result<Reply, DecisionError> {
        let wire = self.endpoint.provider.wire;
        let make = |t: bool| {
            wire::body(
                wire,
                &self.model,
                &self.tools,
                request,
                turns,
                t,
                self.opts.seed,
            )
        };
        self.exchange(&make, trial).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_is_shared_and_bounded() {
        let b = Budget::new(2);
        assert!(b.take() && b.take() && !b.take());
        assert_eq!(b.used(), 2);
    }
}

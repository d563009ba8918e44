//! The LLM adapter: one model behind an OpenAI-compatible or Anthropic endpoint. It never
//! aborts a run: timeouts, 429/5xx (retried with backoff that honours Retry-After, a bounded
//! number of times), malformed tool-call JSON, non-object arguments, invented tool names and
//! plain-text replies all become scored outcomes. Temperature 0 is sent and dropped, with a
//! note, when a model rejects it; a seed is sent where the API takes one. Replies are cached.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Semaphore;

use super::cache::Cache;
use super::provider::{Endpoint, Wire};
use super::wire::{self, Reply};
use super::{BoxFuture, Decision, Model};
use crate::catalog::Catalog;
use crate::tasks::Task;

/// The error text of a decision not made because `--max-calls` was reached. The runner does
/// not persist such decisions, so a resumed run (with a larger budget) makes them.
pub const BUDGET_EXHAUSTED: &str = "budget exhausted (--max-calls)";

/// A shared cap on provider calls across every model of a run.
#[derive(Debug)]
pub struct Budget {
    max: usize,
    used: AtomicUsize,
}

impl Budget {
    pub fn new(max: usize) -> Self {
        Budget {
            max,
            used: AtomicUsize::new(0),
        }
    }

    fn take(&self) -> bool {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |u| {
                (u < self.max).then_some(u + 1)
            })
            .is_ok()
    }

    pub fn used(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }
}

#[derive(Clone, Debug)]
pub struct LlmOptions {
    pub timeout: Duration,
    pub retries: u32,
    /// Requests in flight at once to this model's provider.
    pub concurrency: usize,
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

/// Per-provider request limiters.
#[derive(Clone, Debug, Default)]
pub struct Limiters(Arc<Mutex<std::collections::HashMap<String, Arc<Semaphore>>>>);

impl Limiters {
    /// The limiter of `provider`, created with `permits` on first use.
    pub fn get(&self, provider: &str, permits: usize) -> Arc<Semaphore> {
        match self.0.lock() {
            Ok(mut m) => m
                .entry(provider.to_string())
                .or_insert_with(|| Arc::new(Semaphore::new(permits.max(1))))
                .clone(),
            Err(_) => Arc::new(Semaphore::new(permits.max(1))),
        }
    }
}

impl Default for LlmOptions {
    fn default() -> Self {
        LlmOptions {
            timeout: Duration::from_secs(60),
            retries: 4,
            concurrency: 4,
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
    spec: String,
    model: String,
    endpoint: Endpoint,
    tools: Vec<Value>,
    client: reqwest::Client,
    sem: Arc<Semaphore>,
    opts: LlmOptions,
    temperature: AtomicBool,
    notes: Mutex<Vec<String>>,
    /// The synthetic result each tool returns in multi-step runs (from its outputSchema).
    results: std::collections::HashMap<String, String>,
    /// HTTP requests actually sent (cache hits excluded).
    pub calls: AtomicUsize,
}

enum CallError {
    TemperatureRejected,
    Failed(String),
}

/// An error and its causes, `: `-joined (reqwest hides the reason behind "error sending
/// request" or "error following redirect").
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        let s_text = s.to_string();
        if !text.contains(&s_text) {
            text.push_str(": ");
            text.push_str(&s_text);
        }
        cur = s.source();
    }
    text
}

/// The wait a Retry-After header asks for (delta-seconds or an HTTP date), capped at `cap`,
/// and a note when the value was unusable (NaN, negative, not a number or date) or cut. An
/// unusable value gives `None`: the caller's own backoff applies.
fn retry_after(
    h: &reqwest::header::HeaderMap,
    cap: Duration,
) -> (Option<Duration>, Option<String>) {
    const WHAT: &str = "the provider's Retry-After";
    let Some(raw) = h.get(reqwest::header::RETRY_AFTER) else {
        return (None, None);
    };
    let Ok(v) = raw.to_str().map(str::trim) else {
        return (
            None,
            Some(format!("{WHAT} is not text; used toolgate's backoff")),
        );
    };
    let shown: String = v.chars().take(40).collect();
    if let Ok(secs) = v.parse::<f64>() {
        return match crate::limits::capped_wait(secs, cap, WHAT) {
            (d, None) => (Some(d), None),
            // Unusable (NaN, negative): fall back to the backoff.
            (_, Some(_)) if secs.is_nan() || secs <= 0.0 => (
                None,
                Some(format!(
                    "{WHAT} `{shown}` is not a usable wait; used toolgate's backoff"
                )),
            ),
            (d, Some(note)) => (Some(d), Some(note)),
        };
    }
    let Some(when) = httpdate_to_system(v) else {
        return (
            None,
            Some(format!(
                "{WHAT} `{shown}` is neither seconds nor a date; used toolgate's backoff"
            )),
        );
    };
    let wait = when
        .duration_since(std::time::SystemTime::now())
        .unwrap_or_default();
    if wait > cap {
        let note = format!(
            "{WHAT} asked to wait {}s; waited {}s",
            wait.as_secs(),
            cap.as_secs_f64()
        );
        return (Some(cap), Some(note));
    }
    (Some(wait), None)
}

fn httpdate_to_system(v: &str) -> Option<std::time::SystemTime> {
    humantime::parse_rfc3339_weak(v).ok().or_else(|| {
        // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
        let parts: Vec<&str> = v.split_whitespace().collect();
        let months = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let m = months
            .iter()
            .position(|x| Some(*x) == parts.get(2).copied())?
            + 1;
        let iso = format!(
            "{}-{:02}-{:02}T{}Z",
            parts.get(3)?,
            m,
            parts.get(1)?.parse::<u32>().ok()?,
            parts.get(4)?
        );
        humantime::parse_rfc3339(&iso).ok()
    })
}

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
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .user_agent(concat!("toolgate/", env!("CARGO_PKG_VERSION")))
            .redirect(crate::catalog::net::same_origin_redirects())
            .build()?;
        let sem = opts.limiters.get(endpoint.provider.name, opts.concurrency);
        let mut notes = Vec::new();
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
            notes: Mutex::new(notes),
            calls: AtomicUsize::new(0),
            opts,
        })
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

    async fn send(&self, body: &Value, budgeted: bool) -> Result<Value, CallError> {
        let mut attempt = 0u32;
        loop {
            if budgeted
                && let Some(b) = &self.opts.budget
                && !b.take()
            {
                return Err(CallError::Failed(BUDGET_EXHAUSTED.into()));
            }
            self.calls.fetch_add(1, Ordering::SeqCst);
            let mut req = self
                .client
                .post(self.url())
                .timeout(self.opts.timeout)
                .json(body);
            match (self.endpoint.provider.wire, &self.endpoint.key) {
                (Wire::OpenAi, Some(k)) => req = req.bearer_auth(k.expose()),
                (Wire::Anthropic, Some(k)) => req = req.header("x-api-key", k.expose()),
                _ => {}
            }
            if self.endpoint.provider.wire == Wire::Anthropic {
                req = req.header("anthropic-version", "2023-06-01");
            }
            let outcome: Result<Value, (String, Option<Duration>)> = match req.send().await {
                Ok(resp) => {
                    let status = resp.status();
                    let (wait, wait_note) = retry_after(resp.headers(), self.opts.max_wait);
                    if let Some(n) = wait_note {
                        self.note(format!("{}: {n}", self.spec));
                    }
                    let text = resp.text().await.unwrap_or_default();
                    if status.is_success() {
                        match serde_json::from_str::<Value>(&text) {
                            Ok(v) => return Ok(v),
                            Err(e) => {
                                return Err(CallError::Failed(format!(
                                    "the reply is not JSON: {e}"
                                )));
                            }
                        }
                    }
                    let lower = text.to_lowercase();
                    // Whether *this* request carried a temperature: requests in flight when another
                    // one learned the model rejects it must be resent, not scored as errors.
                    if status.as_u16() == 400
                        && lower.contains("temperature")
                        && body.get("temperature").is_some()
                    {
                        return Err(CallError::TemperatureRejected);
                    }
                    let prefix: String = self.scrub(&text).chars().take(300).collect();
                    let msg = format!("HTTP {status}: {prefix}");
                    if status.as_u16() == 429 || status.as_u16() == 408 || status.is_server_error()
                    {
                        Err((msg, wait))
                    } else {
                        return Err(CallError::Failed(msg));
                    }
                }
                Err(e) if e.is_redirect() => {
                    // A refused cross-origin redirect: retrying cannot help.
                    return Err(CallError::Failed(format!(
                        "request failed: {}",
                        self.scrub(&error_chain(&e))
                    )));
                }
                Err(e) => {
                    let what = if e.is_timeout() {
                        format!(
                            "no reply within {}s (--timeout)",
                            self.opts.timeout.as_secs_f64()
                        )
                    } else {
                        format!("request failed: {}", self.scrub(&error_chain(&e)))
                    };
                    Err((what, None))
                }
            };
            let Err((msg, wait)) = outcome else {
                unreachable!("successes return early")
            };
            if attempt >= self.opts.retries {
                return Err(CallError::Failed(format!(
                    "{msg} (after {} retries)",
                    self.opts.retries
                )));
            }
            let backoff = self
                .opts
                .backoff
                .checked_mul(2u32.saturating_pow(attempt))
                .unwrap_or(self.opts.max_wait)
                // Full jitter between half and all of the step, so parallel retries spread out.
                .mul_f64(0.5 + rand::random::<f64>() * 0.5);
            tokio::time::sleep(wait.unwrap_or(backoff).min(self.opts.max_wait)).await;
            attempt += 1;
        }
    }

    /// Sends the body `make_body(temperature)` through the cache, the budget and the retries,
    /// dropping the temperature (with a note) when the model rejects it; returns the parsed reply.
    async fn exchange(
        &self,
        make_body: &(dyn Fn(bool) -> Value + Sync),
        trial: u32,
    ) -> Result<Reply, String> {
        self.exchange_with(make_body, trial, true).await
    }

    /// [`Self::exchange`]; `budgeted: false` for toolgate's own probe requests, which
    /// `--max-calls` does not count.
    async fn exchange_with(
        &self,
        make_body: &(dyn Fn(bool) -> Value + Sync),
        trial: u32,
        budgeted: bool,
    ) -> Result<Reply, String> {
        loop {
            let body = make_body(self.temperature.load(Ordering::SeqCst));
            let key = Cache::key(
                self.endpoint.provider.name,
                &self.endpoint.base_url,
                &self.model,
                &body,
                trial,
            );
            let mut cached = false;
            let reply = match self.opts.cache.as_ref().and_then(|c| c.get(&key)) {
                Some(v) => {
                    cached = true;
                    v
                }
                None => {
                    let _permit = self.sem.acquire().await.map_err(|e| e.to_string())?;
                    match self.send(&body, budgeted).await {
                        Ok(v) => {
                            if let Some(c) = &self.opts.cache {
                                c.put(&key, &v);
                            }
                            v
                        }
                        Err(CallError::TemperatureRejected) => {
                            self.temperature.store(false, Ordering::SeqCst);
                            self.note(format!(
                                "{} rejected temperature 0; sent without a temperature",
                                self.spec
                            ));
                            continue;
                        }
                        Err(CallError::Failed(e)) => return Err(e),
                    }
                }
            };
            return wire::parse(self.endpoint.provider.wire, &reply)
                .map(|mut r| {
                    r.cached = cached;
                    r
                })
                .map_err(|e| format!("unexpected reply: {e}"));
        }
    }

    /// A plain completion (no tools): the reply text. `variant` keys the cache, and variants
    /// after the first are sampled without temperature 0, so a regenerated request differs.
    pub async fn complete(&self, system: &str, user: &str, variant: u32) -> Result<String, String> {
        let wire = self.endpoint.provider.wire;
        let make = |t: bool| wire::text_body(wire, &self.model, system, user, t && variant == 0);
        let reply = self.exchange(&make, variant).await?;
        reply
            .text
            .ok_or_else(|| "the writer replied with no text".to_string())
    }

    /// One model turn with the tools offered.
    async fn turn(&self, request: &str, turns: &[wire::Turn], trial: u32) -> Result<Reply, String> {
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

impl LlmModel {
    /// Sends the same request twice, with the catalog as served and with the first tool's
    /// description made ~40 words longer, and compares the prompt tokens the endpoint reports.
    async fn probe(&self, request: &str, known: Option<u64>) -> Option<super::DescriptionProbe> {
        let wire = self.endpoint.provider.wire;
        let mut longer = self.tools.clone();
        let padding = " This sentence is here only to make the description longer, so that toolgate can see whether tool descriptions reach the model at all on this endpoint; it changes nothing about what the tool does or when to use it.";
        let first = longer.first_mut()?;
        let desc = match wire {
            Wire::OpenAi => first.pointer_mut("/function/description"),
            Wire::Anthropic => first.get_mut("description"),
        };
        match desc {
            Some(Value::String(d)) => d.push_str(padding),
            _ => return None,
        }
        let tokens = |tools: Vec<Value>| async move {
            let make =
                |t: bool| wire::body(wire, &self.model, &tools, request, &[], t, self.opts.seed);
            self.exchange_with(&make, 0, false)
                .await
                .ok()?
                .usage
                .map(|u| u.0)
        };
        let a = match known {
            Some(a) => a,
            None => tokens(self.tools.clone()).await?,
        };
        let b = tokens(longer).await?;
        Some(super::DescriptionProbe {
            reach: a != b,
            prompt_tokens: (a, b),
        })
    }
}

impl Model for LlmModel {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn deterministic(&self) -> bool {
        false
    }

    fn notes(&self) -> Vec<String> {
        self.notes.lock().map(|n| n.clone()).unwrap_or_default()
    }

    fn descriptions_reach<'a>(
        &'a self,
        request: &'a str,
        prompt_tokens: Option<u64>,
    ) -> BoxFuture<'a, Option<super::DescriptionProbe>> {
        Box::pin(self.probe(request, prompt_tokens))
    }

    fn decide<'a>(&'a self, task: &'a Task, trial: u32) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            let max = self.opts.max_steps.max(1);
            let mut turns = Vec::new();
            let mut steps = Vec::new();
            let mut first: Option<Decision> = None;
            let (mut prompt, mut completion, mut all_cached, mut usage_known) = (0, 0, true, false);
            for step in 0..max {
                let reply = match self.turn(&task.request, &turns, trial).await {
                    Ok(r) => r,
                    Err(e) if first.is_none() => {
                        return Decision {
                            error: Some(e),
                            ..Default::default()
                        };
                    }
                    Err(e) => {
                        steps.push(super::Step {
                            tool: "(error)".into(),
                            arguments: None,
                            error: Some(e),
                        });
                        break;
                    }
                };
                let calls = reply.calls.clone();
                all_cached &= reply.cached;
                if let Some((p, c)) = reply.usage {
                    usage_known = true;
                    prompt += p;
                    completion += c;
                }
                if first.is_none() {
                    first = Some(reply_to_decision(reply));
                }
                let Some(call) = calls.into_iter().next() else {
                    break;
                };
                let args = call.arguments.clone();
                steps.push(super::Step {
                    tool: call.name.clone(),
                    arguments: args.clone().ok(),
                    error: args.clone().err(),
                });
                if step + 1 == max || args.is_err() {
                    break;
                }
                let content = self
                    .results
                    .get(&call.name)
                    .cloned()
                    .unwrap_or_else(|| format!("error: unknown tool `{}`", call.name));
                turns.push(wire::Turn::Call {
                    id: call.id.clone(),
                    name: call.name,
                    arguments: Value::Object(args.unwrap_or_default()),
                });
                turns.push(wire::Turn::Result {
                    id: call.id,
                    content,
                });
            }
            let mut d = first.unwrap_or_default();
            if max > 1 {
                d.steps = steps;
            }
            d.cached = all_cached;
            if usage_known {
                d.prompt_tokens = Some(prompt);
                d.completion_tokens = Some(completion);
            }
            d
        })
    }
}

/// What a tool "returns" in a multi-step run: a sample of its outputSchema, else a generic
/// success. The server is never called.
fn synthetic_result(tool: &crate::catalog::Tool) -> String {
    tool.output_schema()
        .and_then(|schema| {
            let stand_in = crate::catalog::Tool::from_value(
                serde_json::json!({"name": tool.name(), "inputSchema": schema}),
                "outputSchema",
            )
            .ok()?;
            crate::tasks::sampler::sample_args(&stand_in, 0, 0).ok()
        })
        .map(|m| Value::Object(m).to_string())
        .unwrap_or_else(|| r#"{"ok": true, "result": "done"}"#.to_string())
}

/// The first call of a reply as a decision (or no call, with the text kept).
pub fn reply_to_decision(reply: Reply) -> Decision {
    // Calls after the first in one reply (parallel tool calls) are kept, never dropped.
    let parallel: Vec<super::Step> = reply
        .calls
        .iter()
        .skip(1)
        .map(|c| super::Step {
            tool: c.name.clone(),
            arguments: c.arguments.clone().ok(),
            error: c.arguments.clone().err(),
        })
        .collect();
    let mut d = reply_first_call(reply);
    d.parallel_calls = parallel;
    d
}

fn reply_first_call(reply: Reply) -> Decision {
    let served_by = reply.served_by.clone();
    match reply.calls.into_iter().next() {
        None => Decision {
            tool: None,
            text: reply.text,
            served_by,
            ..Default::default()
        },
        Some(call) => match call.arguments {
            Ok(args) => Decision {
                tool: Some(call.name),
                arguments: Some(args),
                text: reply.text,
                served_by,
                ..Default::default()
            },
            Err(e) => Decision {
                tool: Some(call.name),
                error: Some(e),
                text: reply.text,
                served_by,
                ..Default::default()
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let cap = Duration::from_secs(120);
        let mut h = reqwest::header::HeaderMap::new();
        h.insert(reqwest::header::RETRY_AFTER, "2".parse().unwrap());
        assert_eq!(retry_after(&h, cap), (Some(Duration::from_secs(2)), None));
        h.insert(
            reqwest::header::RETRY_AFTER,
            "Sun, 06 Nov 1994 08:49:37 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&h, cap), (Some(Duration::ZERO), None));
    }

    #[test]
    fn hostile_retry_after_values_are_capped_or_ignored_with_a_note() {
        let cap = Duration::from_secs(120);
        for (v, want) in [
            ("NaN", None),
            ("nan", None),
            ("-5", None),
            ("-inf", None),
            ("banana", None),
            ("inf", Some(cap)),
            ("1e400", Some(cap)),
            ("1.8e19", Some(cap)),
            ("99999999999999999999", Some(cap)),
            ("Fri, 31 Dec 9999 23:59:59 GMT", Some(cap)),
        ] {
            let mut h = reqwest::header::HeaderMap::new();
            h.insert(reqwest::header::RETRY_AFTER, v.parse().unwrap());
            let (wait, note) = retry_after(&h, cap);
            assert_eq!(wait, want, "{v}");
            assert!(note.is_some(), "{v}: no note");
        }
    }

    #[test]
    fn budget_is_shared_and_bounded() {
        let b = Budget::new(2);
        assert!(b.take() && b.take() && !b.take());
        assert_eq!(b.used(), 2);
    }
}

//! Sending one request with retries: 429/408/5xx and transport failures are retried with
//! jittered exponential backoff, or the wait a Retry-After header asks for (seconds or an HTTP
//! date, capped, with a note when unusable).

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::Value;

pub(super) use super::state::CallError;
use super::{BUDGET_EXHAUSTED, DEAD_AFTER, LlmModel};
use crate::models::provider::Wire;
use crate::models::{DecisionError, ErrorKind};

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
    // An HTTP-date in any of its three forms (IMF-fixdate, RFC 850, asctime).
    let Ok(when) = httpdate::parse_http_date(v) else {
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

/// `body` with every credential toolgate holds masked, or `None` when it holds none.
fn without_held_keys(body: &Value) -> Option<Value> {
    let held = crate::secrets::held_values();
    if held.is_empty() {
        return None;
    }
    let text = body.to_string();
    if !held.iter().any(|k| {
        let quoted = Value::String(k.clone()).to_string();
        text.contains(quoted.trim_matches('"'))
    }) {
        return None;
    }
    // Only the held keys are replaced: the rest is the server's text, as sent.
    fn replace(v: &mut Value, held: &[String]) {
        match v {
            Value::String(s) => {
                for k in held {
                    if s.contains(k.as_str()) {
                        *s = s.replace(k.as_str(), crate::secrets::shown::MASK);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|i| replace(i, held)),
            Value::Object(map) => map.values_mut().for_each(|i| replace(i, held)),
            _ => {}
        }
    }
    let mut masked = body.clone();
    replace(&mut masked, &held);
    Some(masked)
}

/// How one attempt ended short of a reply.
enum Failed {
    /// Nothing a retry can change: the call's outcome.
    Final(CallError),
    /// Worth another attempt: the error, the wait the server asked for, and whether the reply
    /// was a server error (5xx).
    Retry(DecisionError, Option<Duration>, bool),
}

impl LlmModel {
    /// Sends `body` until a reply, a failure no retry can change, or `--retries` run out;
    /// stops the endpoint for the rest of the run when it is dead, failing, or a one-slot
    /// server still busy with a request that timed out.
    pub(super) async fn send(&self, body: &Value, budgeted: bool) -> Result<Value, CallError> {
        // The request is the server's text as sent, except a credential toolgate holds (a key
        // handed to the server with --pass-env and echoed in a description): it never reaches
        // a provider.
        let guarded = without_held_keys(body);
        let body = guarded.as_ref().unwrap_or(body);
        let mut attempt = 0u32;
        // A one-slot endpoint gets one retry after a timeout, once its slot is free.
        let mut slot_retried = false;
        loop {
            self.admit(budgeted)?;
            let (err, wait, server_error) = match self.attempt(body).await {
                Ok(v) => return Ok(v),
                Err(Failed::Final(e)) => return Err(e),
                Err(Failed::Retry(e, wait, server_error)) => (e, wait, server_error),
            };
            self.halt_if_dead(&err)?;
            if err.kind == ErrorKind::Timeout
                && self.one_slot
                && self.slot_freed(attempt, slot_retried).await?
            {
                slot_retried = true;
                attempt += 1;
                continue;
            }
            if attempt >= self.opts.retries {
                return Err(self.out_of_retries(err, server_error));
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

    /// Lets a request go: not once the endpoint was stopped, nor past `--max-calls`.
    fn admit(&self, budgeted: bool) -> Result<(), CallError> {
        if let Some(cause) = self.stopped() {
            return Err(CallError::Failed(DecisionError::new(
                ErrorKind::Stopped,
                cause,
            )));
        }
        if budgeted
            && let Some(b) = &self.opts.budget
            && !b.take()
        {
            return Err(CallError::Failed(DecisionError::new(
                ErrorKind::Budget,
                BUDGET_EXHAUSTED,
            )));
        }
        self.calls.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    /// One request: the provider's reply as JSON, or how it failed.
    async fn attempt(&self, body: &Value) -> Result<Value, Failed> {
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
        let sent = req.send().await;
        match &sent {
            Ok(_) => self.unreachable.store(0, Ordering::SeqCst),
            Err(e) if e.is_connect() => {
                self.unreachable.fetch_add(1, Ordering::SeqCst);
            }
            Err(_) => {}
        }
        match sent {
            Ok(resp) => self.answered(resp, body).await,
            // A refused cross-origin redirect: retrying cannot help.
            Err(e) if e.is_redirect() => Err(Failed::Final(CallError::Failed(DecisionError::new(
                ErrorKind::Transport,
                format!("request failed: {}", self.scrub(&error_chain(&e))),
            )))),
            Err(e) => {
                let what = if e.is_timeout() {
                    DecisionError::new(
                        ErrorKind::Timeout,
                        format!(
                            "no reply within {}s (--timeout)",
                            self.opts.timeout.as_secs_f64()
                        ),
                    )
                } else {
                    DecisionError::transport(
                        &e,
                        format!("request failed: {}", self.scrub(&error_chain(&e))),
                    )
                };
                Err(Failed::Retry(what, None, false))
            }
        }
    }

    /// What an HTTP reply means: its JSON, a parameter the model refused (sent again without
    /// it), an error worth retrying (429, 408, 5xx), or one that is final.
    async fn answered(&self, resp: reqwest::Response, body: &Value) -> Result<Value, Failed> {
        let status = resp.status();
        let server_error = status.is_server_error();
        if !server_error {
            // The endpoint answered as an endpoint should (a reply or a 4xx).
            self.server_errors.store(0, Ordering::SeqCst);
        }
        let (wait, wait_note) = retry_after(resp.headers(), self.opts.max_wait);
        if let Some(n) = wait_note {
            self.note(format!("{}: {n}", self.spec));
        }
        let fail = |e| Err(Failed::Final(CallError::Failed(e)));
        let text = match resp.text().await {
            Ok(t) => t,
            // A reply cut off while its body was read: the transport's failure (a timeout or a
            // reset), not a malformed reply.
            Err(e) if status.is_success() => {
                let message = format!("reading the reply failed: {}", self.scrub(&error_chain(&e)));
                return fail(if e.is_timeout() {
                    DecisionError::new(ErrorKind::Timeout, message)
                } else {
                    DecisionError::transport(&e, message)
                });
            }
            Err(_) => String::new(),
        };
        if status.is_success() {
            return serde_json::from_str::<Value>(&text).or_else(|e| {
                fail(DecisionError::new(
                    ErrorKind::Malformed,
                    format!("the reply is not JSON: {e}"),
                ))
            });
        }
        let lower = text.to_lowercase();
        // Whether *this* request carried a temperature: requests in flight when another one
        // learned the model rejects it must be resent, not scored as errors.
        if status.as_u16() == 400
            && lower.contains("temperature")
            && body.get("temperature").is_some()
        {
            return Err(Failed::Final(CallError::TemperatureRejected));
        }
        if status.as_u16() == 400
            && lower.contains("max_tokens")
            && lower.contains("max_completion_tokens")
            && body.get("max_tokens").is_some()
        {
            return Err(Failed::Final(CallError::MaxTokensRejected));
        }
        let prefix: String = self.scrub(&text).chars().take(300).collect();
        let msg = format!("HTTP {status}: {prefix}");
        let err = DecisionError::http(status.as_u16(), &text, msg);
        // llama-server says a 500 when the model's own output did not parse as its tool-call
        // format: at temperature 0 the same request gives the same output, so a retry only
        // spends another reply.
        let unparsable = status.as_u16() == 500
            && (lower.contains("does not match the expected")
                || lower.contains("failed to parse tool call"));
        if unparsable {
            // The model's output, not the endpoint, failed: no sign of an outage.
            self.server_errors.store(0, Ordering::SeqCst);
        }
        let retry = status.as_u16() == 429 || status.as_u16() == 408 || server_error;
        if !unparsable && retry {
            Err(Failed::Retry(err, wait, server_error))
        } else {
            fail(err)
        }
    }

    /// Stops the endpoint when connection attempts in a row reached nothing.
    fn halt_if_dead(&self, err: &DecisionError) -> Result<(), CallError> {
        let dead = self.unreachable.load(Ordering::SeqCst);
        if dead < DEAD_AFTER {
            return Ok(());
        }
        Err(self.halt(format!(
            "{} at {}: {dead} connection attempts in a row reached nothing (last: {}), so the endpoint was stopped for the rest of the run. Start the server or fix the base URL, then resume the run",
            self.endpoint.provider.name,
            crate::secrets::redact_url(&self.endpoint.base_url),
            err.message
        )))
    }

    /// After a timeout on a one-slot endpoint: the server may still be generating the
    /// timed-out request, so a retry sent now would queue behind it and time out too. Waits
    /// for the slot; true to retry once now. A second timeout, or a slot still busy, stops the
    /// endpoint.
    async fn slot_freed(&self, attempt: u32, slot_retried: bool) -> Result<bool, CallError> {
        let secs = self.opts.timeout.as_secs_f64();
        if slot_retried {
            return Err(self.halt(format!(
                "{} timed out twice (--timeout {secs}s), the second time after its slot was free: the endpoint was stopped for the rest of the run. Raise --timeout, lower the reply bound, or use a faster model; resume the run to make the decisions it did not",
                self.endpoint.provider.name
            )));
        }
        match self.wait_for_slot().await {
            // Free again: retried once if --retries allows, else the timeout is this
            // decision's outcome and the next request finds the slot free.
            Ok(_) if attempt < self.opts.retries => {
                self.note(format!(
                    "{}: a request timed out (--timeout {secs}s); toolgate waited for the one-slot server to finish it before retrying once, rather than queue a retry behind it",
                    self.spec
                ));
                Ok(true)
            }
            Ok(_) => Ok(false),
            Err(waited) => Err(self.halt(format!(
                "{} timed out (--timeout {secs}s) and was still busy with that request {:.0}s later (a one-slot local server keeps generating a request its client gave up on; a retry would queue behind it): the endpoint was stopped for the rest of the run. Restart the server, raise --timeout, and resume the run",
                self.endpoint.provider.name,
                waited.as_secs_f64()
            ))),
        }
    }

    /// The call's failure once `--retries` ran out; requests in a row that failed with server
    /// errors after all their retries stop the endpoint, as a dead one does.
    fn out_of_retries(&self, err: DecisionError, server_error: bool) -> CallError {
        if server_error {
            let failing = self.server_errors.fetch_add(1, Ordering::SeqCst) + 1;
            if failing >= super::FAILING_AFTER {
                return self.halt(format!(
                    "{} at {}: {failing} requests in a row got only server errors, retries included (last: {}), so the endpoint was stopped for the rest of the run. Fix the server or try later, then resume the run",
                    self.endpoint.provider.name,
                    crate::secrets::redact_url(&self.endpoint.base_url),
                    err.message
                ));
            }
        }
        CallError::Failed(DecisionError::new(
            err.kind,
            format!("{} (after {} retries)", err.message, self.opts.retries),
        ))
    }
}

#[cfg(test)]
#[path = "retry_tests.rs"]
mod tests;

//! Stopping an endpoint for the rest of a run, and waiting for a one-slot local server to
//! finish a request toolgate gave up on before anything else is sent to it.

use std::time::Duration;

use serde_json::Value;

use super::LlmModel;
use super::retry::CallError;
use crate::models::{DecisionError, ErrorKind};

impl LlmModel {
    /// Stops the endpoint for the rest of the run with `cause` (said once on stderr); the
    /// error the current request ends with.
    pub(super) fn halt(&self, cause: String) -> CallError {
        if let Ok(mut h) = self.halted.lock()
            && h.is_none()
        {
            crate::elog!("toolgate: {}: {cause}", self.spec);
            *h = Some(cause.clone());
        }
        CallError::Failed(DecisionError::new(ErrorKind::Stopped, cause))
    }

    /// Waits until a one-slot local server is no longer busy with a request toolgate gave up
    /// on: llama-server's `/slots` says no slot is processing, or (where there is no such
    /// list) `GET {base}/models` answers (llama-cpp-python holds it while it generates).
    /// Polled every 2 s for at most three `--timeout`s (at least 5 s). `Ok`/`Err`: free or
    /// still busy, and how long it waited.
    pub(super) async fn wait_for_slot(&self) -> Result<Duration, Duration> {
        let start = std::time::Instant::now();
        let bound = (self.opts.timeout * 3).max(Duration::from_secs(5));
        loop {
            if self.slot_free().await {
                return Ok(start.elapsed());
            }
            if start.elapsed() >= bound {
                return Err(start.elapsed());
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }

    async fn slot_free(&self) -> bool {
        let ask = Duration::from_secs(5);
        let base = self.endpoint.base_url.trim_end_matches('/');
        let root = base.strip_suffix("/v1").unwrap_or(base);
        let get = |url: String| {
            let mut r = self.client.get(url).timeout(ask);
            if let Some(k) = &self.endpoint.key {
                r = r.bearer_auth(k.expose());
            }
            r.send()
        };
        if let Ok(r) = get(format!("{root}/slots")).await
            && r.status().is_success()
            && let Ok(text) = r.text().await
            && text.len() < 1 << 20
            && let Ok(Value::Array(slots)) = serde_json::from_str::<Value>(&text)
        {
            return !slots
                .iter()
                .any(|s| s["is_processing"].as_bool() == Some(true));
        }
        get(format!("{base}/models")).await.is_ok()
    }
}

//! Request parameters a model rejects (`temperature`, `max_tokens`), learned from a refusal
//! and remembered per endpoint and model in the response cache, so a fully cached re-run
//! sends no request only to learn them again (issue 41 point 6).

use std::sync::atomic::Ordering;

use super::LlmModel;
use crate::models::cache::Cache;

/// A request parameter a model rejects, remembered per endpoint in the cache so a fully
/// cached re-run does not send requests only to learn it again (issue 41 point 6).
#[derive(Clone, Copy)]
pub(super) enum Quirk {
    /// The model rejects `temperature` (reasoning models).
    Temperature,
    /// The model refuses `max_tokens` (it wants `max_completion_tokens`).
    MaxTokens,
}

impl LlmModel {
    /// The endpoint part of cache keys: a server toolgate started listens on a new port each
    /// run, so it is keyed by its model file (`self.model`), not the port.
    pub(super) fn cache_endpoint(&self) -> &str {
        if self.local.is_some() {
            "local"
        } else {
            &self.endpoint.base_url
        }
    }

    pub(super) fn quirk_key(&self, q: Quirk) -> String {
        let name = match q {
            Quirk::Temperature => "temperature",
            Quirk::MaxTokens => "max_tokens",
        };
        Cache::key(
            self.endpoint.provider.name,
            self.cache_endpoint(),
            &self.model,
            &serde_json::json!({"toolgate_rejected_parameter": name}),
            0,
        )
    }

    /// Learns that the model rejects a parameter: from now on, and (with the cache on) in
    /// every later run against this endpoint and model.
    pub(super) fn learn(&self, q: Quirk, remembered: bool) {
        let (flag, value, said) = match q {
            Quirk::Temperature => (
                &self.temperature,
                false,
                "rejected temperature 0; sent without a temperature",
            ),
            Quirk::MaxTokens => (
                &self.completion_tokens,
                true,
                "refused `max_tokens`; the reply bound is sent as `max_completion_tokens`",
            ),
        };
        flag.store(value, Ordering::SeqCst);
        let from = if remembered {
            " (remembered from an earlier run)"
        } else {
            ""
        };
        self.note(format!("{} {said}{from}", self.spec));
        if !remembered && let Some(c) = &self.opts.cache {
            c.put(&self.quirk_key(q), &serde_json::json!({"rejected": true}));
        }
    }

    /// Reads the parameters this endpoint rejected in earlier runs from the cache (once).
    pub(super) fn recall_quirks(&self) {
        self.quirks.call_once(|| {
            let Some(c) = &self.opts.cache else { return };
            for q in [Quirk::Temperature, Quirk::MaxTokens] {
                if c.get(&self.quirk_key(q)).is_some() {
                    self.learn(q, true);
                }
            }
        });
    }
}

//! What a model decided for one request: the tool it called (or none), its arguments, every
//! call of a multi-step decision, and why it failed, typed ([`ErrorKind`]). Model adapters
//! return it; grading reads it; `predictions.jsonl` keeps it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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

/// The kind of a failed decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Nothing listens at the endpoint.
    ConnectionRefused,
    /// The endpoint's host name does not resolve.
    HostNotFound,
    /// No reply within `--timeout`.
    Timeout,
    /// The provider says the request is over the model's context window.
    ContextLength,
    /// Any other HTTP error status.
    Http(u16),
    /// Any other failure to send or receive (a refused redirect, a closed connection).
    Transport,
    /// The reply (or a call's arguments) is not what the wire format promises.
    Malformed,
    /// The model called a tool the catalog does not have.
    InventedTool,
    /// `--max-calls` ran out before this decision was made (never recorded).
    Budget,
    /// The endpoint was stopped for the rest of the run (a one-slot local server still busy
    /// with a timed-out request, or timing out again after waiting for it): never recorded,
    /// so a resumed run makes the decision.
    Stopped,
    /// The embedding router could not embed the request.
    Embedding,
    /// A replayed log has no decision for the task.
    NotRecorded,
}

impl ErrorKind {
    /// The short cause errors are counted under in the reports; `None` where the message's
    /// first line says more than a label would.
    pub fn label(self) -> Option<String> {
        Some(match self {
            ErrorKind::ConnectionRefused => "connection refused".into(),
            ErrorKind::HostNotFound => "host not found".into(),
            ErrorKind::Timeout => "timeout".into(),
            ErrorKind::ContextLength => "context length exceeded".into(),
            ErrorKind::Http(code) => format!("HTTP {code}"),
            ErrorKind::Malformed => "malformed reply".into(),
            ErrorKind::InventedTool => "invented tool name".into(),
            ErrorKind::Budget => "budget exhausted".into(),
            ErrorKind::Stopped => "endpoint stopped".into(),
            ErrorKind::Transport | ErrorKind::Embedding | ErrorKind::NotRecorded => return None,
        })
    }
}

/// Words a provider uses when a request is over the model's context window (in an HTTP
/// error's body, or a message of an older file).
pub(crate) const CONTEXT_WORDS: &[&str] = &[
    "context_length",
    "context length",
    "maximum context",
    "context window",
    "too many tokens",
    "exceeds the context",
];

impl ErrorKind {
    /// The kind of an error known only by its message: a prediction written before toolgate
    /// typed its errors, or an error in a replayed agent's log. Read once, where such a file
    /// is read ([`Decision::typed`]); scoring counts kinds, never wording.
    pub fn of_message(msg: &str) -> ErrorKind {
        let l = msg.to_lowercase();
        let has = |w: &[&str]| w.iter().any(|w| l.contains(w));
        if has(&[
            "connection refused",
            "tcp connect error",
            "error trying to connect",
        ]) {
            return ErrorKind::ConnectionRefused;
        }
        if has(CONTEXT_WORDS) {
            return ErrorKind::ContextLength;
        }
        if has(&["no reply within", "timed out", "timeout"]) {
            return ErrorKind::Timeout;
        }
        if has(&["dns error", "failed to lookup", "name or service not known"]) {
            return ErrorKind::HostNotFound;
        }
        if let Some(rest) = msg.trim_start().strip_prefix("HTTP ") {
            let code: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if let Ok(code) = code.parse::<u16>() {
                return ErrorKind::Http(code);
            }
        }
        if has(&["not a tool of this catalog", "unknown tool"]) {
            return ErrorKind::InventedTool;
        }
        if has(&["not json", "unexpected reply", "malformed"]) {
            return ErrorKind::Malformed;
        }
        ErrorKind::Transport
    }
}

impl Decision {
    /// The decision with an error that came without its kind given the kind its message
    /// names ([`ErrorKind::of_message`]); a typed error is kept as it is.
    pub fn typed(mut self) -> Self {
        if self.error_kind.is_none()
            && let Some(e) = &self.error
        {
            self.error_kind = Some(ErrorKind::of_message(e));
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untyped_messages_get_the_kind_they_name() {
        let kind = |m: &str| ErrorKind::of_message(m);
        assert_eq!(
            kind(
                "request failed: error sending request: tcp connect error: Connection refused (os error 111)"
            ),
            ErrorKind::ConnectionRefused
        );
        assert_eq!(
            kind("HTTP 400 Bad Request: {\"error\":{\"code\":\"context_length_exceeded\"}}"),
            ErrorKind::ContextLength
        );
        assert_eq!(
            kind("HTTP 500 Internal Server Error: boom (after 1 retries)"),
            ErrorKind::Http(500)
        );
        assert_eq!(kind("no reply within 1s (--timeout)"), ErrorKind::Timeout);
        assert_eq!(
            kind("called `x`, which is not a tool of this catalog"),
            ErrorKind::InventedTool
        );
        assert_eq!(kind("HTTP 99999 huge"), ErrorKind::Transport);
        assert_eq!(kind("the socket closed"), ErrorKind::Transport);
        // A typed error keeps its kind; an untyped one gets one; no error gets none.
        let d = Decision {
            error: Some("timed out".into()),
            error_kind: Some(ErrorKind::Budget),
            ..Default::default()
        };
        assert_eq!(d.typed().error_kind, Some(ErrorKind::Budget));
        let d = Decision {
            error: Some("timed out".into()),
            ..Default::default()
        };
        assert_eq!(d.typed().error_kind, Some(ErrorKind::Timeout));
        assert_eq!(Decision::default().typed().error_kind, None);
    }
}

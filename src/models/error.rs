//! Why a decision failed, typed where the failure happens (the transport, the provider's
//! reply, the router), so scoring counts errors by cause without reading their wording.

use std::fmt;

use serde::{Deserialize, Serialize};

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

/// A failed decision: its kind and the message a reader sees (secrets already scrubbed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionError {
    pub kind: ErrorKind,
    pub message: String,
}

impl DecisionError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        DecisionError {
            kind,
            message: message.into(),
        }
    }

    /// The kind of a failed HTTP exchange from its status and body.
    pub fn http(status: u16, body: &str, message: String) -> Self {
        let lower = body.to_lowercase();
        let context = [
            "context_length",
            "context length",
            "maximum context",
            "context window",
            "too many tokens",
            "exceeds the context",
        ];
        let kind = if context.iter().any(|w| lower.contains(w)) {
            ErrorKind::ContextLength
        } else if status == 408 || status == 504 {
            // Request Timeout and Gateway Timeout: the reply did not come in time.
            ErrorKind::Timeout
        } else {
            ErrorKind::Http(status)
        };
        DecisionError::new(kind, message)
    }

    /// The kind of a request that got no HTTP reply, from the error's own source chain.
    pub fn transport(e: &(dyn std::error::Error + 'static), message: String) -> Self {
        let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
        let mut kind = ErrorKind::Transport;
        while let Some(err) = cur {
            if let Some(io) = err.downcast_ref::<std::io::Error>() {
                match io.kind() {
                    std::io::ErrorKind::ConnectionRefused => {
                        kind = ErrorKind::ConnectionRefused;
                        break;
                    }
                    std::io::ErrorKind::TimedOut => {
                        kind = ErrorKind::Timeout;
                        break;
                    }
                    _ => {}
                }
            }
            // The resolver's error has no type of its own to test (hyper-util wraps it): its
            // text names it.
            let text = err.to_string().to_lowercase();
            if text.contains("dns error") || text.contains("failed to lookup") {
                kind = ErrorKind::HostNotFound;
                break;
            }
            cur = err.source();
        }
        DecisionError::new(kind, message)
    }
}

impl fmt::Display for DecisionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_errors_name_their_status_or_the_context_window() {
        let e = DecisionError::http(500, "boom", "HTTP 500: boom".into());
        assert_eq!(e.kind.label().as_deref(), Some("HTTP 500"));
        let e = DecisionError::http(
            400,
            r#"{"error":{"code":"context_length_exceeded"}}"#,
            "HTTP 400".into(),
        );
        assert_eq!(e.kind, ErrorKind::ContextLength);
        let e = DecisionError::http(504, "", "HTTP 504 Gateway Timeout".into());
        assert_eq!(e.kind.label().as_deref(), Some("timeout"));
    }

    #[test]
    fn a_refused_connection_is_found_in_the_source_chain() {
        #[derive(Debug)]
        struct Outer(std::io::Error);
        impl fmt::Display for Outer {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("error sending request")
            }
        }
        impl std::error::Error for Outer {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let refused = Outer(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        assert_eq!(
            DecisionError::transport(&refused, "x".into()).kind,
            ErrorKind::ConnectionRefused
        );
        let other = Outer(std::io::Error::other("connection reset"));
        assert_eq!(
            DecisionError::transport(&other, "x".into()).kind,
            ErrorKind::Transport
        );
    }
}

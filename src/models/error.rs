//! Why a decision failed, typed where the failure happens (the transport, the provider's
//! reply, the router), so scoring counts errors by cause without reading their wording.

use std::fmt;

pub(crate) use crate::record::decision::ErrorKind;

/// A failed decision: its kind and the message a reader sees (secrets already scrubbed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DecisionError {
    pub kind: ErrorKind,
    pub message: String,
}

impl DecisionError {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        DecisionError {
            kind,
            message: message.into(),
        }
    }

    /// The kind of a failed HTTP exchange from its status and body.
    pub(crate) fn http(status: u16, body: &str, message: String) -> Self {
        let lower = body.to_lowercase();
        let context = crate::record::decision::CONTEXT_WORDS;
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
    pub(crate) fn transport(e: &(dyn std::error::Error + 'static), message: String) -> Self {
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

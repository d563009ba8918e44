//! Errors counted by cause.

/// A short cause for an error message, so errors can be counted by what went wrong.
pub fn error_cause(msg: &str) -> String {
    let l = msg.to_lowercase();
    let has = |w: &[&str]| w.iter().any(|w| l.contains(w));
    if has(&[
        "connection refused",
        "tcp connect error",
        "error trying to connect",
    ]) {
        return "connection refused".into();
    }
    if has(&[
        "context_length",
        "context length",
        "maximum context",
        "context window",
        "too many tokens",
        "exceeds the context",
    ]) {
        return "context length exceeded".into();
    }
    if has(&["no reply within", "timed out", "timeout"]) {
        return "timeout".into();
    }
    if has(&["dns error", "failed to lookup", "name or service not known"]) {
        return "host not found".into();
    }
    if let Some(rest) = msg.trim_start().strip_prefix("HTTP ") {
        let code: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !code.is_empty() {
            return format!("HTTP {code}");
        }
    }
    if has(&["not a tool of this catalog", "unknown tool"]) {
        return "invented tool name".into();
    }
    if has(&["not json", "unexpected reply", "malformed"]) {
        return "malformed reply".into();
    }
    let first = msg.lines().next().unwrap_or_default();
    let short: String = first.chars().take(60).collect();
    if short.len() < first.len() {
        format!("{short}…")
    } else {
        short
    }
}

#[cfg(test)]
mod tests {
    use super::error_cause;

    #[test]
    fn causes_are_short_and_stable() {
        assert_eq!(
            error_cause(
                "request failed: error sending request: tcp connect error: Connection refused (os error 111)"
            ),
            "connection refused"
        );
        assert_eq!(
            error_cause("HTTP 400 Bad Request: {\"error\":{\"code\":\"context_length_exceeded\"}}"),
            "context length exceeded"
        );
        assert_eq!(
            error_cause("HTTP 500 Internal Server Error: boom (after 1 retries)"),
            "HTTP 500"
        );
        assert_eq!(error_cause("no reply within 1s (--timeout)"), "timeout");
        assert_eq!(
            error_cause("called `x`, which is not a tool of this catalog"),
            "invented tool name"
        );
    }
}

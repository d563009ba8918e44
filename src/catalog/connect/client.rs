//! The MCP client toolgate connects as (its name, version and offered protocol), and how a
//! failed connection is told: the server's last words, and rmcp's errors in plain words.

use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
use rmcp::service::{RoleClient, RunningService};

use crate::catalog::tee::SharedCapture;

/// The protocol revision toolgate offers in `initialize`; the server answers with its own.
pub(crate) const OFFERED_PROTOCOL: ProtocolVersion = ProtocolVersion::V_2025_11_25;

pub(super) type Client = RunningService<RoleClient, ClientConfig>;

pub(super) fn client_config() -> ClientConfig {
    let mut config = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("toolgate", env!("CARGO_PKG_VERSION")),
    );
    config.protocol_version = OFFERED_PROTOCOL;
    config
}

/// Why the stdout tap cut the connection (an unparseable reply, an over-long line), if it did.
pub(super) fn cut_reason(capture: &SharedCapture) -> Option<String> {
    capture.lock().ok().and_then(|c| c.fatal.clone())
}

/// Drops rmcp's internal type names from an error and adds a hint for common causes.
pub(super) fn humanize(text: &str) -> String {
    static NOISE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"Transport \[[^\]]*(\][^\]]*)*?\] error: ").expect("valid regex")
    });
    let clean = NOISE
        .replace_all(text, "")
        .replace("Send message error ", "");
    // Hints look at the words, never at the URLs: a port such as 40185 is not a 401.
    static URL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s)]*").expect("valid regex")
    });
    static UNAUTHORIZED: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"\b401\b").expect("valid regex"));
    let words = URL.replace_all(&clean, "<url>");
    let hint = if words.contains("error following redirect") {
        " (the server redirected to another origin; toolgate refuses redirects that leave the origin you named, since headers and tokens would follow: use the final URL if you trust it)"
    } else if words.contains("Auth required") || UNAUTHORIZED.is_match(&words) {
        " (the server wants credentials: pass --bearer-env VAR or --header 'Authorization: ...')"
    } else if words.contains("error sending request") {
        " (is a server listening at that URL?)"
    } else if words.contains("connection closed") {
        " (the server closed its end: it may have crashed, or it is not an MCP stdio server)"
    } else {
        ""
    };
    format!("{clean}{hint}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn errors_lose_type_names_and_gain_hints() {
        let e = "Send message error Transport [rmcp::transport::worker::WorkerTransport<rmcp::X<toolgate::Y>>] error: Auth required, when send initialize request";
        assert_eq!(
            super::humanize(e),
            "Auth required, when send initialize request (the server wants credentials: pass --bearer-env VAR or --header 'Authorization: ...')"
        );
    }

    /// A port that happens to contain 401 is not an HTTP 401 (this flaked in CI on port 40185).
    #[test]
    fn a_port_with_401_in_it_is_not_unauthorized() {
        let e = "Client error: error following redirect for url (http://127.0.0.1:40185/mcp), when send initialize request";
        let h = super::humanize(e);
        assert!(h.contains("another origin"), "{h}");
        assert!(!h.contains("credentials"), "{h}");
        let e = "Client error: error sending request for url (http://127.0.0.1:14010/mcp)";
        assert!(!super::humanize(e).contains("credentials"));
        assert!(super::humanize("HTTP status 401 Unauthorized").contains("credentials"));
    }
}

//! Telling a legacy HTTP+SSE server (protocol 2024-11-05: `GET /sse` announces a message
//! endpoint with `event: endpoint`) from a Streamable HTTP one, after a failed handshake, so
//! the user hears "this is the old transport" instead of a bare 404 or 405. One bounded GET
//! (the user's headers, same-origin redirects only), read for at most 4 KiB or 3 seconds.

use std::time::Duration;

use super::super::source::ConnectOptions;

/// The most bytes of the reply read.
const MAX_PEEK: usize = 4096;

/// `Some(endpoint path)` when `url` answers `GET` as a legacy HTTP+SSE server does.
pub(crate) async fn legacy_sse(url: &str, opts: &ConnectOptions) -> Option<String> {
    let client = crate::catalog::net::client_builder()
        .connect_timeout(Duration::from_secs(3))
        .redirect(crate::catalog::net::same_origin_redirects())
        .build()
        .ok()?;
    let mut req = client.get(url).header("accept", "text/event-stream");
    for (k, v) in &opts.headers {
        req = req.header(k.as_str(), v.as_str());
    }
    if let Some(t) = &opts.bearer_token {
        req = req.bearer_auth(t);
    }
    let peek = async {
        let mut resp = req.send().await.ok()?;
        let sse = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        if !resp.status().is_success() || !sse {
            return None;
        }
        let mut seen = Vec::new();
        while seen.len() < MAX_PEEK {
            match resp.chunk().await {
                Ok(Some(c)) => seen.extend_from_slice(&c[..c.len().min(MAX_PEEK - seen.len())]),
                _ => break,
            }
            if let Some(found) = endpoint_of(&String::from_utf8_lossy(&seen)) {
                return Some(found);
            }
        }
        endpoint_of(&String::from_utf8_lossy(&seen))
    };
    tokio::time::timeout(Duration::from_secs(3), peek)
        .await
        .ok()
        .flatten()
}

/// The `data:` of the first `event: endpoint` in an SSE text, on one bounded line.
fn endpoint_of(text: &str) -> Option<String> {
    let mut lines = text.lines().map(str::trim);
    while let Some(l) = lines.next() {
        if l == "event: endpoint" || l == "event:endpoint" {
            let data = lines.next()?.strip_prefix("data:")?.trim();
            let shown: String = data.chars().filter(|c| !c.is_control()).take(120).collect();
            return Some(shown);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_endpoint_event_is_found() {
        assert_eq!(
            super::endpoint_of(": hi\nevent: endpoint\ndata: /messages?sessionId=1\n\n"),
            Some("/messages?sessionId=1".into())
        );
        assert_eq!(super::endpoint_of("event: message\ndata: {}\n"), None);
    }
}

//! Taps the wire so toolgate keeps each `tools/list` result exactly as the server sent it
//! (rmcp's typed `Tool` drops fields it does not know), and filters non-protocol lines a
//! stdio server prints on stdout before they reach the JSON-RPC decoder.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures::StreamExt;
use futures::stream::BoxStream;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use serde_json::Value;
use sse_stream::Sse;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, DuplexStream};

/// What the tap saw.
#[derive(Debug, Default)]
pub(crate) struct Capture {
    /// Raw `result` objects of `tools/list` responses, in arrival order.
    pub pages: Vec<Value>,
    /// Non-protocol stdout lines skipped, and the first few of them.
    pub junk_lines: usize,
    pub junk_samples: Vec<String>,
    /// Why the stream was cut, when the tap cut it.
    pub fatal: Option<String>,
}

pub(crate) type SharedCapture = Arc<Mutex<Capture>>;

fn record_page(capture: &SharedCapture, msg: &Value) {
    if let Some(result) = msg.get("result")
        && result.get("tools").is_some_and(Value::is_array)
        && let Ok(mut c) = capture.lock()
    {
        c.pages.push(result.clone());
    }
}

/// Reads one line of at most `max` bytes (without the newline). `Ok(None)` at end of stream;
/// `Err` with kind `InvalidData` when the line is longer than `max`.
async fn read_line_bounded<R: AsyncBufRead + Unpin>(
    r: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<()>> {
    buf.clear();
    loop {
        let avail = r.fill_buf().await?;
        if avail.is_empty() {
            return Ok(if buf.is_empty() { None } else { Some(()) });
        }
        let (chunk, done) = match avail.iter().position(|b| *b == b'\n') {
            Some(i) => (&avail[..i], Some(i + 1)),
            None => (avail, None),
        };
        if buf.len() + chunk.len() > max {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("the server wrote a line longer than {max} bytes on stdout"),
            ));
        }
        buf.extend_from_slice(chunk);
        let used = done.unwrap_or(chunk.len());
        r.consume(used);
        if done.is_some() {
            return Ok(Some(()));
        }
    }
}

fn set_fatal(capture: &SharedCapture, why: String) {
    if let Ok(mut c) = capture.lock()
        && c.fatal.is_none()
    {
        c.fatal = Some(why);
    }
}

/// What a stdout line is: a JSON-RPC message, a reply toolgate cannot parse (it looks like
/// JSON-RPC, but serde refuses it: nesting deeper than its limit, a number like `1e400`,
/// broken syntax), or junk (a log line).
enum Line {
    Message(Value),
    Unparseable(String),
    Junk,
}

fn classify(trimmed: &str) -> Line {
    if !trimmed.starts_with('{') {
        return Line::Junk;
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(v) if v.get("jsonrpc").is_some() => Line::Message(v),
        Ok(_) => Line::Junk,
        Err(e) if trimmed.contains("\"jsonrpc\"") => {
            let what = match e.classify() {
                serde_json::error::Category::Eof => "it ends before the JSON does".to_string(),
                _ if e.to_string().contains("recursion limit") => {
                    format!("it nests deeper than the JSON parser allows ({e})")
                }
                _ => e.to_string(),
            };
            let start: String = trimmed.chars().take(80).collect();
            Line::Unparseable(format!(
                "the server sent a reply toolgate cannot parse: {what}; it starts `{start}`"
            ))
        }
        Err(_) => Line::Junk,
    }
}

/// Forwards JSON-RPC lines from a child's stdout to the returned stream, keeping a copy of
/// each `tools/list` result and skipping lines that are not JSON-RPC messages. The stream
/// ends (and `capture.fatal` says why) at a reply that cannot be parsed, at an over-long
/// line, or when `ended` resolves (the server process exited: a grandchild that still holds
/// the pipe must not keep the connection open).
pub(crate) fn filter_stdout<R, E>(
    stdout: R,
    max: usize,
    capture: SharedCapture,
    ended: E,
) -> DuplexStream
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    E: std::future::Future<Output = ()> + Send + 'static,
{
    let (rmcp_side, mut ours) = tokio::io::duplex(256 * 1024);
    tokio::spawn(async move {
        let mut reader = tokio::io::BufReader::with_capacity(256 * 1024, stdout);
        let mut line = Vec::new();
        let mut ended = std::pin::pin!(ended);
        loop {
            let read = tokio::select! {
                r = read_line_bounded(&mut reader, &mut line, max) => r,
                () = &mut ended => break,
            };
            match read {
                Ok(None) => break,
                Ok(Some(())) => {}
                Err(e) => {
                    set_fatal(&capture, e.to_string());
                    break;
                }
            }
            let text = String::from_utf8_lossy(&line);
            let trimmed = text.trim();
            if trimmed.is_empty() {
                continue;
            }
            let parsed = match classify(trimmed) {
                Line::Message(v) => Some(v),
                Line::Unparseable(why) => {
                    set_fatal(&capture, why);
                    break;
                }
                Line::Junk => None,
            };
            match parsed {
                Some(msg) => {
                    record_page(&capture, &msg);
                    let ok = ours.write_all(trimmed.as_bytes()).await.is_ok()
                        && ours.write_all(b"\n").await.is_ok();
                    if !ok {
                        break;
                    }
                }
                None => {
                    if let Ok(mut c) = capture.lock() {
                        c.junk_lines += 1;
                        if c.junk_samples.len() < 3 {
                            c.junk_samples.push(trimmed.chars().take(160).collect());
                        }
                    }
                }
            }
        }
        let _ = ours.shutdown().await;
    });
    rmcp_side
}

/// A Streamable HTTP client that answers `tools/list` itself (to keep the raw JSON) and hands
/// every other message to rmcp's reqwest client.
#[derive(Clone)]
pub(crate) struct TeeHttpClient {
    pub inner: reqwest::Client,
    pub capture: SharedCapture,
}

fn is_tools_list(message: &ClientJsonRpcMessage) -> bool {
    serde_json::to_value(message)
        .ok()
        .and_then(|v| {
            v.get("method")
                .and_then(Value::as_str)
                .map(|m| m == "tools/list")
        })
        .unwrap_or(false)
}

type HttpResult<T> = Result<T, StreamableHttpError<reqwest::Error>>;

fn unexpected(text: String) -> StreamableHttpError<reqwest::Error> {
    StreamableHttpError::UnexpectedServerResponse(text.into())
}

fn is_response(v: &Value) -> bool {
    v.get("result").is_some() || v.get("error").is_some()
}

impl TeeHttpClient {
    async fn raw_post(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth: Option<String>,
        headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> HttpResult<StreamableHttpPostResponse> {
        let mut req = self
            .inner
            .post(uri.as_ref())
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json");
        if let Some(token) = auth {
            req = req.bearer_auth(token);
        }
        for (k, v) in headers {
            req = req.header(k, v);
        }
        if let Some(s) = session_id {
            req = req.header("mcp-session-id", s.as_ref());
        }
        let body = serde_json::to_vec(&message)?;
        let mut resp = req
            .body(body)
            .send()
            .await
            .map_err(StreamableHttpError::Client)?;
        let status = resp.status();
        let session = resp
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let is_sse = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.to_ascii_lowercase().starts_with("text/event-stream"));
        let limit = limits.max_json_response_size;
        if !status.is_success() {
            let text = resp.text().await.unwrap_or_default();
            let prefix: String = text.chars().take(300).collect();
            return Err(unexpected(format!(
                "tools/list answered HTTP {status}: {prefix}"
            )));
        }
        let raw = if is_sse {
            // Read events until the response arrives; the stream may stay open after it.
            let mut seen = 0usize;
            let bytes = resp.bytes_stream().map(move |chunk| {
                let chunk = chunk.map_err(std::io::Error::other)?;
                seen += chunk.len();
                if seen > limit {
                    return Err(std::io::Error::other(format!(
                        "SSE body over {limit} bytes"
                    )));
                }
                Ok::<_, std::io::Error>(chunk)
            });
            let mut events = sse_stream::SseStream::from_bytes_stream(bytes);
            let mut found = None;
            while let Some(event) = events.next().await {
                let event = event.map_err(|e| unexpected(format!("tools/list SSE stream: {e}")))?;
                if let Some(v) = event
                    .data
                    .and_then(|d| serde_json::from_str::<Value>(&d).ok())
                    && is_response(&v)
                {
                    found = Some(v);
                    break;
                }
            }
            found.ok_or_else(|| {
                unexpected("tools/list: the SSE stream ended without a response".into())
            })?
        } else {
            let mut bytes = Vec::new();
            while let Some(chunk) = resp.chunk().await.map_err(StreamableHttpError::Client)? {
                if bytes.len() + chunk.len() > limit {
                    return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: limit });
                }
                bytes.extend_from_slice(&chunk);
            }
            serde_json::from_slice::<Value>(&bytes)?
        };
        record_page(&self.capture, &raw);
        let msg: ServerJsonRpcMessage = serde_json::from_value(raw)?;
        Ok(StreamableHttpPostResponse::Json(msg, session))
    }
}

impl StreamableHttpClient for TeeHttpClient {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> HttpResult<StreamableHttpPostResponse> {
        self.inner
            .post_message(uri, message, session_id, auth_header, custom_headers)
            .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> HttpResult<StreamableHttpPostResponse> {
        if is_tools_list(&message) {
            return self
                .raw_post(
                    uri,
                    message,
                    session_id,
                    auth_header,
                    custom_headers,
                    limits,
                )
                .await;
        }
        self.inner
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> HttpResult<()> {
        self.inner
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> HttpResult<BoxStream<'static, Result<Sse, SseError>>> {
        self.inner
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> HttpResult<BoxStream<'static, Result<Sse, SseError>>> {
        self.inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn filter_skips_junk_and_keeps_tool_pages() {
        let input = b"starting up...\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\",\"x\":1}]}}\n\nnot json {\n".to_vec();
        let capture = SharedCapture::default();
        let mut out = filter_stdout(
            std::io::Cursor::new(input),
            1 << 20,
            capture.clone(),
            std::future::pending(),
        );
        let mut text = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut out, &mut text)
            .await
            .unwrap();
        assert_eq!(text.lines().count(), 1);
        let c = capture.lock().unwrap();
        assert_eq!(c.junk_lines, 2);
        assert_eq!(c.pages[0]["tools"][0]["x"], 1);
    }

    #[tokio::test]
    async fn filter_cuts_overlong_lines() {
        let input = vec![b'x'; 5000];
        let capture = SharedCapture::default();
        let mut out = filter_stdout(
            std::io::Cursor::new(input),
            1000,
            capture.clone(),
            std::future::pending(),
        );
        let mut text = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut out, &mut text)
            .await
            .unwrap();
        assert!(text.is_empty());
        assert!(
            capture
                .lock()
                .unwrap()
                .fatal
                .as_deref()
                .unwrap()
                .contains("longer than 1000")
        );
    }

    #[test]
    fn unparseable_replies_are_told_from_junk() {
        let deep = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}{}}}",
            "[".repeat(5000),
            "]".repeat(5000)
        );
        for (line, want) in [
            (deep.as_str(), "nests deeper"),
            (
                r#"{"jsonrpc":"2.0","id":1,"result":{"n":1e400}}"#,
                "out of range",
            ),
            (r#"{"jsonrpc":"2.0","id":1,"result":{"#, "ends before"),
            (r#"{"jsonrpc":"2.0","id":1,"result":{"a" 1}}"#, "expected"),
        ] {
            match classify(line) {
                Line::Unparseable(why) => assert!(why.contains(want), "{why}"),
                _ => panic!("not reported: {}", &line[..40.min(line.len())]),
            }
        }
        assert!(matches!(classify("{not json at all"), Line::Junk));
        assert!(matches!(classify(r#"{"level":"info"}"#), Line::Junk));
        assert!(matches!(
            classify(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Line::Message(_)
        ));
    }

    #[tokio::test]
    async fn an_unparseable_reply_ends_the_stream_at_once() {
        let input = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"n\":1e400}}\n".to_vec();
        let capture = SharedCapture::default();
        let mut out = filter_stdout(
            std::io::Cursor::new(input),
            1 << 20,
            capture.clone(),
            std::future::pending(),
        );
        let mut text = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut out, &mut text)
            .await
            .unwrap();
        assert!(text.is_empty());
        let fatal = capture.lock().unwrap().fatal.clone().unwrap();
        assert!(fatal.contains("cannot parse"), "{fatal}");
    }

    #[test]
    fn responses_are_told_from_notifications() {
        assert!(is_response(&serde_json::json!({"id": 1, "result": {}})));
        assert!(!is_response(
            &serde_json::json!({"method": "notifications/progress"})
        ));
    }
}

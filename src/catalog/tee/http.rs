//! The HTTP tap: a Streamable HTTP client that answers `tools/list` itself (bounded, JSON or
//! SSE) to keep the raw result, and hands every other message to rmcp's reqwest client.

use std::collections::HashMap;
use std::sync::Arc;

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

use super::{SharedCapture, record_page};

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

    #[test]
    fn responses_are_told_from_notifications() {
        assert!(is_response(&serde_json::json!({"id": 1, "result": {}})));
        assert!(!is_response(
            &serde_json::json!({"method": "notifications/progress"})
        ));
    }
}

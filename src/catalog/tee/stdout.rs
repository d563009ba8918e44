//! The stdio tap: forwards a child's JSON-RPC lines to rmcp, bounded in length, keeping each
//! `tools/list` result, skipping log lines, and cutting the stream at a reply it cannot parse.

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, DuplexStream};

use super::{SharedCapture, record_page};

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
}

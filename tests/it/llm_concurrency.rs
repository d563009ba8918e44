//! LLM requests at the limit: identical requests in flight together are sent once (errors
//! reach every waiter and are not cached), and an endpoint on this machine gets one request at
//! a time unless `--concurrency` says otherwise, so a request queued in toolgate does not spend
//! its `--timeout` waiting.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

fn catalog(dir: &Path) -> PathBuf {
    let p = dir.join("catalog.json");
    std::fs::write(
        &p,
        json!({"tools": [
            {"name": "book_room", "description": "Reserve a meeting room.", "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}}, "required": ["room"]}}
        ]})
        .to_string(),
    )
    .unwrap();
    p
}

fn tasks(dir: &Path, requests: &[String]) -> PathBuf {
    let p = dir.join("tasks.jsonl");
    let lines: Vec<String> = requests
        .iter()
        .enumerate()
        .map(|(i, r)| json!({"id": format!("t{i:03}"), "request": r, "kind": "direct", "expected": {"tool": "book_room", "arguments": {"room": "Vega"}}}).to_string())
        .collect();
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

const CALL: &str = r#"{"model": "m", "choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "book_room", "arguments": "{\"room\": \"Vega\"}"}}]}}]}"#;

fn predictions(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("predictions.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn s(x: impl AsRef<std::ffi::OsStr>) -> String {
    x.as_ref().to_string_lossy().to_string()
}

async fn run(args: Vec<String>) -> std::process::Output {
    tokio::task::spawn_blocking(move || toolgate().args(&args).output().unwrap())
        .await
        .unwrap()
}

/// Counts requests by their text; "boom" gets a 500. Every reply takes `delay`, so the
/// duplicates of a request are in flight together.
struct Counting {
    calls: Arc<AtomicUsize>,
    booms: Arc<AtomicUsize>,
}

impl Respond for Counting {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let delay = Duration::from_millis(300);
        if String::from_utf8_lossy(&req.body).contains("boom") {
            self.booms.fetch_add(1, Ordering::SeqCst);
            return ResponseTemplate::new(500)
                .set_delay(delay)
                .set_body_string("upstream exploded");
        }
        ResponseTemplate::new(200)
            .set_delay(delay)
            .set_body_raw(CALL, "application/json")
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn identical_requests_in_flight_together_are_sent_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    let (calls, booms) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Counting {
            calls: calls.clone(),
            booms: booms.clone(),
        })
        .mount(&server)
        .await;
    // 48 tasks, 16 distinct requests, each one three times in a row; the first fails. (The
    // failing one starts with the first decisions, so its three are surely in flight together;
    // a late duplicate of a success would read the cache, written before the reply is shared.)
    let mut reqs: Vec<String> = std::iter::repeat_n("boom always".to_string(), 3).collect();
    reqs.extend((0..15).flat_map(|i| std::iter::repeat_n(format!("book room {i}"), 3)));
    let (cat, t) = (catalog(dir.path()), tasks(dir.path(), &reqs));
    let args = |out: &str| {
        vec![
            "run".into(),
            s(&cat),
            "-t".into(),
            s(&t),
            "-m".into(),
            "openai-compat:m".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--concurrency".into(),
            "16".into(),
            "--retries".into(),
            "0".into(),
            "--max-error-rate".into(),
            "1".into(),
            "--cache-dir".into(),
            s(dir.path().join("cache")),
            "--out".into(),
            s(dir.path().join(out)),
        ]
    };
    let o = run(args("a")).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        calls.load(Ordering::SeqCst),
        16,
        "one call per distinct request (the description canary is answered apart)"
    );
    assert_eq!(booms.load(Ordering::SeqCst), 1);
    let p = predictions(&dir.path().join("a"));
    assert_eq!(p.len(), 48, "every task has its decision");
    let errors: Vec<&Value> = p.iter().filter(|x| x["error"].is_string()).collect();
    assert_eq!(errors.len(), 3, "the error reaches every waiter");
    assert!(
        errors
            .iter()
            .all(|e| e["error"].as_str().unwrap().contains("HTTP 500"))
    );
    assert_eq!(
        p.iter().filter(|x| x["tool"] == "book_room").count(),
        45,
        "shared replies are decisions like any other"
    );
    // Only the one decision per request that sent it counts as sent; the others are
    // counted with the cache hits.
    let usage = &read_json(&dir.path().join("a/run.json"))["models"][0]["usage"];
    assert_eq!(usage["cached"], 30, "{usage}");
    // A re-run reads the successes from the cache; the error was not cached, so the failing
    // request is sent again (once, for its three tasks).
    let o = run(args("b")).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(calls.load(Ordering::SeqCst), 17);
    assert_eq!(booms.load(Ordering::SeqCst), 2);
}

/// An endpoint that serves one request at a time, each after `delay`, like Ollama or
/// llama.cpp with one slot: requests on other connections wait in the listen queue.
/// Returns its port.
fn one_slot_server(delay: Duration) -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let mut reader = BufReader::new(conn.try_clone().unwrap());
            let mut len = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    break;
                }
                let lower = line.to_ascii_lowercase();
                if let Some(v) = lower.strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap_or(0);
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; len];
            let _ = reader.read_exact(&mut body);
            std::thread::sleep(delay);
            let reply = canary_reply(&body).unwrap_or_else(|| CALL.to_string());
            let _ = conn.write_all(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{reply}",
                    reply.len()
                )
                .as_bytes(),
            );
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread")]
async fn an_endpoint_on_this_machine_gets_one_request_at_a_time_and_queueing_spends_no_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let port = one_slot_server(Duration::from_millis(300));
    let reqs: Vec<String> = (0..6).map(|i| format!("book room {i}")).collect();
    let (cat, t) = (catalog(dir.path()), tasks(dir.path(), &reqs));
    // 6 requests of 300 ms one after the other: each within the 1 s timeout, although the
    // runner holds them all in progress, so the last waits ~1.5 s in toolgate's queue.
    let args = |out: &str| {
        vec![
            "run".into(),
            s(&cat),
            "-t".into(),
            s(&t),
            "-m".into(),
            "openai-compat:m".into(),
            "--base-url".into(),
            format!("http://127.0.0.1:{port}/v1"),
            "--timeout".into(),
            "1".into(),
            "--retries".into(),
            "0".into(),
            "--no-cache".into(),
            "--max-error-rate".into(),
            "1".into(),
            "--out".into(),
            s(dir.path().join(out)),
        ]
    };
    let o = run(args("default")).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p = predictions(&dir.path().join("default"));
    assert_eq!(p.len(), 6);
    assert!(
        p.iter().all(|x| x["tool"] == "book_room"),
        "a queued request timed out: {p:?}"
    );
    // Latency is the provider's, not the queue's.
    assert!(
        p.iter().all(|x| x["latency_ms"].as_u64().unwrap() < 1000),
        "{p:?}"
    );
    let run_json = read_json(&dir.path().join("default/run.json"));
    let notes = run_json["models"][0]["notes"].to_string();
    assert!(notes.contains("one request is sent at a time"), "{notes}");
    // Asked for 4 at once, the endpoint queues them and the fourth (1.2 s) runs out of time.
    let mut four = args("four");
    four.extend(["--concurrency".into(), "4".into()]);
    let o = run(four).await;
    let p = predictions(&dir.path().join("four"));
    assert_eq!(p.len(), 6, "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        p.iter()
            .any(|x| x["error"].as_str().is_some_and(|e| e.contains("--timeout"))),
        "{p:?}"
    );
}

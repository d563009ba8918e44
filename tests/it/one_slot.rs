//! A one-slot local server (llama-cpp-python, llama-server with one slot, Ollama's default)
//! keeps generating a request its client gave up on: toolgate never sends a retry to queue
//! behind it. It waits for the slot (llama-server's `/slots`, else `/v1/models` answering),
//! retries once, and stops the endpoint with a clear cause when that fails.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

fn files(dir: &Path, n: usize) -> (PathBuf, PathBuf) {
    let cat = dir.join("catalog.json");
    write_two_tool_catalog(&cat);
    let tasks = dir.join("tasks.jsonl");
    let lines: Vec<String> = (0..n)
        .map(|i| json!({"id": format!("t{i}"), "request": format!("Book room Vega please #{i}"), "kind": "direct", "expected": {"tool": "book_room"}}).to_string())
        .collect();
    std::fs::write(&tasks, lines.join("\n") + "\n").unwrap();
    (cat, tasks)
}

/// Chat completions: the first `slow` requests take 3 s (past a 1 s --timeout), the rest
/// answer at once with a call to book_room.
struct Chat {
    seen: Arc<AtomicUsize>,
    slow: usize,
}

impl Respond for Chat {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let n = self.seen.fetch_add(1, Ordering::SeqCst);
        let reply = json!({"model": "m", "choices": [{"message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": "book_room", "arguments": "{\"room\": \"Vega\"}"}}]}}]});
        let r = ResponseTemplate::new(200).set_body_json(reply);
        if n < self.slow {
            r.set_delay(Duration::from_secs(3))
        } else {
            r
        }
    }
}

/// llama-server's `/slots`: processing for the first `busy` looks, then idle.
struct Slots {
    seen: Arc<AtomicUsize>,
    busy: usize,
}

impl Respond for Slots {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let n = self.seen.fetch_add(1, Ordering::SeqCst);
        ResponseTemplate::new(200).set_body_json(json!([{"id": 0, "is_processing": n < self.busy}]))
    }
}

struct Server {
    mock: MockServer,
    chat: Arc<AtomicUsize>,
    slots: Arc<AtomicUsize>,
}

async fn server(slow: usize, busy: Option<usize>) -> Server {
    let mock = MockServer::start().await;
    mount_canary(&mock).await;
    let chat = Arc::new(AtomicUsize::new(0));
    let slots = Arc::new(AtomicUsize::new(0));
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Chat {
            seen: chat.clone(),
            slow,
        })
        .mount(&mock)
        .await;
    if let Some(busy) = busy {
        Mock::given(method("GET"))
            .and(path("/slots"))
            .respond_with(Slots {
                seen: slots.clone(),
                busy,
            })
            .mount(&mock)
            .await;
    }
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"data": [{"id": "m"}]})))
        .mount(&mock)
        .await;
    Server { mock, chat, slots }
}

async fn eval(s: &Server, dir: &Path, n: usize) -> std::process::Output {
    let (cat, tasks) = files(dir, n);
    let args: Vec<String> = vec![
        "run".into(),
        cat.display().to_string(),
        "-t".into(),
        tasks.display().to_string(),
        "-m".into(),
        "llamacpp:m".into(),
        "--base-url".into(),
        format!("{}/v1", s.mock.uri()),
        "--timeout".into(),
        "1".into(),
        "--no-cache".into(),
        "--out".into(),
        dir.join("run").display().to_string(),
    ];
    tokio::task::spawn_blocking(move || toolgate().args(&args).output().unwrap())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_timed_out_request_is_retried_once_its_slot_is_free() {
    let dir = tempfile::tempdir().unwrap();
    let s = server(1, Some(2)).await;
    let o = eval(&s, dir.path(), 3).await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        s.slots.load(Ordering::SeqCst) >= 3,
        "it looked at /slots until the slot was free"
    );
    // 1 timed out + its retry + 2 more decisions (the canary is answered apart).
    assert_eq!(s.chat.load(Ordering::SeqCst), 4);
    let run = read_json(&dir.path().join("run/run.json"));
    assert_eq!(run["status"], "complete");
    assert!(run["models"][0].get("stopped").is_none());
    let notes = run["models"][0]["notes"].to_string();
    assert!(
        notes.contains("waited") && notes.contains("retrying once"),
        "{notes}"
    );
    assert_eq!(run["models"][0]["descriptions"]["outcome"], "passed");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_timeout_stops_the_endpoint_with_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    // No /slots (llama-cpp-python): /v1/models answering says the slot is free.
    let s = server(usize::MAX, None).await;
    let o = eval(&s, dir.path(), 4).await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(
        s.chat.load(Ordering::SeqCst),
        2,
        "the request and one retry; nothing after the stop"
    );
    assert!(err.contains("timed out twice"), "{err}");
    let run = read_json(&dir.path().join("run/run.json"));
    assert_eq!(run["status"], "partial");
    let stopped = run["models"][0]["stopped"].as_str().unwrap();
    assert!(
        stopped.contains("stopped for the rest of the run"),
        "{stopped}"
    );
    let probe = &run["models"][0]["descriptions"];
    assert_eq!(probe["outcome"], "could_not_check");
    assert!(
        probe["why"].as_str().unwrap().contains("stopped"),
        "{probe}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("run/predictions.jsonl"))
            .unwrap_or_default()
            .lines()
            .count(),
        0,
        "decisions not made are not recorded: a resume makes them"
    );
    let md = std::fs::read_to_string(dir.path().join("run/report.md")).unwrap();
    assert!(md.contains("timed out twice"), "the cause is in report.md");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_slot_still_busy_stops_the_endpoint_without_a_retry() {
    let dir = tempfile::tempdir().unwrap();
    let s = server(usize::MAX, Some(usize::MAX)).await;
    let o = eval(&s, dir.path(), 2).await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(
        s.chat.load(Ordering::SeqCst),
        1,
        "no retry behind a busy slot"
    );
    assert!(s.slots.load(Ordering::SeqCst) >= 2);
    assert!(err.contains("still busy"), "{err}");
    let run: Value = read_json(&dir.path().join("run/run.json"));
    assert_eq!(run["status"], "partial");
}

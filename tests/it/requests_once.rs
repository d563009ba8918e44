//! Requests are sent once (issue 41 point 6): an unchanged re-run against a model that rejects
//! `temperature` sends nothing, at any concurrency (the rejection is remembered per endpoint
//! in the cache), and `ci --ablation --no-cache` sends each full-catalog request once (the
//! full arm is the run's own decisions).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::common::*;
use crate::llm::{catalog, run, s, tasks};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

fn call(name: &str) -> Value {
    json!({"id": "chatcmpl-1", "model": "m",
           "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
             "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": name, "arguments": "{\"room\": \"Vega\"}"}}]}}]})
}

/// A reasoning model: 400 for any request with a temperature, else a call to book_room.
struct NoTemperature;

impl Respond for NoTemperature {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        if body.get("temperature").is_some() {
            return ResponseTemplate::new(400).set_body_json(json!({"error": {"message": "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."}}));
        }
        ResponseTemplate::new(200).set_body_json(call("book_room"))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unchanged_rerun_sends_nothing_to_a_model_that_rejects_temperature() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(NoTemperature)
        .mount(&server)
        .await;
    let requests: Vec<String> = (0..16)
        .map(|i| format!("Reserve Vega for meeting {i}"))
        .collect();
    let refs: Vec<&str> = requests.iter().map(String::as_str).collect();
    let (cat, t) = (catalog(dir.path()), tasks(dir.path(), &refs));
    let go = |out: &str| {
        vec![
            "run".into(),
            s(&cat),
            "-t".into(),
            s(&t),
            "-m".into(),
            "openai-compat:reasoner".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--cache-dir".into(),
            s(dir.path().join("cache")),
            "--concurrency".into(),
            "8".into(),
            "--out".into(),
            s(dir.path().join(out)),
        ]
    };
    let o = run(go("first"), vec![]).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = server.received_requests().await.unwrap().len();
    assert!(first >= 16, "every task was asked once at least: {first}");
    let o = run(go("second"), vec![]).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sent = server.received_requests().await.unwrap().len() - first;
    assert_eq!(sent, 0, "an unchanged re-run sent {sent} request(s)");
    let r = read_json(&dir.path().join("second/run.json"));
    assert_eq!(r["results"][0]["metrics"]["accuracy"]["k"], 16);
    assert!(
        r["models"][0]["notes"]
            .to_string()
            .contains("rejected temperature 0"),
        "the note is kept: {}",
        r["models"][0]["notes"]
    );
}

/// Calls the first tool it is offered, and counts the requests that offer the catalog as it
/// is (original names and descriptions), by the user's request.
#[derive(Clone, Default)]
struct Counting(Arc<Mutex<HashMap<String, usize>>>);

impl Respond for Counting {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let tools = body["tools"].as_array().cloned().unwrap_or_default();
        let name = |t: &Value| t["function"]["name"].as_str().unwrap_or("").to_string();
        let full = tools.iter().any(|t| name(t) == "book_room")
            && tools.iter().any(|t| {
                t["function"]["description"]
                    .as_str()
                    .is_some_and(|d| !d.is_empty())
            });
        if full {
            let user = body["messages"]
                .as_array()
                .unwrap()
                .iter()
                .rev()
                .find(|m| m["role"] == "user")
                .and_then(|m| m["content"].as_str())
                .unwrap_or("")
                .to_string();
            *self.0.lock().unwrap().entry(user).or_default() += 1;
        }
        ResponseTemplate::new(200).set_body_json(call(&tools.first().map(name).unwrap_or_default()))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn ablation_without_the_cache_sends_each_full_catalog_request_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    let counts = Counting::default();
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(counts.clone())
        .mount(&server)
        .await;
    let o = toolgate()
        .current_dir(dir.path())
        .args([
            "ci",
            "--server",
            &fixture("example/after.json"),
            "--tasks",
            &fixture("example/tasks.jsonl"),
            "--no-github",
            "-m",
            "openai-compat:m",
            "--base-url",
            &format!("{}/v1", server.uri()),
            "--ablation",
            "--no-cache",
            "--out",
            "out",
        ])
        .output()
        .unwrap();
    assert!(
        o.status.code().is_some_and(|c| c < 2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let run = read_json(&dir.path().join("out/run/run.json"));
    assert_eq!(
        run["ablation"]["results"].as_array().map(Vec::len),
        Some(2),
        "both arms measured: {}",
        run["ablation"]
    );
    let counts = counts.0.lock().unwrap();
    let tasks = std::fs::read_to_string(fixture("example/tasks.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count();
    assert_eq!(counts.len(), tasks, "every task was asked");
    let twice: Vec<_> = counts.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "sent more than once: {twice:?}");
}

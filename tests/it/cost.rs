//! Issue 39 point 5: before an LLM run toolgate says what it will cost. The estimate's tokens
//! are within 10% of what the endpoint counts (a mock OpenAI endpoint that counts every request
//! body's tokens with tiktoken's o200k_base, another implementation than toolgate's own), and
//! `--max-cost` stops paying like `--max-calls`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};
use wiremock::{Mock, MockServer, Request, ResponseTemplate, matchers::method};

use crate::common::{canary_reply, fixture, read_json, toolgate};

/// A mock that counts the prompt tokens of everything it is sent and answers each task with a
/// call of the first tool offered (the canary as a model that reads descriptions would).
async fn counting_endpoint(counted: Arc<AtomicU64>, calls: Arc<AtomicU64>) -> MockServer {
    let server = MockServer::start().await;
    let bpe = Arc::new(tiktoken_rs::o200k_base().unwrap());
    Mock::given(method("POST"))
        .respond_with(move |req: &Request| {
            let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
            let prompt = bpe.encode_ordinary(&body.to_string()).len() as u64;
            counted.fetch_add(prompt, Ordering::SeqCst);
            calls.fetch_add(1, Ordering::SeqCst);
            if let Some(reply) = canary_reply(&req.body) {
                return ResponseTemplate::new(200).set_body_string(reply);
            }
            let name = body["tools"][0]["function"]["name"].as_str().unwrap_or("x").to_string();
            ResponseTemplate::new(200).set_body_json(json!({"id": "c", "model": "m",
                "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": "{}"}}]}}],
                "usage": {"prompt_tokens": prompt, "completion_tokens": 12}}))
        })
        .mount(&server)
        .await;
    server
}

#[tokio::test(flavor = "multi_thread")]
async fn the_estimate_is_within_ten_percent_of_what_the_endpoint_counts() {
    let (counted, calls) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let server = counting_endpoint(counted.clone(), calls.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let url = format!("{}/v1", server.uri());
    let o = {
        let out = out.clone();
        tokio::task::spawn_blocking(move || {
            toolgate()
                .args(["run", &fixture("example/after.json"), "-t"])
                .arg(fixture("example/tasks.jsonl"))
                .args(["-m", "openai-compat:m", "--base-url", &url, "--no-cache"])
                .args(["--ablation=false", "--out"])
                .arg(&out)
                .output()
                .unwrap()
        })
        .await
        .unwrap()
    };
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("estimate for openai-compat:m: 132 call(s)"),
        "{err}"
    );
    assert!(
        err.contains("no price known for this model: tokens only"),
        "{err}"
    );
    let run = read_json(&out.join("run.json"));
    let est = &run["models"][0]["estimate"];
    let estimated = est["prompt_tokens"].as_u64().unwrap();
    let counted = counted.load(Ordering::SeqCst);
    assert_eq!(
        est["calls"].as_u64(),
        Some(calls.load(Ordering::SeqCst)),
        "{est}"
    );
    let off = (estimated as f64 - counted as f64).abs() / counted as f64;
    eprintln!("estimated {estimated} prompt tokens, the endpoint counted {counted}");
    assert!(
        off < 0.10,
        "estimated {estimated} prompt tokens, the endpoint counted {counted} ({:.1}% off)",
        off * 100.0
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn max_cost_stops_paying_like_max_calls() {
    let (counted, calls) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let server = counting_endpoint(counted, calls.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let url = format!("{}/v1", server.uri());
    // gpt-4o-mini's list price: 130 requests of a 12-tool catalog cost about $0.04; $0.01
    // pays for about a quarter of them.
    let o = {
        let out = out.clone();
        tokio::task::spawn_blocking(move || {
            toolgate()
                .env("OPENAI_API_KEY", "sk-test-not-a-key")
                .args(["run", &fixture("example/after.json"), "-t"])
                .arg(fixture("example/tasks.jsonl"))
                .args(["-m", "openai:gpt-4o-mini", "--base-url", &url, "--no-cache"])
                .args([
                    "--ablation=false",
                    "--max-cost",
                    "0.01",
                    "--concurrency",
                    "1",
                    "--out",
                ])
                .arg(&out)
                .output()
                .unwrap()
        })
        .await
        .unwrap()
    };
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("≈ $0.0"), "{err}");
    assert!(err.contains("--max-cost $0.01"), "{err}");
    let made = calls.load(Ordering::SeqCst);
    assert!(made > 5 && made < 70, "{made} requests: {err}");
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["status"], "partial", "{err}");
    assert_ne!(o.status.code(), Some(0));
    // No price, no dollar budget: said before anything is sent.
    let before = calls.load(Ordering::SeqCst);
    let url = format!("{}/v1", server.uri());
    let o = tokio::task::spawn_blocking(move || {
        toolgate()
            .args(["run", &fixture("example/after.json"), "-t"])
            .arg(fixture("example/tasks.jsonl"))
            .args([
                "-m",
                "openai-compat:m",
                "--base-url",
                &url,
                "--max-cost",
                "1",
            ])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no list price is known for openai-compat:m"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(calls.load(Ordering::SeqCst), before);
}

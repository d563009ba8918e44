//! LLM adapters against local mock servers speaking the exact OpenAI chat-completions and
//! Anthropic Messages wire formats: request bodies, retries, timeouts, malformed replies,
//! invented tools, the cache, the call budget, credentials, and kill-and-resume.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::*;
use predicates::prelude::PredicateBooleanExt;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

pub(crate) fn catalog(dir: &Path) -> PathBuf {
    let p = dir.join("catalog.json");
    std::fs::write(
        &p,
        json!({"tools": [
            {"name": "book_room", "description": "Reserve a meeting room.", "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}}, "required": ["room"]}},
            {"name": "get_weather", "description": "Weather for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}, "annotations": {"readOnlyHint": true}}
        ]})
        .to_string(),
    )
    .unwrap();
    p
}

pub(crate) fn tasks(dir: &Path, requests: &[&str]) -> PathBuf {
    let p = dir.join("tasks.jsonl");
    let lines: Vec<String> = requests
        .iter()
        .enumerate()
        .map(|(i, r)| json!({"id": format!("t{i:02}"), "request": r, "kind": "direct", "expected": {"tool": "book_room", "arguments": {"room": "Vega"}}}).to_string())
        .collect();
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

fn last_user_text(body: &Value) -> String {
    let msgs = body["messages"].as_array().unwrap();
    msgs.iter()
        .rev()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap_or("")
        .to_string()
}

fn openai_call(name: &str, args: &str) -> Value {
    json!({"id": "chatcmpl-1", "model": "mock-model-2026", "system_fingerprint": "fp_mock",
           "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
             "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": name, "arguments": args}}]}}]})
}

/// Answers by the request text: "rate" → one 429 then a call; "boom" → 500; "slow" → too late;
/// "malformed" → bad arguments JSON; "invent" → an unknown tool; "chat" → text only.
struct Scripted {
    calls: Arc<AtomicUsize>,
    rate_seen: Arc<AtomicUsize>,
    delay: Duration,
}

impl Respond for Scripted {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let text = last_user_text(&body);
        let ok = ResponseTemplate::new(200).set_delay(self.delay);
        if text.contains("rate") && self.rate_seen.fetch_add(1, Ordering::SeqCst) == 0 {
            return ResponseTemplate::new(429)
                .insert_header("retry-after", "1")
                .set_body_json(json!({"error": {"message": "slow down"}}));
        }
        if text.contains("boom") {
            return ResponseTemplate::new(500).set_body_string("upstream exploded");
        }
        if text.contains("slow") {
            return ResponseTemplate::new(200)
                .set_delay(Duration::from_secs(10))
                .set_body_json(openai_call("book_room", "{}"));
        }
        if text.contains("malformed") {
            return ok.set_body_json(openai_call("book_room", "{\"room\": \"Vega\""));
        }
        if text.contains("invent") {
            return ok.set_body_json(openai_call("reserve_everything", "{}"));
        }
        if text.contains("chat") {
            return ok.set_body_json(json!({"model": "mock-model-2026", "choices": [{"message": {"role": "assistant", "content": "Which room would you like?"}}]}));
        }
        ok.set_body_json(openai_call("book_room", "{\"room\": \"Vega\"}"))
    }
}

pub(crate) async fn openai_mock(delay: Duration) -> (MockServer, Arc<AtomicUsize>) {
    let server = MockServer::start().await;
    mount_canary(&server).await;
    let calls = Arc::new(AtomicUsize::new(0));
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Scripted {
            calls: calls.clone(),
            rate_seen: Arc::new(AtomicUsize::new(0)),
            delay,
        })
        .mount(&server)
        .await;
    (server, calls)
}

pub(crate) fn predictions(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("predictions.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub(crate) async fn run(
    args: Vec<String>,
    envs: Vec<(&'static str, String)>,
) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        let mut cmd = toolgate();
        cmd.args(&args);
        for (k, v) in envs {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    })
    .await
    .unwrap()
}

pub(crate) fn s(x: impl AsRef<std::ffi::OsStr>) -> String {
    x.as_ref().to_string_lossy().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn openai_request_body_is_exact_and_the_key_goes_only_there() {
    let dir = tempfile::tempdir().unwrap();
    let (server, _) = openai_mock(Duration::ZERO).await;
    let out = dir.path().join("run");
    let o = run(
        vec![
            "run".into(),
            s(catalog(dir.path())),
            "-t".into(),
            s(tasks(dir.path(), &["Reserve Vega please"])),
            "-m".into(),
            "openai-compat:mock-model".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--seed".into(),
            "7".into(),
            "--out".into(),
            s(&out),
            "--cache-dir".into(),
            s(dir.path().join("cache")),
        ],
        vec![
            ("OPENAI_COMPAT_API_KEY", "sk-test-secret-123".into()),
            ("ANTHROPIC_API_KEY", "sk-ant-other".into()),
        ],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reqs = server.received_requests().await.unwrap();
    assert_eq!(
        reqs.len(),
        3,
        "the decision, then the description canary's two"
    );
    let r = &reqs[0];
    assert_eq!(
        r.headers.get("authorization").unwrap().to_str().unwrap(),
        "Bearer sk-test-secret-123"
    );
    assert!(
        r.headers.get("x-api-key").is_none(),
        "the Anthropic key never goes to another provider"
    );
    let body: Value = serde_json::from_slice(&r.body).unwrap();
    let expected = json!({
        "model": "mock-model",
        "max_tokens": 1024,
        "messages": [
            {"role": "system", "content": toolgate::testing::models::wire::SYSTEM_PROMPT},
            {"role": "user", "content": "Reserve Vega please"}
        ],
        "tools": [
            {"type": "function", "function": {"name": "book_room", "description": "Reserve a meeting room.", "parameters": {"type": "object", "properties": {"room": {"type": "string"}}, "required": ["room"]}}},
            {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
        ],
        "tool_choice": "auto",
        "temperature": 0,
        "seed": 7
    });
    assert_eq!(body, expected);
    let run_json = read_json(&out.join("run.json"));
    assert_eq!(
        run_json["models"][0]["served_by"][0],
        "mock-model-2026 (fp_mock)"
    );
    assert_eq!(run_json["results"][0]["metrics"]["args_correct"]["k"], 1);
    for f in std::fs::read_dir(&out).unwrap().flatten() {
        let text = std::fs::read_to_string(f.path()).unwrap();
        assert!(
            !text.contains("sk-test-secret") && !text.contains("sk-ant-other"),
            "a key leaked into {}",
            f.path().display()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn anthropic_request_body_is_exact() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-mock-1",
            "content": [{"type": "text", "text": "Booking."}, {"type": "tool_use", "id": "toolu_1", "name": "book_room", "input": {"room": "vega"}}], "stop_reason": "tool_use"})))
        .mount(&server)
        .await;
    let out = dir.path().join("run");
    let o = run(
        vec![
            "run".into(),
            s(catalog(dir.path())),
            "-t".into(),
            s(tasks(dir.path(), &["Reserve Vega please"])),
            "-m".into(),
            "anthropic:claude-mock".into(),
            "--out".into(),
            s(&out),
            "--no-cache".into(),
        ],
        vec![
            ("ANTHROPIC_API_KEY", "sk-ant-secret".into()),
            ("ANTHROPIC_BASE_URL", server.uri()),
            ("OPENAI_API_KEY", "sk-openai-other".into()),
        ],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reqs = server.received_requests().await.unwrap();
    let r = &reqs[0];
    assert_eq!(
        r.headers.get("x-api-key").unwrap().to_str().unwrap(),
        "sk-ant-secret"
    );
    assert_eq!(
        r.headers
            .get("anthropic-version")
            .unwrap()
            .to_str()
            .unwrap(),
        "2023-06-01"
    );
    assert!(r.headers.get("authorization").is_none());
    let body: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(
        body,
        json!({
            "model": "claude-mock",
            "max_tokens": 1024,
            "system": toolgate::testing::models::wire::SYSTEM_PROMPT,
            "messages": [{"role": "user", "content": "Reserve Vega please"}],
            "tools": [
                {"name": "book_room", "description": "Reserve a meeting room.", "input_schema": {"type": "object", "properties": {"room": {"type": "string"}}, "required": ["room"]}},
                {"name": "get_weather", "description": "Weather for a city.", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
            ],
            "tool_choice": {"type": "auto"},
            "temperature": 0
        })
    );
    let p = predictions(&out);
    assert_eq!(p[0]["tool"], "book_room");
    assert_eq!(p[0]["text"], "Booking.");
    assert_eq!(
        read_json(&out.join("run.json"))["results"][0]["metrics"]["accuracy"]["k"],
        1
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn failures_become_scored_outcomes_never_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let (server, calls) = openai_mock(Duration::ZERO).await;
    let out = dir.path().join("run");
    let requests = [
        "rate limited once",
        "boom always",
        "slow reply",
        "malformed json",
        "invent a tool",
        "chat only",
    ];
    let o = run(
        vec![
            "run".into(),
            s(catalog(dir.path())),
            "-t".into(),
            s(tasks(dir.path(), &requests)),
            "-m".into(),
            "openai-compat:m".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--timeout".into(),
            "1".into(),
            "--retries".into(),
            "1".into(),
            // Two at once: an endpoint that serves several (a one-slot one waits for its
            // slot after a timeout and stops at a second: tests/it/one_slot.rs).
            "--concurrency".into(),
            "2".into(),
            "--out".into(),
            s(&out),
            "--no-cache".into(),
        ],
        vec![],
    )
    .await;
    // Every decision is kept and scored, but with 3 errors in 6 the run measured the endpoint:
    // exit 2, never a score that passes.
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("first error"));
    let p = predictions(&out);
    let by = |id: &str| p.iter().find(|x| x["task_id"] == id).unwrap().clone();
    assert_eq!(
        by("t00")["tool"],
        "book_room",
        "429 with Retry-After is retried"
    );
    assert!(by("t01")["error"].as_str().unwrap().contains("HTTP 500"));
    assert!(by("t02")["error"].as_str().unwrap().contains("--timeout"));
    assert!(by("t03")["error"].as_str().unwrap().contains("malformed"));
    assert_eq!(by("t04")["tool"], "reserve_everything");
    assert_eq!(by("t05")["tool"], Value::Null);
    assert_eq!(by("t05")["text"], "Which room would you like?");
    let m = &read_json(&out.join("run.json"))["results"][0]["metrics"];
    assert_eq!(m["accuracy"]["k"], 1);
    assert_eq!(
        m["errors"], 4,
        "500, timeout, malformed, invented tool: {m}"
    );
    assert_eq!(m["missed_calls"], 1);
    assert_eq!(m["confusions"], 0, "an error never counts as a confusion");
    // rate: 2, boom: 2 (1 retry), slow: 2, others 1 each (the canary is answered apart).
    assert_eq!(calls.load(Ordering::SeqCst), 9);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unchanged_rerun_hits_the_cache_and_a_budget_marks_the_run_partial() {
    let dir = tempfile::tempdir().unwrap();
    let (server, calls) = openai_mock(Duration::ZERO).await;
    let reqs: Vec<String> = (0..6).map(|i| format!("book room {i}")).collect();
    let reqs: Vec<&str> = reqs.iter().map(String::as_str).collect();
    let (cat, t) = (catalog(dir.path()), tasks(dir.path(), &reqs));
    let base = |out: &str| {
        vec![
            "run".into(),
            s(&cat),
            "-t".into(),
            s(&t),
            "-m".into(),
            "openai-compat:m".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--cache-dir".into(),
            s(dir.path().join("cache")),
            "--out".into(),
            s(dir.path().join(out)),
        ]
    };
    assert!(run(base("a"), vec![]).await.status.success());
    // Six decisions (the description canary is answered apart, and counted below).
    assert_eq!(calls.load(Ordering::SeqCst), 6);
    let canary = |reqs: &[Request]| {
        reqs.iter()
            .filter(|r| String::from_utf8_lossy(&r.body).contains("Celsius in Fahrenheit"))
            .count()
    };
    assert_eq!(canary(&server.received_requests().await.unwrap()), 2);
    assert!(run(base("b"), vec![]).await.status.success());
    assert_eq!(canary(&server.received_requests().await.unwrap()), 2);
    assert_eq!(
        calls.load(Ordering::SeqCst),
        6,
        "the second run made provider calls (the canary's replies are cached too)"
    );
    let mut nocache = base("c");
    nocache.push("--no-cache".into());
    nocache.extend([
        "--max-calls".into(),
        "2".into(),
        "--fail-under".into(),
        "0.1".into(),
    ]);
    let o = run(nocache, vec![]).await;
    assert_eq!(o.status.code(), Some(2), "a partial run cannot pass a gate");
    assert_eq!(calls.load(Ordering::SeqCst), 8, "two decisions");
    // The canary goes out with the first tasks, outside --max-calls: its two requests, once.
    assert_eq!(
        canary(&server.received_requests().await.unwrap()),
        4,
        "the canary of the budgeted run"
    );
    let r = read_json(&dir.path().join("c/run.json"));
    assert_eq!(r["status"], "partial");
    assert_eq!(predictions(&dir.path().join("c")).len(), 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--max-calls"));
    assert!(
        std::fs::read_to_string(dir.path().join("c/report.md"))
            .unwrap()
            .contains("PARTIAL")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_run_resumes_with_no_task_lost_or_repeated() {
    let dir = tempfile::tempdir().unwrap();
    let (server, calls) = openai_mock(Duration::from_millis(200)).await;
    let reqs: Vec<String> = (0..20).map(|i| format!("book room {i}")).collect();
    let reqs: Vec<&str> = reqs.iter().map(String::as_str).collect();
    let (cat, t) = (catalog(dir.path()), tasks(dir.path(), &reqs));
    let out = dir.path().join("run");
    let args = vec![
        s(&cat),
        "-t".into(),
        s(&t),
        "-m".into(),
        "openai-compat:m".into(),
        "--base-url".into(),
        format!("{}/v1", server.uri()),
        "--concurrency".into(),
        "1".into(),
        "--cache-dir".into(),
        s(dir.path().join("cache")),
    ];
    let bin = assert_cmd::cargo::cargo_bin("toolgate");
    let mut child = std::process::Command::new(&bin)
        .arg("run")
        .args(&args)
        .arg("--out")
        .arg(&out)
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while predictions(&out).len() < 5 {
        assert!(
            std::time::Instant::now() < deadline,
            "the run made no progress"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = predictions(&out).len();
    assert!(before < 20, "killed too late to test resume");
    let o = run(
        vec![
            "run".into(),
            "--resume".into(),
            s(&out),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--cache-dir".into(),
            s(dir.path().join("cache")),
        ],
        vec![],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p = predictions(&out);
    let ids: std::collections::HashSet<String> = p
        .iter()
        .map(|x| x["task_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(p.len(), 20, "no task repeated");
    assert_eq!(ids.len(), 20, "no task lost");
    assert_eq!(read_json(&out.join("run.json"))["status"], "complete");
    // At most the one request in flight at the kill is sent twice (and the description
    // canary's two requests, at the end of each run).
    assert!(
        calls.load(Ordering::SeqCst) <= 25,
        "{} calls",
        calls.load(Ordering::SeqCst)
    );
}

#[test]
fn one_api_key_or_base_url_is_refused_for_mixed_providers() {
    let dir = tempfile::tempdir().unwrap();
    toolgate()
        .args(["run"])
        .arg(catalog(dir.path()))
        .arg("-t")
        .arg(tasks(dir.path(), &["x"]))
        .args([
            "-m",
            "openai:gpt-x",
            "-m",
            "anthropic:claude-x",
            "--api-key",
            "sk-mixed",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("mixes anthropic, openai"))
        .stderr(predicates::str::contains("sk-mixed").not());
}

/// First turn: call get_weather; once a tool result is in the conversation: book_room.
struct TwoStep;

impl Respond for TwoStep {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let answered = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["role"] == "tool");
        if answered {
            ResponseTemplate::new(200)
                .set_body_json(openai_call("book_room", "{\"room\": \"Vega\"}"))
        } else {
            ResponseTemplate::new(200)
                .set_body_json(openai_call("get_weather", "{\"city\": \"Lisbon\"}"))
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn multi_step_passes_on_a_later_call_and_reports_an_undeclared_precondition() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(TwoStep)
        .mount(&server)
        .await;
    let (cat, t) = (
        catalog(dir.path()),
        tasks(
            dir.path(),
            &["book Vega if it is sunny", "book Vega for the offsite"],
        ),
    );
    let go = |steps: &str, out: &str| {
        vec![
            "run".into(),
            s(&cat),
            "-t".into(),
            s(&t),
            "-m".into(),
            "openai-compat:m".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--no-cache".into(),
            "--max-steps".into(),
            steps.into(),
            "--out".into(),
            s(dir.path().join(out)),
        ]
    };
    assert!(run(go("1", "one"), vec![]).await.status.success());
    let one = read_json(&dir.path().join("one/run.json"));
    assert_eq!(
        one["results"][0]["metrics"]["accuracy"]["k"], 0,
        "one step: the first call is get_weather"
    );
    assert_eq!(one["results"][0]["metrics"]["confusions"], 2);
    let o = run(go("3", "three"), vec![]).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let three = read_json(&dir.path().join("three/run.json"));
    let m = &three["results"][0]["metrics"];
    assert_eq!(
        m["accuracy"]["k"], 2,
        "three steps: book_room is called at step 2"
    );
    assert_eq!(
        m["confusion"]["book_room"]["book_room"], 2,
        "the matrix credits the call that served the task"
    );
    assert_eq!(m["args_correct"]["k"], 2);
    let p = &m["preconditions"][0];
    assert_eq!(
        (p["before"].as_str(), p["tool"].as_str()),
        (Some("get_weather"), Some("book_room"))
    );
    assert_eq!(
        (p["rate"]["k"].as_u64(), p["rate"]["n"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(p["undeclared"], true);
    let sent = server.received_requests().await.unwrap();
    let second: Value = sent
        .iter()
        .rev()
        .map(|r| serde_json::from_slice::<Value>(&r.body).unwrap())
        .find(|b| {
            b["messages"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["role"] == "tool")
        })
        .unwrap();
    let tool_msg = second["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    assert!(
        tool_msg["content"].as_str().unwrap().contains("ok"),
        "a synthetic result answers the call"
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("UNDECLARED"));
}

/// The task writer and its judge, over the OpenAI wire. The first (temperature 0) attempt at
/// a weather request leaks the tool name, so it must be rewritten.
struct WriterMock;

impl Respond for WriterMock {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let system = body["messages"][0]["content"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let user = last_user_text(&body);
        let text = if system.contains("route user requests") {
            let request = user.rsplit("Request: ").next().unwrap_or("");
            if request.contains("room") {
                "book_room"
            } else if request.contains("city") {
                "get_weather"
            } else {
                "NONE"
            }
            .to_string()
        } else if user.contains("none of these tools can serve") {
            "What's a good pasta recipe?\nTell me a joke about cats.".to_string()
        } else if user.contains("Weather for a city") && body.get("temperature").is_some() {
            "Use get_weather for me please".to_string()
        } else {
            let args = user
                .split("exactly these arguments: ")
                .nth(1)
                .and_then(|r| r.split(". Mention").next())
                .unwrap_or("{}");
            // A natural request that mentions every value (not the JSON itself: that is an
            // echo of the prompt, which the writer drops).
            let v: Value = serde_json::from_str(args).unwrap_or(json!({}));
            let values: Vec<String> = v
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(k, x)| {
                            format!(
                                "{k} {}",
                                x.as_str().map(str::to_string).unwrap_or(x.to_string())
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!("Could you handle this for me: {}", values.join(", "))
        };
        ResponseTemplate::new(200).set_body_json(json!({"model": "writer-1", "choices": [{"message": {"role": "assistant", "content": text}}]}))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_llm_writer_keeps_sampled_arguments_and_rewrites_leaky_requests() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(WriterMock)
        .mount(&server)
        .await;
    let cat = catalog(dir.path());
    let out = dir.path().join("tasks.jsonl");
    let o = run(
        vec![
            "generate".into(),
            s(&cat),
            "-o".into(),
            s(&out),
            "--generator".into(),
            "openai-compat:writer".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--per-tool".into(),
            "1".into(),
            "--near-miss".into(),
            "0".into(),
            "--no-tool".into(),
            "2".into(),
            "--no-cache".into(),
        ],
        vec![],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tasks: Vec<Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(tasks.len(), 4);
    for t in &tasks {
        assert_eq!(t["source"], "llm:openai-compat:writer");
        assert!(t.get("warnings").is_none(), "{t}");
    }
    let weather = tasks
        .iter()
        .find(|t| t["expected"]["tool"] == "get_weather")
        .unwrap();
    assert!(
        !weather["request"].as_str().unwrap().contains("get_weather"),
        "the leaky request was rewritten"
    );
    let city = weather["expected"]["arguments"]["city"].as_str().unwrap();
    assert!(
        weather["request"].as_str().unwrap().contains(city),
        "the ground truth is the sampled tuple"
    );
    assert_eq!(tasks.iter().filter(|t| t["kind"] == "no_tool").count(), 2);
    toolgate()
        .args(["validate"])
        .arg(&cat)
        .arg("-t")
        .arg(&out)
        .assert()
        .success();
}

/// A fixer: a good short rewrite for delete_event, a too-long one for set_reminder.
struct FixerMock;

impl Respond for FixerMock {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let user = last_user_text(&body);
        let text = if user.contains("Tool `delete_event`") {
            "Remove a draft or personal entry from your own calendar silently, without notifying anyone. For meetings with attendees use cancel_event.".to_string()
        } else {
            "word ".repeat(30)
        };
        ResponseTemplate::new(200).set_body_json(json!({"model": "fixer-1", "choices": [{"message": {"role": "assistant", "content": text}}]}))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_fix_loop_accepts_only_significant_confirmed_rewrites_and_asks_nothing_for_a_small_suite()
 {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(FixerMock)
        .mount(&server)
        .await;
    let out = dir.path().join("fix");
    let o = run(
        vec![
            "run".into(),
            fixture("example/before.json"),
            "-t".into(),
            fixture("example/tasks.jsonl"),
            "-m".into(),
            "bm25".into(),
            "--fix".into(),
            "--fixer".into(),
            "openai-compat:fixer".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--fix-tool".into(),
            "delete_event".into(),
            "--fix-tool".into(),
            "set_reminder".into(),
            "--no-cache".into(),
            "--out".into(),
            s(&out),
        ],
        vec![],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let proposals = read_json(&out.join("fix.json"));
    let by = |t: &str| {
        proposals
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["tool"] == t)
            .unwrap()
            .clone()
    };
    // set_reminder has too few dev tasks to show a change: the fixer is not even asked.
    let small = by("set_reminder");
    assert_eq!(small["accepted"], false);
    assert!(
        small["reason"]
            .as_str()
            .unwrap()
            .contains("not measured, nothing spent"),
        "{small}"
    );
    let asked: Vec<String> = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| String::from_utf8_lossy(&r.body).into_owned())
        .collect();
    assert!(
        asked.iter().all(|b| !b.contains("Tool `set_reminder`")),
        "{asked:?}"
    );
    let good = by("delete_event");
    assert!(good["dev_after"].as_f64().unwrap() > good["dev_before"].as_f64().unwrap());
    // One measured proposal: the Bonferroni factor is 1.
    assert_eq!(good["p"], good["p_corrected"]);
    let text = std::fs::read_to_string(out.join("fix.txt")).unwrap();
    assert!(text.contains("rejected `set_reminder`"));
    if good["accepted"] == true {
        assert!(
            good["heldout"].is_array(),
            "an accepted rewrite was confirmed on held-out tasks"
        );
    } else {
        assert!(good["reason"].as_str().unwrap().contains("not"), "{good}");
    }
}

/// A fixer that wraps its rewrite in a preface and a code fence, and refuses another tool.
struct ChattyFixerMock;

impl Respond for ChattyFixerMock {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let user = last_user_text(&body);
        let text = if user.contains("Tool `delete_event`") {
            "Sure! Here is a better description:\n\n```text\nRemove a draft or personal entry from your own calendar silently. For meetings with attendees use cancel_event.\n```"
        } else {
            "I'm sorry, I can't help with rewriting that."
        };
        ResponseTemplate::new(200).set_body_json(json!({"model": "fixer-1", "choices": [{"message": {"role": "assistant", "content": text}}]}))
    }
}

/// Issue 41 point 4: a rewrite is taken from the reply as the description itself (no preface,
/// fence or quotes); a refusal is not measured, and fix.txt says what was refused and why,
/// never an empty rate.
#[tokio::test(flavor = "multi_thread")]
async fn a_fixers_preface_is_dropped_and_a_refusal_is_named_not_scored() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ChattyFixerMock)
        .mount(&server)
        .await;
    let out = dir.path().join("fix");
    let o = run(
        vec![
            "run".into(),
            fixture("example/before.json"),
            "-t".into(),
            fixture("example/tasks.jsonl"),
            "-m".into(),
            "bm25".into(),
            "--fix".into(),
            "--fixer".into(),
            "openai-compat:fixer".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--fix-tool".into(),
            "delete_event".into(),
            "--fix-tool".into(),
            "cancel_event".into(),
            "--no-cache".into(),
            "--out".into(),
            s(&out),
        ],
        vec![],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let proposals = read_json(&out.join("fix.json"));
    let by = |t: &str| {
        proposals
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["tool"] == t)
            .unwrap_or_else(|| panic!("no proposal for {t}: {proposals:#}"))
            .clone()
    };
    let good = by("delete_event");
    assert_eq!(
        good["after"],
        "Remove a draft or personal entry from your own calendar silently. For meetings with attendees use cancel_event.",
        "{good:#}"
    );
    assert!(good["dev_n"].as_u64().unwrap() > 0, "{good:#}");
    let refused = by("cancel_event");
    assert_eq!(refused["dev_n"], 0, "{refused:#}");
    assert!(
        refused["reason"].as_str().unwrap().contains("refused"),
        "{refused:#}"
    );
    assert!(
        refused["refused"].as_str().unwrap().contains("I'm sorry"),
        "{refused:#}"
    );
    let text = std::fs::read_to_string(out.join("fix.txt")).unwrap();
    assert!(text.contains("the fixer's reply: \"I'm sorry"), "{text}");
    assert!(!text.contains("(n=0)"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_fix_loop_accepts_a_significant_rewrite_and_confirms_it_on_held_out_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("cat.json");
    std::fs::write(
        &cat,
        json!({"tools": [
            {"name": "archive_ticket", "description": "Handles tickets.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}},
            {"name": "get_weather", "description": "Weather forecast for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}
        ]})
        .to_string(),
    )
    .unwrap();
    let t = dir.path().join("tasks.jsonl");
    let mut lines = Vec::new();
    for i in 0..14 {
        let split = if i < 10 { "dev" } else { "heldout" };
        lines.push(json!({"id": format!("a{i}"), "request": format!("shelve the stale support case {i}"), "kind": "direct", "expected": {"tool": "archive_ticket"}, "split": split}).to_string());
    }
    std::fs::write(&t, lines.join("\n") + "\n").unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"model": "fixer-1", "choices": [{"message": {"role": "assistant",
            "content": "Shelve a stale support case: moves the ticket out of the active queue into the archive."}}]})))
        .mount(&server)
        .await;
    let out = dir.path().join("fix");
    let o = run(
        vec![
            "run".into(),
            s(&cat),
            "-t".into(),
            s(&t),
            "-m".into(),
            "bm25:1".into(),
            "--fix".into(),
            "--fixer".into(),
            "openai-compat:fixer".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--no-cache".into(),
            "--out".into(),
            s(&out),
        ],
        vec![],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p = &read_json(&out.join("fix.json"))[0];
    assert_eq!(p["tool"], "archive_ticket");
    assert_eq!(p["accepted"], true, "{p}");
    assert_eq!(
        (p["dev_before"].as_f64(), p["dev_after"].as_f64()),
        (Some(0.0), Some(1.0))
    );
    assert!(p["p_corrected"].as_f64().unwrap() < 0.01);
    assert_eq!(p["heldout"], json!([0.0, 1.0, 4]));
}

struct NoTemperature;

impl Respond for NoTemperature {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        if body.get("temperature").is_some() {
            return ResponseTemplate::new(400).set_body_json(json!({"error": {"message": "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."}}));
        }
        ResponseTemplate::new(200).set_body_json(openai_call("book_room", "{\"room\": \"Vega\"}"))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_model_that_rejects_temperature_zero_is_run_without_it_and_the_report_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(NoTemperature)
        .mount(&server)
        .await;
    let out = dir.path().join("run");
    let o = run(
        vec![
            "run".into(),
            s(catalog(dir.path())),
            "-t".into(),
            s(tasks(dir.path(), &["Reserve Vega", "Vega for standup"])),
            "-m".into(),
            "openai-compat:reasoner".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--no-cache".into(),
            "--concurrency".into(),
            "1".into(),
            "--out".into(),
            s(&out),
        ],
        vec![],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r = read_json(&out.join("run.json"));
    assert_eq!(r["results"][0]["metrics"]["accuracy"]["k"], 2);
    assert!(
        r["models"][0]["notes"][0]
            .as_str()
            .unwrap()
            .contains("rejected temperature 0")
    );
    let sent = server.received_requests().await.unwrap();
    assert_eq!(
        sent.len(),
        5,
        "one rejected request, then one per task without temperature, then the two of the description canary"
    );
    assert!(
        std::fs::read_to_string(out.join("report.md"))
            .unwrap()
            .contains("rejected temperature 0")
    );
}

/// Two calls in one reply, by the request: "weather" → get_weather (read-only) and book_room;
/// "cancel" → book_room and cancel_room (destructive); "list" → list_rooms (no annotations)
/// and book_room.
struct Parallel;

impl Respond for Parallel {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        if body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["role"] == "tool")
        {
            // A second turn (multi-step): nothing more to do.
            return ResponseTemplate::new(200).set_body_json(json!({"id": "c2", "model": "m",
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Done."}}]}));
        }
        let text = last_user_text(&body);
        let (a, b) = if text.contains("weather") {
            (
                ("get_weather", r#"{"city": "Lisbon"}"#),
                ("book_room", r#"{"room": "Vega"}"#),
            )
        } else if text.contains("cancel") {
            (
                ("book_room", r#"{"room": "Vega"}"#),
                ("cancel_room", r#"{"room": "Orion"}"#),
            )
        } else {
            (("list_rooms", "{}"), ("book_room", r#"{"room": "Vega"}"#))
        };
        let call = |id: &str, (name, args): (&str, &str)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}});
        ResponseTemplate::new(200).set_body_json(json!({"id": "c1", "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
              "tool_calls": [call("call_1", a), call("call_2", b)]}}]}))
    }
}

/// Parallel calls in one reply are scored: a read-only call beside the right one passes, an
/// unasked write after it fails the task, and an unasked tool without annotations fails it as
/// a state of its own. One step or several, the verdicts are the same.
#[tokio::test(flavor = "multi_thread")]
async fn parallel_calls_in_one_reply_are_scored() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Parallel)
        .mount(&server)
        .await;
    let cat = dir.path().join("rooms.json");
    std::fs::write(
        &cat,
        json!({"tools": [
            {"name": "book_room", "description": "Reserve a meeting room.", "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}}, "required": ["room"]}, "annotations": {"readOnlyHint": false}},
            {"name": "get_weather", "description": "Weather for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}, "annotations": {"readOnlyHint": true}},
            {"name": "cancel_room", "description": "Cancel a room booking.", "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}}}, "annotations": {"readOnlyHint": false, "destructiveHint": true}},
            {"name": "list_rooms", "description": "List meeting rooms.", "inputSchema": {"type": "object", "properties": {}}}
        ]})
        .to_string(),
    )
    .unwrap();
    let t = tasks(
        dir.path(),
        &[
            "book Vega, weather permitting",
            "book Vega, do not cancel anything",
            "book Vega from the list",
        ],
    );
    for steps in ["1", "2"] {
        let out = dir.path().join(format!("s{steps}"));
        let o = run(
            vec![
                "run".into(),
                s(&cat),
                "-t".into(),
                s(&t),
                "-m".into(),
                "openai-compat:m".into(),
                "--base-url".into(),
                format!("{}/v1", server.uri()),
                "--no-cache".into(),
                "--max-steps".into(),
                steps.into(),
                "--out".into(),
                s(&out),
            ],
            vec![],
        )
        .await;
        assert!(
            o.status.code().is_some_and(|c| c <= 1),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let m = &read_json(&out.join("run.json"))["results"][0]["metrics"];
        assert_eq!(
            m["accuracy"]["k"], 1,
            "only the weather task passes ({steps} step): {m}"
        );
        assert_eq!(m["unasked_writes"], 1, "{m}");
        assert_eq!(m["unasked_unannotated"], 1, "{m}");
        assert_eq!(
            m["confusion"]["book_room"]["cancel_room"], 1,
            "the unasked tool is the column: {m}"
        );
        // Issue 41 point 2: every failed trial is in exactly one bucket, a passed one in none.
        let (buckets, failed) = crate::common::buckets_and_failed(m);
        let a = &m["attribution"];
        assert_eq!(buckets, failed, "{a}");
        assert_eq!(a["unasked_writes"], 2, "{a}");
        let md = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert!(md.contains("**Unannotated calls:** 1"), "{md}");
        // Issue 41 point 7: calls of one reply are one step; none is another's precondition.
        assert!(
            m["preconditions"].as_array().is_none_or(|p| p.is_empty()),
            "calls made together are not preconditions ({steps} step): {m}"
        );
        assert!(!md.contains("precondition"), "{md}");
    }
    // The second turn replays the reply as it was: one assistant message with both calls,
    // then both results.
    let sent = server.received_requests().await.unwrap();
    let second: Value = sent
        .iter()
        .map(|r| serde_json::from_slice::<Value>(&r.body).unwrap())
        .find(|b| {
            b["messages"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["role"] == "tool")
        })
        .expect("a second turn was sent with --max-steps 2");
    let roles: Vec<&str> = second["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "tool", "tool"],
        "{second}"
    );
    let ids: Vec<&str> = second["messages"][2]["tool_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["call_1", "call_2"]);
    assert_eq!(
        (
            second["messages"][3]["tool_call_id"].as_str(),
            second["messages"][4]["tool_call_id"].as_str()
        ),
        (Some("call_1"), Some("call_2"))
    );
}

/// A fix loop over a ticket catalog whose fixer answers `reply` for every tool.
async fn fix_with(dir: &Path, reply: &str, extra: &[&str]) -> (std::process::Output, MockServer) {
    let cat = dir.join("tickets.json");
    std::fs::write(
        &cat,
        json!({"tools": [
            {"name": "archive_ticket", "description": "Handles tickets.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}},
            {"name": "close_ticket", "description": "Marks a ticket done.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}},
            {"name": "get_weather", "description": "Weather forecast for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}
        ]})
        .to_string(),
    )
    .unwrap();
    let mut lines = Vec::new();
    for i in 0..24 {
        let split = if i < 20 { "dev" } else { "heldout" };
        lines.push(json!({"id": format!("a{i}"), "request": format!("shelve the stale support case {i}"), "kind": "direct", "expected": {"tool": "archive_ticket"}, "split": split}).to_string());
    }
    for j in 0..2 {
        lines.push(json!({"id": format!("c{j}"), "request": format!("close resolved ticket {j}"), "kind": "direct", "expected": {"tool": "close_ticket"}, "split": "dev"}).to_string());
    }
    let t = dir.join("tickets.jsonl");
    std::fs::write(&t, lines.join("\n") + "\n").unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"model": "fixer-1", "choices": [{"message": {"role": "assistant", "content": reply}}]}),
        ))
        .mount(&server)
        .await;
    let mut args: Vec<String> = vec![
        "run".into(),
        s(&cat),
        "-t".into(),
        s(&t),
        "-m".into(),
        "bm25:1".into(),
        "--fix".into(),
        "--fixer".into(),
        "openai-compat:fixer".into(),
        "--base-url".into(),
        format!("{}/v1", server.uri()),
        "--no-cache".into(),
        "--out".into(),
        s(dir.join("fix")),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    (run(args, vec![]).await, server)
}

/// The stealing rewrite: it wins archive_ticket's 20 dev tasks (significant overall) by
/// taking close_ticket's two, which no paired test could show at n=2. It is rejected for the
/// loss itself; with the bar raised to 3 lost tasks the same rewrite passes the dev test.
/// A refusal or a too-long reply is never measured, and a tool with too few tasks spends
/// nothing.
#[tokio::test(flavor = "multi_thread")]
async fn the_fix_loop_rejects_a_stealing_rewrite_a_refusal_and_a_long_reply() {
    let stealing = "Close ticket: when the issue is resolved close the ticket, close any resolved ticket, or shelve a stale support case.";
    let dir = tempfile::tempdir().unwrap();
    let (o, _) = fix_with(dir.path(), stealing, &["--fix-tool", "archive_ticket"]).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p = &read_json(&dir.path().join("fix/fix.json"))[0];
    assert_eq!(p["accepted"], false, "{p}");
    let why = p["reason"].as_str().unwrap();
    assert!(
        why.contains("hurts `close_ticket`") && why.contains("2 of its tasks lost"),
        "{why}"
    );
    assert!(
        p["p_corrected"].as_f64().unwrap() < 0.05,
        "it is significant overall: {p}"
    );

    let dir = tempfile::tempdir().unwrap();
    let (o, _) = fix_with(
        dir.path(),
        stealing,
        &["--fix-tool", "archive_ticket", "--max-task-loss", "3"],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p = &read_json(&dir.path().join("fix/fix.json"))[0];
    assert!(!p["reason"].as_str().unwrap().contains("hurts"), "{p}");

    for (reply, want) in [
        (
            "I'm sorry, but I can't help with rewriting that description.",
            "refused",
        ),
        ("", "no text"),
        (&"word ".repeat(30), "25-word limit"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (o, server) = fix_with(dir.path(), reply, &["--fix-tool", "archive_ticket"]).await;
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let p = &read_json(&dir.path().join("fix/fix.json"))[0];
        assert_eq!(p["accepted"], false);
        assert!(p["reason"].as_str().unwrap().contains(want), "{want}: {p}");
        assert_eq!(p["dev_n"], 0, "never measured: {p}");
        assert_eq!(
            server.received_requests().await.unwrap().len(),
            1,
            "only the fixer was asked"
        );
        assert!(!dir.path().join("fix/dev-archive_ticket-fix").exists());
    }

    // close_ticket has two dev tasks: no rewrite of it could be shown better, so nothing runs.
    let dir = tempfile::tempdir().unwrap();
    let (o, server) = fix_with(dir.path(), stealing, &["--fix-tool", "close_ticket"]).await;
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing was run"));
    assert!(server.received_requests().await.unwrap().is_empty());
    assert!(!dir.path().join("fix/baseline").exists());
}

/// `init` with a server and no key: a local OpenAI-compatible server that lists a model on its
/// usual variable is the writer; the suite it writes is pending review and the config names it.
#[tokio::test(flavor = "multi_thread")]
async fn init_writes_the_starter_suite_with_a_local_model_server_when_one_answers() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"object": "list", "data": [{"id": "writer-1"}]})),
        )
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(WriterMock)
        .mount(&server)
        .await;
    let cat = catalog(dir.path());
    let project = dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let o = run(
        vec!["init".into(), s(&project), "--server".into(), s(&cat)],
        vec![("LLAMACPP_BASE_URL", format!("{}/v1", server.uri()))],
    )
    .await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("a local llamacpp server answers") && err.contains("llamacpp:writer-1"),
        "{err}"
    );
    let tasks: Vec<Value> = std::fs::read_to_string(project.join("tasks.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!tasks.is_empty());
    for t in &tasks {
        assert_eq!(t["source"], "llm:llamacpp:writer-1", "{t}");
        assert_eq!(t["review"], "pending", "{t}");
    }
    let writes = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path() == "/v1/chat/completions")
        .count();
    assert!(
        writes >= tasks.len() - 5,
        "{writes} requests for {} tasks",
        tasks.len()
    );
    let config = std::fs::read_to_string(project.join("toolgate.toml")).unwrap();
    assert!(config.contains("tasks = \"tasks.jsonl\""), "{config}");
    assert!(err.contains("toolgate approve tasks.jsonl"), "{err}");
}

/// OpenAI's reasoning models refuse `max_tokens` (HTTP 400, `unsupported_parameter`): the run
/// resends the bound as `max_completion_tokens`, says so, and scores every task.
struct RefusesMaxTokens;

impl Respond for RefusesMaxTokens {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        if body.get("max_tokens").is_some() {
            return ResponseTemplate::new(400).set_body_json(json!({"error": {
                "message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
                "type": "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter"}}));
        }
        assert_eq!(body["max_completion_tokens"], 1024, "{body}");
        ResponseTemplate::new(200).set_body_json(openai_call("book_room", "{\"room\": \"Vega\"}"))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_request_is_bounded_and_a_model_that_wants_max_completion_tokens_gets_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(RefusesMaxTokens)
        .mount(&server)
        .await;
    let out = dir.path().join("run");
    let o = run(
        vec![
            "run".into(),
            s(catalog(dir.path())),
            "-t".into(),
            s(tasks(
                dir.path(),
                &["Reserve Vega please", "Book Vega for me"],
            )),
            "-m".into(),
            "openai-compat:o-mock".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--concurrency".into(),
            "1".into(),
            "--no-cache".into(),
            "--out".into(),
            s(&out),
        ],
        vec![],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run_json = read_json(&out.join("run.json"));
    assert_eq!(run_json["results"][0]["metrics"]["errors"], 0, "{run_json}");
    assert!(
        run_json["models"][0]["notes"]
            .to_string()
            .contains("sent as `max_completion_tokens`"),
        "{}",
        run_json["models"][0]["notes"]
    );
    // The run's requests in flight before the first refusal came back are refused once each
    // (at most both tasks), then every other one is sent with the new
    // name: 2 tasks + 2 canary (the canary, sent with the first tasks, is answered by its own
    // mock whatever the name).
    let reqs = server.received_requests().await.unwrap();
    let canary = |r: &&Request| String::from_utf8_lossy(&r.body).contains("Celsius in Fahrenheit");
    let refused = reqs
        .iter()
        .filter(|r| !canary(r))
        .filter(|r| {
            serde_json::from_slice::<Value>(&r.body)
                .unwrap()
                .get("max_tokens")
                .is_some()
        })
        .count();
    assert!((1..=2).contains(&refused), "{refused} refused");
    assert_eq!(reqs.iter().filter(|r| canary(r)).count(), 2);
    assert_eq!(reqs.len(), 4 + refused);
}

/// Issue 25 point 4: a provider that echoes the key (one with no known token shape) in a
/// successful reply, in the arguments and in its text: no file of the run holds it.
#[tokio::test(flavor = "multi_thread")]
async fn a_key_echoed_in_a_successful_reply_is_masked_in_every_file() {
    const KEY: &str = "plainkey0123456789abcdefXYZ";
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_canary(&server).await;
    let mut reply = openai_call(
        "book_room",
        &json!({"room": format!("Vega {KEY}")}).to_string(),
    );
    reply["choices"][0]["message"]["content"] = json!(format!("Booked with key {KEY}"));
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(reply))
        .mount(&server)
        .await;
    let out = dir.path().join("run");
    let o = run(
        vec![
            "run".into(),
            s(catalog(dir.path())),
            "-t".into(),
            s(tasks(dir.path(), &["Reserve Vega please"])),
            "-m".into(),
            "openai-compat:mock-model".into(),
            "--base-url".into(),
            format!("{}/v1", server.uri()),
            "--out".into(),
            s(&out),
            "--no-cache".into(),
        ],
        vec![("OPENAI_COMPAT_API_KEY", KEY.into())],
    )
    .await;
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !stdout.contains(KEY) && !stderr.contains(KEY),
        "{stdout}{stderr}"
    );
    let p = predictions(&out);
    assert!(!p.is_empty());
    assert!(p[0].to_string().contains("***"), "{:#}", p[0]);
    for f in std::fs::read_dir(&out).unwrap().flatten() {
        let text = std::fs::read_to_string(f.path()).unwrap_or_default();
        assert!(
            !text.contains(KEY),
            "the key leaked into {}",
            f.path().display()
        );
    }
}

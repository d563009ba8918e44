//! A gate that never lies: errors are never scores, a partial run never passes, a significant
//! regression fails — in `run`, `ci` and `compare`, with the cause where a reader looks.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::{fixture, py_server, read_json, toolgate};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

fn catalog(dir: &Path) -> String {
    let p = dir.join("catalog.json");
    std::fs::write(
        &p,
        json!({"tools": [
            {"name": "book_room", "description": "Reserve a meeting room.", "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}}, "required": ["room"]}},
            {"name": "get_weather", "description": "Weather for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
        ]})
        .to_string(),
    )
    .unwrap();
    p.display().to_string()
}

fn tasks(dir: &Path, n: usize) -> String {
    let p = dir.join("tasks.jsonl");
    let lines: Vec<String> = (0..n)
        .map(|i| json!({"id": format!("t{i:02}"), "request": format!("book room Vega please #{i}"), "kind": "direct", "expected": {"tool": "book_room"}}).to_string())
        .collect();
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p.display().to_string()
}

fn call(name: &str) -> Value {
    json!({"id": "c", "model": "mock", "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": name, "arguments": "{\"room\":\"Vega\"}"}}]}}]})
}

/// Answers every request with a context-length error, or fails every `every`-th request.
struct Endpoint {
    calls: Arc<AtomicUsize>,
    context_length: bool,
    every: usize,
}

impl Respond for Endpoint {
    fn respond(&self, _req: &Request) -> ResponseTemplate {
        let n = self.calls.fetch_add(1, Ordering::SeqCst);
        if self.context_length {
            return ResponseTemplate::new(400).set_body_json(json!({"error": {"message": "This model's maximum context length is 2048 tokens. However, your messages resulted in 2490 tokens.", "type": "invalid_request_error", "code": "context_length_exceeded"}}));
        }
        if self.every > 0 && n % self.every == self.every - 1 {
            return ResponseTemplate::new(400).set_body_string("bad request: unsupported value");
        }
        ResponseTemplate::new(200).set_body_json(call("book_room"))
    }
}

async fn endpoint(context_length: bool, every: usize) -> MockServer {
    let server = MockServer::start().await;
    crate::common::mount_canary(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Endpoint {
            calls: Arc::new(AtomicUsize::new(0)),
            context_length,
            every,
        })
        .mount(&server)
        .await;
    server
}

fn run_against(dir: &Path, base_url: &str, n: usize, extra: &[&str]) -> std::process::Output {
    let cat = catalog(dir);
    let t = tasks(dir, n);
    toolgate()
        .current_dir(dir)
        .args(["run", &cat, "-t", &t, "-m", "openai-compat:m", "--base-url"])
        .arg(base_url)
        .args([
            "--out",
            "r",
            "--no-cache",
            "--retries",
            "0",
            "--timeout",
            "5",
        ])
        .args(["--concurrency", "1"])
        .args(extra)
        .output()
        .unwrap()
}

fn report_md(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("r/report.md")).unwrap()
}

#[test]
fn nothing_listening_is_exit_2_with_the_cause_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    // A port nothing listens on: bind, read the port, close.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let o = run_against(dir.path(), &format!("http://127.0.0.1:{port}/v1"), 4, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("connection refused") || err.contains("Connection refused"),
        "{err}"
    );
    // Three connection attempts in a row that reach nothing stop the endpoint: two
    // decisions failed and are scored as errors, the other two were not made.
    assert!(
        err.contains("3 connection attempts in a row reached nothing"),
        "{err}"
    );
    assert!(
        out.contains("errors by cause    2× connection refused"),
        "{out}"
    );
    let md = report_md(dir.path());
    assert!(md.contains("| connection refused | 2 |"), "{md}");
    assert!(md.contains("failed with an error"), "{md}");
    assert!(md.contains("endpoint stopped, run partial"), "{md}");
    let html = std::fs::read_to_string(dir.path().join("r/report.html")).unwrap();
    assert!(html.contains("2× connection refused"));
    assert!(html.contains("endpoint stopped, run partial"));
    assert_eq!(
        read_json(&dir.path().join("r/run.json"))["status"],
        "partial"
    );
    assert!(!dir.path().join("badge.svg").exists());
    // The same through `ci`: exit 2 and the cause in the PR comment.
    let o = toolgate()
        .current_dir(dir.path())
        .args([
            "ci",
            "--server",
            &catalog(dir.path()),
            "--tasks",
            &tasks(dir.path(), 4),
        ])
        .args(["-m", "openai-compat:m", "--base-url"])
        .arg(format!("http://127.0.0.1:{port}/v1"))
        .args([
            "--lock-check",
            "off",
            "--out",
            "o",
            "--comment",
            "true",
            "--no-cache",
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let comment = std::fs::read_to_string(dir.path().join("o/comment.md")).unwrap();
    assert!(comment.contains("could not score"), "{comment}");
    assert!(
        comment.to_lowercase().contains("connection refused"),
        "{comment}"
    );
    assert!(!dir.path().join("o/badge.svg").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_context_length_error_on_every_request_is_exit_2_with_the_cause() {
    let server = endpoint(true, 0).await;
    let dir = tempfile::tempdir().unwrap();
    let base = format!("{}/v1", server.uri());
    let d = dir.path().to_path_buf();
    let o = tokio::task::spawn_blocking(move || run_against(&d, &base, 4, &[]))
        .await
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("context_length_exceeded"), "{err}");
    let md = report_md(dir.path());
    assert!(md.contains("| context length exceeded | 4 |"), "{md}");
}

#[tokio::test(flavor = "multi_thread")]
async fn one_failure_in_five_completes_with_failures_by_cause() {
    let server = endpoint(false, 5).await;
    let dir = tempfile::tempdir().unwrap();
    let base = format!("{}/v1", server.uri());
    let d = dir.path().to_path_buf();
    // 20 % errors is over the default 5 %: raise the policy to let it complete.
    let o = tokio::task::spawn_blocking(move || {
        run_against(&d, &base, 20, &["--max-error-rate", "0.25"])
    })
    .await
    .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let md = report_md(dir.path());
    assert!(md.contains("| HTTP 400 | 4 |"), "{md}");
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r/run.json")).unwrap())
            .unwrap();
    assert_eq!(run["status"], "complete");
    assert_eq!(run["results"][0]["metrics"]["errors"], 4);
}

fn ci(dir: &Path, server: &str, extra: &[&str]) -> std::process::Output {
    toolgate()
        .current_dir(dir)
        .args([
            "ci",
            "--server",
            server,
            "--tasks",
            &fixture("example/tasks.jsonl"),
        ])
        .args(["--lock-check", "off", "--comment", "true"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_significant_regression_fails_ci_and_compare_and_names_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let after = py_server("fakemcp.py", &fixture("example/after.json"));
    let before = py_server("fakemcp.py", &fixture("example/before.json"));
    // The base is the better "after"; the change goes back to "before".
    let o = ci(
        dir.path(),
        &after,
        &["--out", "base", "--write-baseline", "after-baseline.json"],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Going back also brings back confusable definitions (--fail-on-new): this test is about
    // the scores, so the ratchet is off.
    let o = ci(
        dir.path(),
        &before,
        &[
            "--out",
            "head",
            "--base",
            "after-baseline.json",
            "--fail-on-new",
            "never",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let comment = std::fs::read_to_string(dir.path().join("head/comment.md")).unwrap();
    assert!(comment.contains("significant regression"), "{comment}");
    assert!(comment.contains("--fail-on-regression"), "{comment}");
    let cij: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("head/ci.json")).unwrap())
            .unwrap();
    assert_eq!(cij["failures"][0]["kind"], "regression");
    // Turned off, the same change passes and the regression is still reported.
    let o = ci(
        dir.path(),
        &before,
        &[
            "--out",
            "head2",
            "--base",
            "after-baseline.json",
            "--fail-on-regression",
            "false",
            "--fail-on-new",
            "never",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let summary = std::fs::read_to_string(dir.path().join("head2/summary.md")).unwrap();
    assert!(summary.contains("significant regression"), "{summary}");
    // compare applies the same policy.
    toolgate()
        .args(["compare"])
        .arg(dir.path().join("base/run"))
        .arg(dir.path().join("head/run"))
        .assert()
        .code(1);
    toolgate()
        .args(["compare"])
        .arg(dir.path().join("head/run"))
        .arg(dir.path().join("base/run"))
        .assert()
        .code(0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_partial_ci_run_exits_non_zero_and_writes_no_badge_or_baseline() {
    let server = endpoint(false, 0).await;
    let dir = tempfile::tempdir().unwrap();
    let cat = catalog(dir.path());
    let t = tasks(dir.path(), 6);
    let base = format!("{}/v1", server.uri());
    let d = dir.path().to_path_buf();
    let o = tokio::task::spawn_blocking(move || {
        toolgate()
            .current_dir(&d)
            .args([
                "ci",
                "--server",
                &cat,
                "--tasks",
                &t,
                "-m",
                "openai-compat:m",
            ])
            .args(["--base-url", &base, "--max-calls", "2", "--no-cache"])
            .args(["--lock-check", "off", "--out", "o", "--badge", "b.svg"])
            .args(["--write-baseline", "base.json", "--concurrency", "1"])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("partial"), "{err}");
    for f in ["b.svg", "base.json", "o/badge.svg", "o/baseline.json"] {
        assert!(!dir.path().join(f).exists(), "{f} was written");
    }
    let summary = std::fs::read_to_string(dir.path().join("o/summary.md")).unwrap();
    assert!(summary.contains("could not score"), "{summary}");
}

#[test]
fn report_fail_under_is_range_checked() {
    let dir = tempfile::tempdir().unwrap();
    toolgate()
        .current_dir(dir.path())
        .args([
            "run",
            &fixture("example/after.json"),
            "-t",
            &fixture("example/tasks.jsonl"),
        ])
        .args(["--out", "r"])
        .assert()
        .success();
    toolgate()
        .current_dir(dir.path())
        .args(["report", "r", "--fail-under", "52"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("between 0 and 1"));
}

/// Hand-built replay cases, each graded as the scoring contract says and each visible in
/// report.md.
#[test]
fn replayed_arguments_and_unasked_writes_are_graded_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("billing.json");
    std::fs::write(
        &cat,
        json!({"tools": [
            {"name": "list_invoices", "description": "List invoices by status.", "inputSchema": {"type": "object", "properties": {"status": {"type": "string"}, "customer": {"type": "string"}}}, "annotations": {"readOnlyHint": true}},
            {"name": "schedule_call", "description": "Schedule a call.", "inputSchema": {"type": "object", "properties": {"at": {"type": "string", "format": "date-time"}}}},
            {"name": "delete_contact", "description": "Delete a contact.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}, "annotations": {"destructiveHint": true}},
            {"name": "update_contact", "description": "Update a contact.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}, "phone": {"type": "string"}}}}
        ]})
        .to_string(),
    )
    .unwrap();
    let t = dir.path().join("t.jsonl");
    let tasks = [
        json!({"id": "paid", "request": "Show paid invoices", "kind": "direct", "expected": {"tool": "list_invoices", "arguments": {"status": "paid"}}}),
        json!({"id": "ann", "request": "Invoices for Ann", "kind": "direct", "expected": {"tool": "list_invoices", "arguments": {"customer": "Ann"}}}),
        json!({"id": "secs", "request": "Call at 12:00:00", "kind": "direct", "expected": {"tool": "schedule_call", "arguments": {"at": "2026-05-08T12:00:00Z"}}}),
        json!({"id": "unknown", "request": "Paid invoices, page 2", "kind": "direct", "expected": {"tool": "list_invoices", "arguments": {"status": "paid"}}}),
        json!({"id": "delete-first", "request": "Change c1's phone", "kind": "direct", "expected": {"tool": "update_contact"}}),
        json!({"id": "read-first", "request": "Change c2's phone", "kind": "direct", "expected": {"tool": "update_contact"}}),
    ];
    std::fs::write(
        &t,
        tasks
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join("\n")
            + "\n",
    )
    .unwrap();
    let log = dir.path().join("log.jsonl");
    let logged = [
        json!({"task_id": "paid", "tool": "list_invoices", "arguments": {"status": "unpaid"}}),
        json!({"task_id": "ann", "tool": "list_invoices", "arguments": {"customer": "Joanne"}}),
        json!({"task_id": "secs", "tool": "schedule_call", "arguments": {"at": "2026-05-08T12:00:30Z"}}),
        json!({"task_id": "unknown", "tool": "list_invoices", "arguments": {"status": "paid", "page": 2}}),
        json!({"task_id": "delete-first", "calls": [{"tool": "delete_contact", "arguments": {"id": "c1"}}, {"tool": "update_contact", "arguments": {"id": "c1"}}]}),
        json!({"task_id": "read-first", "calls": [{"tool": "list_invoices", "arguments": {}}, {"tool": "update_contact", "arguments": {"id": "c2"}}]}),
    ];
    std::fs::write(
        &log,
        logged
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join("\n")
            + "\n",
    )
    .unwrap();
    toolgate()
        .current_dir(dir.path())
        .args([
            "run",
            "billing.json",
            "-t",
            "t.jsonl",
            "-m",
            "replay:log.jsonl",
            "--out",
            "r",
        ])
        .assert()
        .success();
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r/run.json")).unwrap())
            .unwrap();
    let m = &run["results"][0]["metrics"];
    assert_eq!(m["unasked_writes"], 1, "{m}");
    assert_eq!(
        m["accuracy"]["k"], 5,
        "only the delete-first task fails tool choice: {m}"
    );
    // Issue 41 point 2: the failed trial is in one bucket; passed trials with wrong arguments
    // are in none (they are counted beside the buckets).
    let (buckets, failed) = crate::common::buckets_and_failed(m);
    assert_eq!(buckets, failed, "{}", m["attribution"]);
    assert_eq!(
        (&m["args_correct"]["k"], &m["args_correct"]["n"]),
        (&json!(0), &json!(4)),
        "paid≠unpaid, Ann≠Joanne, 12:00:00≠12:00:30; `unknown` has the right values but a key its tool would reject (issue 41 point 1): {m}"
    );
    assert_eq!(m["args_valid"]["k"], 4, "the unknown key is invalid: {m}");
    let problems: Vec<String> = m["argument_problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{}: {}", p["task_id"], p["problems"]))
        .collect();
    let all = problems.join("\n");
    for want in [
        "\"paid\": ",
        "\"ann\": ",
        "\"secs\": ",
        "`page` is not a parameter",
    ] {
        assert!(all.contains(want), "{want} missing in {all}");
    }
    let md = std::fs::read_to_string(dir.path().join("r/report.md")).unwrap();
    assert!(md.contains("**Unasked writes:** 1"), "{md}");
    assert!(md.contains("**Wrong arguments**"), "{md}");
    assert!(
        md.contains("expected \"unpaid\"") || md.contains("expected \"paid\", got \"unpaid\""),
        "{md}"
    );
    assert!(md.contains("is not a parameter of this tool"), "{md}");
    // The layer that failed is named: the schema under the values.
    let layer = |id: &str| {
        m["argument_problems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["task_id"] == id)
            .map(|p| p["layer"].clone())
    };
    assert_eq!(layer("unknown"), Some(json!("schema")));
    assert_eq!(layer("paid"), Some(json!("values")));
    assert!(
        md.contains("| invalid (schema) |") && md.contains("| wrong value |"),
        "{md}"
    );
}

/// `--mutate` measures the whole suite: a description that pulls another tool's tasks toward
/// itself is rejected, naming the tool it hurts.
#[test]
fn a_mutation_that_steals_another_tools_tasks_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c.json"),
        json!({"tools": [
            {"name": "send_email", "description": "Send an email to a recipient's address.", "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}}}},
            {"name": "post_message", "description": "Post a chat message to a team channel.", "inputSchema": {"type": "object", "properties": {"channel": {"type": "string"}}}}
        ]})
        .to_string(),
    )
    .unwrap();
    let mut lines = Vec::new();
    for (i, who) in ["ana", "bo", "cy", "di", "ed", "flo", "gus", "hal"]
        .iter()
        .enumerate()
    {
        lines.push(json!({"id": format!("e{i}"), "request": format!("Email {who} at {who}@example.com about the offsite"), "kind": "direct", "expected": {"tool": "send_email"}}).to_string());
    }
    for (i, ch) in ["general", "random", "eng"].iter().enumerate() {
        lines.push(json!({"id": format!("p{i}"), "request": format!("Post in the #{ch} channel that the build is green"), "kind": "direct", "expected": {"tool": "post_message"}}).to_string());
    }
    std::fs::write(dir.path().join("t.jsonl"), lines.join("\n") + "\n").unwrap();
    let o = toolgate()
        .current_dir(dir.path())
        .args(["run", "c.json", "-t", "t.jsonl", "--out", "m", "--mutate"])
        .arg("post_message:Email anyone: send an email or a message to any recipient, address, channel or team.")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains("REJECTED — hurts `send_email` (100.0% → 0.0%"),
        "{out}"
    );
    assert!(
        out.contains("only 3 task(s) expect or lure toward `post_message`"),
        "the suite is too small to show a gain for post_message, and says so first: {out}"
    );
}

/// How a mock endpoint reports `usage`.
#[derive(Clone, Copy)]
enum Usage {
    /// Prompt tokens follow the request body.
    Follows,
    /// The same prompt tokens whatever was sent.
    Constant,
    /// No `usage` at all.
    Missing,
}

/// A model endpoint that either reads tool descriptions (it calls the tool whose description
/// shares most words with the request) or never sees them (it calls the first tool), and
/// reports `usage` one of three ways — which must never decide the description probe.
struct UsageEndpoint {
    reads_descriptions: bool,
    usage: Usage,
    calls: Arc<AtomicUsize>,
}

impl Respond for UsageEndpoint {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let words = |t: &str| -> std::collections::HashSet<String> {
            t.to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| w.len() > 3)
                .map(str::to_string)
                .collect()
        };
        let asked = words(
            body["messages"]
                .as_array()
                .unwrap()
                .iter()
                .rev()
                .find(|m| m["role"] == "user")
                .and_then(|m| m["content"].as_str())
                .unwrap_or(""),
        );
        let tools = body["tools"].as_array().unwrap();
        let name = |t: &Value| t["function"]["name"].as_str().unwrap().to_string();
        let pick = if self.reads_descriptions {
            tools
                .iter()
                .max_by_key(|t| {
                    let d = words(t["function"]["description"].as_str().unwrap_or(""));
                    (d.intersection(&asked).count(), std::cmp::Reverse(name(t)))
                })
                .map(name)
        } else {
            tools.first().map(name)
        };
        let mut reply = call(&pick.unwrap());
        let prompt = match self.usage {
            Usage::Follows => Some(req.body.len() as u64 / 4),
            Usage::Constant => Some(221),
            Usage::Missing => None,
        };
        if let Some(prompt) = prompt {
            reply["usage"] = json!({"prompt_tokens": prompt, "completion_tokens": 7, "total_tokens": prompt + 7});
        }
        ResponseTemplate::new(200).set_body_json(reply)
    }
}

async fn usage_endpoint(reads_descriptions: bool, usage: Usage) -> (MockServer, Arc<AtomicUsize>) {
    let server = MockServer::start().await;
    let calls = Arc::new(AtomicUsize::new(0));
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(UsageEndpoint {
            reads_descriptions,
            usage,
            calls: calls.clone(),
        })
        .mount(&server)
        .await;
    (server, calls)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_endpoint_that_drops_descriptions_is_detected_and_refused_for_comparisons() {
    let (dropper, _) = usage_endpoint(false, Usage::Constant).await;
    let (honest, _) = usage_endpoint(true, Usage::Follows).await;
    let dir = tempfile::tempdir().unwrap();
    let cat = catalog(dir.path());
    let t = tasks(dir.path(), 3);
    let d = dir.path().to_path_buf();
    let (a, b) = (
        format!("{}/v1", dropper.uri()),
        format!("{}/v1", honest.uri()),
    );
    let (cat2, t2) = (cat.clone(), t.clone());
    let outs = tokio::task::spawn_blocking(move || {
        let run = |url: &str, out: &str| {
            toolgate()
                .current_dir(&d)
                .args([
                    "run",
                    &cat2,
                    "-t",
                    &t2,
                    "-m",
                    "openai-compat:m",
                    "--base-url",
                    url,
                ])
                .args(["--out", out, "--cache-dir", "cache"])
                .output()
                .unwrap()
        };
        let mutate = toolgate()
            .current_dir(&d)
            .args([
                "run",
                &cat2,
                "-t",
                &t2,
                "-m",
                "openai-compat:m",
                "--base-url",
                &a,
            ])
            .args(["--out", "m", "--cache-dir", "cache", "--mutate"])
            .arg("book_room:Reserve a meeting room by name for a time slot.")
            .output()
            .unwrap();
        (run(&a, "dropped"), run(&b, "kept"), mutate)
    })
    .await
    .unwrap();
    let (dropped, kept, mutate) = outs;
    // A model shown never to see descriptions cannot pass: exit 2, the probe named.
    assert_eq!(
        dropped.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&dropped.stderr)
    );
    assert!(String::from_utf8_lossy(&dropped.stderr).contains("the description probe failed"));
    let err = String::from_utf8_lossy(&dropped.stderr);
    assert!(
        err.contains("tool descriptions do not reach this model"),
        "{err}"
    );
    let run: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("dropped/run.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(run["models"][0]["descriptions"]["reach"], false);
    assert_eq!(run["models"][0]["usage"]["prompt_tokens"], 3 * 221);
    let md = std::fs::read_to_string(dir.path().join("dropped/report.md")).unwrap();
    assert!(md.contains("do not reach this model"), "{md}");
    // The same model name at another endpoint is asked anew (the cache key has the URL),
    // and there the descriptions do reach the model.
    assert!(kept.status.success());
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("kept/run.json")).unwrap())
            .unwrap();
    assert_eq!(run["models"][0]["descriptions"]["reach"], true);
    assert_eq!(
        run["models"][0]["usage"]["cached"], 0,
        "another endpoint is never a cache hit"
    );
    assert_eq!(mutate.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&mutate.stderr).contains("cannot be measured"),
        "{}",
        String::from_utf8_lossy(&mutate.stderr)
    );
}

/// The probe does not trust `usage`: a model that reads descriptions behind an endpoint that
/// reports constant prompt tokens raised a false alarm, and one that never sees them behind an
/// endpoint that reports no usage went unnoticed. The canary decides by what gets called.
#[tokio::test(flavor = "multi_thread")]
async fn the_description_probe_reads_behaviour_not_usage() {
    let (constant, _) = usage_endpoint(true, Usage::Constant).await;
    let (silent, _) = usage_endpoint(false, Usage::Missing).await;
    let dir = tempfile::tempdir().unwrap();
    let (cat, t) = (catalog(dir.path()), tasks(dir.path(), 3));
    let d = dir.path().to_path_buf();
    let urls = [
        format!("{}/v1", constant.uri()),
        format!("{}/v1", silent.uri()),
    ];
    let outs = tokio::task::spawn_blocking(move || {
        urls.iter()
            .zip(["constant", "silent"])
            .map(|(url, out)| {
                toolgate()
                    .current_dir(&d)
                    .args([
                        "run",
                        &cat,
                        "-t",
                        &t,
                        "-m",
                        "openai-compat:m",
                        "--base-url",
                        url,
                    ])
                    .args(["--out", out, "--no-cache"])
                    .output()
                    .unwrap()
            })
            .collect::<Vec<_>>()
    })
    .await
    .unwrap();
    let probe = |out: &str| -> Value {
        let run: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(out).join("run.json")).unwrap(),
        )
        .unwrap();
        run["models"][0]["descriptions"].clone()
    };
    assert!(outs[0].status.success());
    let p = probe("constant");
    assert_eq!(
        (
            p["reach"].clone(),
            p["canary"].clone(),
            p["outcome"].clone()
        ),
        (json!(true), json!("follows"), json!("passed")),
        "{p}"
    );
    assert!(!String::from_utf8_lossy(&outs[0].stderr).contains("do not reach"));
    assert_eq!(
        outs[1].status.code(),
        Some(2),
        "a blind model's run does not pass"
    );
    let p = probe("silent");
    assert_eq!(
        (
            p["reach"].clone(),
            p["canary"].clone(),
            p["outcome"].clone()
        ),
        (json!(false), json!("ignores"), json!("failed")),
        "{p}"
    );
    assert!(
        String::from_utf8_lossy(&outs[1].stderr)
            .contains("tool descriptions do not reach this model")
    );
}

/// The probe's three outcomes (passed, failed, could not check) are each recorded in
/// run.json and said in report.md, report.html and the PR comment; only "passed" passes.
#[tokio::test(flavor = "multi_thread")]
async fn each_probe_outcome_is_in_every_sink_and_only_passed_passes() {
    let (reads, _) = usage_endpoint(true, Usage::Follows).await;
    let (blind, _) = usage_endpoint(false, Usage::Missing).await;
    // Answers tasks like a describing model, but the canary's requests fail.
    let (broken, _) = usage_endpoint(true, Usage::Follows).await;
    Mock::given(wiremock::matchers::body_string_contains(
        "21 degrees Celsius in Fahrenheit",
    ))
    .respond_with(ResponseTemplate::new(500).set_body_string("canary exploded"))
    .with_priority(1)
    .mount(&broken)
    .await;
    let dir = tempfile::tempdir().unwrap();
    let (cat, t) = (catalog(dir.path()), tasks(dir.path(), 3));
    let d = dir.path().to_path_buf();
    let cases = [
        (format!("{}/v1", reads.uri()), "passed", "passed", 0),
        (format!("{}/v1", blind.uri()), "failed", "failed", 2),
        (
            format!("{}/v1", broken.uri()),
            "could_not_check",
            "could not check",
            2,
        ),
    ];
    let urls: Vec<(String, &str)> = cases.iter().map(|c| (c.0.clone(), c.1)).collect();
    let outs = tokio::task::spawn_blocking(move || {
        urls.iter()
            .map(|(url, out)| {
                toolgate()
                    .current_dir(&d)
                    .args(["ci", "--server", &cat, "--tasks", &t])
                    .args(["-m", "openai-compat:m", "--base-url", url])
                    .args(["--no-cache", "--lock-check", "off"])
                    .args(["--comment", "true", "--out", out])
                    .output()
                    .unwrap()
            })
            .collect::<Vec<_>>()
    })
    .await
    .unwrap();
    for ((_, out, label, code), o) in cases.iter().zip(&outs) {
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(*code), "{out}: {err}");
        let o_dir = dir.path().join(out);
        let run: Value = read_json(&o_dir.join("run/run.json"));
        assert_eq!(run["models"][0]["descriptions"]["outcome"], *out, "{out}");
        let said = format!("description probe: {label}");
        for f in ["run/report.md", "run/report.html", "comment.md"] {
            let text = std::fs::read_to_string(o_dir.join(f)).unwrap();
            assert!(text.contains(&said), "{out}: {f} does not say `{said}`");
        }
        let comment = std::fs::read_to_string(o_dir.join("comment.md")).unwrap();
        if *code != 0 {
            assert!(
                comment.contains("could not score this change — no score stands")
                    && comment.contains("Why these numbers cannot decide anything"),
                "{out}: the comment's headline and why: {comment}"
            );
        } else {
            assert!(comment.contains("toolgate passed"), "{comment}");
        }
    }
    let html = std::fs::read_to_string(dir.path().join("could_not_check/run/report.html")).unwrap();
    assert!(
        html.contains("canary request failed"),
        "the why is in report.html"
    );
}

//! Shared helpers for integration tests: the binary with a clean environment, fixture paths,
//! third-party servers installed by .ci/run, and an HTTP fixture server on a free port.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn fixture(rel: &str) -> String {
    root().join("fixtures").join(rel).display().to_string()
}

/// `python3 fixtures/servers/<script> args…` as one SERVER string.
pub fn py_server(script: &str, args: &str) -> String {
    format!("python3 {} {args}", fixture(&format!("servers/{script}")))
}

/// The toolgate binary with ambient CI, GitHub, runner, toolgate, colour and provider
/// variables removed.
pub fn toolgate() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("toolgate").expect("binary builds");
    for (k, _) in std::env::vars() {
        if k == "CI"
            || k.starts_with("GITHUB_")
            || k.starts_with("TOOLGATE_") && k != "TOOLGATE_THIRD_PARTY"
            || k.starts_with("RUNNER_")
            || k.starts_with("ACTIONS_")
            || k == "NO_COLOR"
            || k == "CLICOLOR_FORCE"
            || k == "CLICOLOR"
            || k.ends_with("_API_KEY")
            || k.ends_with("_BASE_URL")
            || k == "GH_TOKEN"
        {
            cmd.env_remove(k);
        }
    }
    // A model server the developer runs on its usual port never reaches a test (`init`
    // looks for one): local runtimes' addresses point at a closed port unless a test says.
    for v in [
        "OLLAMA_BASE_URL",
        "LLAMACPP_BASE_URL",
        "LMSTUDIO_BASE_URL",
        "VLLM_BASE_URL",
    ] {
        cmd.env(v, "http://127.0.0.1:9/v1");
    }
    cmd.timeout(std::time::Duration::from_secs(120));
    cmd
}

/// Where .ci/run installed the third-party servers (`TOOLGATE_THIRD_PARTY`, default
/// `.third-party`). Fails loudly when they are missing: these tests must not pass silently.
pub fn third_party(rel: &str) -> String {
    let base = std::env::var("TOOLGATE_THIRD_PARTY")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join(".third-party"));
    let p = base.join(rel);
    assert!(
        p.exists(),
        "{} is missing: run `bash .ci/run` (it installs the third-party MCP servers) first",
        p.display()
    );
    p.display().to_string()
}

/// A Streamable HTTP fixture server on a free port, killed when dropped.
pub struct HttpServer {
    child: Child,
    pub url: String,
}

impl HttpServer {
    pub fn start(script_args: &[&str]) -> Self {
        Self::start_cmd(
            Command::new("python3")
                .arg(fixture("servers/fakemcp_http.py"))
                .args(script_args),
        )
    }

    /// Starts any command that prints `listening on URL` (or a custom ready line) on stdout.
    pub fn start_cmd(cmd: &mut Command) -> Self {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start HTTP fixture");
        let out = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(out)
            .read_line(&mut line)
            .expect("read ready line");
        let url = line.trim().trim_start_matches("listening on ").to_string();
        assert!(url.starts_with("http://"), "unexpected ready line: {line}");
        HttpServer { child, url }
    }

    /// Runs a server that listens on a fixed port, waiting until the port accepts connections.
    pub fn start_on_port(cmd: &mut Command, port: u16, path: &str) -> Self {
        let child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start server");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "server on port {port} did not start"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        HttpServer {
            child,
            url: format!("http://127.0.0.1:{port}{path}"),
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free TCP port on loopback.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

pub fn read_json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("json")
}

/// Answers toolgate's description canary ("What is 21 degrees Celsius in Fahrenheit?") the
/// way a model that reads descriptions would: it calls the tool whose description mentions
/// Celsius, on either wire (OpenAI chat completions or Anthropic messages). Tests whose mock
/// endpoint stands for a describing model mount it beside their own responder.
pub struct CanaryResponder;

impl wiremock::Respond for CanaryResponder {
    fn respond(&self, req: &wiremock::Request) -> wiremock::ResponseTemplate {
        let body: serde_json::Value = serde_json::from_slice(&req.body).unwrap_or_default();
        let anthropic = req.url.path().ends_with("/messages");
        let pick = body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .find_map(|t| {
                let t = if anthropic { t } else { &t["function"] };
                t["description"]
                    .as_str()?
                    .contains("Celsius")
                    .then(|| t["name"].as_str().map(str::to_string))?
            });
        let name = pick.unwrap_or_else(|| "none".into());
        let reply = if anthropic {
            serde_json::json!({"id": "msg_canary", "type": "message", "role": "assistant", "model": "m",
                "content": [{"type": "tool_use", "id": "toolu_c", "name": name, "input": {"input": "21"}}],
                "stop_reason": "tool_use", "usage": {"input_tokens": 50, "output_tokens": 5}})
        } else {
            serde_json::json!({"id": "c", "object": "chat.completion", "model": "m",
                "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": "{\"input\": \"21\"}"}}]}}],
                "usage": {"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55}})
        };
        wiremock::ResponseTemplate::new(200).set_body_json(reply)
    }
}

/// Mounts [`CanaryResponder`] on `server` ahead of every other mock (priority 1).
pub async fn mount_canary(server: &wiremock::MockServer) {
    wiremock::Mock::given(wiremock::matchers::body_string_contains(
        "21 degrees Celsius in Fahrenheit",
    ))
    .respond_with(CanaryResponder)
    .with_priority(1)
    .mount(server)
    .await;
}

/// For a hand-rolled OpenAI-wire server: the reply [`CanaryResponder`] would give to `body`,
/// as JSON text, when it is the description canary; `None` for any other request.
pub fn canary_reply(body: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    if !text.contains("21 degrees Celsius in Fahrenheit") {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(body).ok()?;
    let name = v["tools"].as_array()?.iter().find_map(|t| {
        let f = &t["function"];
        f["description"]
            .as_str()?
            .contains("Celsius")
            .then(|| f["name"].as_str().map(str::to_string))?
    })?;
    Some(
        serde_json::json!({"model": "m", "choices": [{"message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": "{\"input\": \"21\"}"}}]}}]})
        .to_string(),
    )
}

/// Writes a snapshot of two unrelated tools (book_room, get_weather) to `path`: the smallest
/// catalog a decision and the description canary can be made against.
pub fn write_two_tool_catalog(path: &Path) {
    std::fs::write(
        path,
        serde_json::json!({"tools": [
            {"name": "book_room", "description": "Reserve a meeting room.", "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}}, "required": ["room"]}},
            {"name": "get_weather", "description": "Weather for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
        ]})
        .to_string(),
    )
    .unwrap();
}

/// The failure buckets of a run's metrics summed, and the failed trials (n − k): every failed
/// trial is in exactly one bucket.
pub fn buckets_and_failed(m: &serde_json::Value) -> (u64, u64) {
    let a = &m["attribution"];
    let buckets = [
        "description_confusion",
        "unasked_writes",
        "model_mechanics",
        "no_call",
        "false_call",
    ]
    .iter()
    .map(|k| a[*k].as_u64().unwrap_or(0))
    .sum();
    let failed = m["accuracy"]["n"].as_u64().unwrap() - m["accuracy"]["k"].as_u64().unwrap();
    (buckets, failed)
}

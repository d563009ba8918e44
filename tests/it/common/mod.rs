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

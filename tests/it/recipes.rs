//! Issue 23 point 1: the recipes in examples/ work as a new user would run them — a Node
//! server with a build step (the official TypeScript SDK), a Python server through uv (the
//! official Python SDK, settings in pyproject.toml), and an HTTP server (the official
//! `everything` server over Streamable HTTP, as a service container would serve it). Each is
//! copied out of the tree and run with its own settings file.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{HttpServer, free_port, root, third_party, toolgate};

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

fn recipe(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    copy_dir(&root().join("examples").join(name), &dir);
    (tmp, dir)
}

/// As root here the sandbox would run the server as uid 65534, which cannot read a 0700
/// temp dir; on a runner toolgate is not root and keeps its uid.
const AS_ROOT: [&str; 2] = ["--sandbox-uid", "0"];

/// PATH with the folder of `program` first (a recipe's server command names it bare).
fn on_path(program: &str) -> String {
    format!(
        "{}:{}",
        Path::new(program).parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// The tool names of `inspect --json` output, in listing order.
fn tool_names(stdout: &[u8]) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_slice(stdout).unwrap();
    v["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// The `run:` lines of the workflow in a recipe's README, before toolgate's own: the install
/// and build steps as a user copies them.
fn readme_steps(name: &str) -> Vec<String> {
    let text =
        std::fs::read_to_string(root().join("examples").join(name).join("README.md")).unwrap();
    let start = text.find("```yaml\n").expect("a workflow in the README") + 8;
    let end = start + text[start..].find("```").unwrap();
    let y: serde_json::Value = serde_yaml_ng::from_str(&text[start..end]).unwrap();
    let steps: Vec<String> = y["jobs"]["toolgate"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["run"].as_str())
        .filter(|r| !r.starts_with("toolgate"))
        .map(str::to_string)
        .collect();
    assert!(!steps.is_empty(), "{name}: no install step");
    steps
}

/// Runs `steps` in `dir` with `sh -c`, as a workflow's `run:` would.
fn run_steps(dir: &Path, steps: &[String], env: &[(&str, String)]) {
    for step in steps {
        let o = Command::new("sh")
            .current_dir(dir)
            .args(["-c", step])
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

#[test]
fn node_recipe_says_to_build_first_then_checks_the_built_server() {
    let (_tmp, dir) = recipe("node-server");
    assert!(
        dir.join("package-lock.json").is_file(),
        "`npm ci` needs the lock file"
    );
    let o = toolgate()
        .current_dir(&dir)
        .arg("inspect")
        .args(AS_ROOT)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("npm run build"), "{err}");
    // The README's steps as written: `npm ci && npm run build`, from the committed lock file.
    let steps = readme_steps("node-server");
    assert!(steps.iter().any(|s| s.contains("npm ci")), "{steps:?}");
    run_steps(&dir, &steps, &[]);
    let o = toolgate()
        .current_dir(&dir)
        .args(["inspect", "--json"])
        .args(AS_ROOT)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        tool_names(&o.stdout),
        ["add_note", "update_note", "search_notes"]
    );
    // The recipe's gate: lint clean, a first run (no lock yet) is not a failure.
    let o = toolgate()
        .current_dir(&dir)
        .args(["ci", "--no-github"])
        .args(AS_ROOT)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn python_recipe_runs_through_uv_with_settings_in_pyproject() {
    let (_tmp, dir) = recipe("python-server");
    // The project is a repository: settings are found from any folder below its top.
    std::fs::create_dir(dir.join(".git")).unwrap();
    let uv = third_party("venv/bin/uv");
    let cache = root().join(".third-party/uv-cache");
    // The README's steps as written (`uv sync --frozen`, from the committed uv.lock), with uv
    // on PATH as setup-uv leaves it; settings found from a folder below.
    let path = on_path(&uv);
    let steps = readme_steps("python-server");
    assert_eq!(steps, ["uv sync --frozen"]);
    run_steps(
        &dir,
        &steps,
        &[
            ("PATH", path.clone()),
            ("UV_CACHE_DIR", cache.display().to_string()),
        ],
    );
    let o = toolgate()
        .current_dir(dir.join("src"))
        .args(["inspect", "--json"])
        .args(AS_ROOT)
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["tools"].as_array().unwrap().len(), 2, "{v}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("pyproject.toml"),
        "the settings file is named: {err}"
    );
    // The same server started with a bare python, outside its environment.
    let o = toolgate()
        .current_dir(&dir)
        .args(["inspect", "python3 -m notes_server"])
        .args(AS_ROOT)
        .env("PYTHONPATH", dir.join("src"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("uv run"), "{err}");
}

/// The recipe's other way in: `uvx --from . notes-server` builds the project (hatchling, from
/// the registry) into uv's cached environment and starts its script, no `uv sync` first.
#[test]
fn python_recipe_runs_through_uvx_from_the_project() {
    let (_tmp, dir) = recipe("python-server");
    let uv = third_party("venv/bin/uv");
    let cache = root().join(".third-party/uv-cache");
    let path = on_path(&uv);
    let o = toolgate()
        .current_dir(&dir)
        .args(["inspect", "--json", "--connect-timeout", "300"])
        .args(["uvx --from . notes-server"])
        .args(AS_ROOT)
        // uvx builds into its cache: the sandbox lets the server write there and nowhere else.
        .args(["--sandbox-write", &cache.display().to_string()])
        .env("PATH", &path)
        .env("UV_CACHE_DIR", &cache)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let names = tool_names(&o.stdout);
    assert_eq!(names.len(), 2, "{names:?}");
    // The same tools as the `uv run` way (the recipe's server, not some other `notes-server`).
    let src = std::fs::read_to_string(dir.join("src/notes_server/__init__.py")).unwrap();
    for n in names {
        assert!(
            src.contains(&format!("def {n}(")),
            "{n} is not the recipe's tool"
        );
    }
}

#[test]
fn http_recipe_checks_a_streamable_http_service() {
    let (_tmp, dir) = recipe("http-service");
    let port = free_port();
    let _srv = HttpServer::start_on_port(
        Command::new(third_party("npm/node_modules/.bin/mcp-server-everything"))
            .arg("streamableHttp")
            .env("PORT", port.to_string()),
        port,
        "/mcp",
    );
    // The recipe's URL, on this test's port.
    let toml = std::fs::read_to_string(dir.join("toolgate.toml"))
        .unwrap()
        .replace("localhost:3001", &format!("127.0.0.1:{port}"));
    std::fs::write(dir.join("toolgate.toml"), toml).unwrap();
    let o = toolgate()
        .current_dir(&dir)
        .args(["ci", "--no-github", "--lint-fail-on", "never"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let ci = crate::common::read_json(&dir.join("toolgate-out/ci.json"));
    assert!(ci["tools"].as_u64().unwrap() > 5, "{ci:#}");
}

/// A container of the docker daemon `.ci/run` starts, removed when dropped.
struct Container(String);

impl Drop for Container {
    fn drop(&mut self) {
        let _ = Command::new("docker").args(["rm", "-f", &self.0]).output();
    }
}

/// An image with no files of its own: the container sees the host's `/usr` (read-only), so a
/// registry-installed server runs in it without pulling an image (no image registry is
/// reachable here).
fn host_usr_image() -> &'static str {
    const IMAGE: &str = "toolgate-it/host-usr:1";
    let have = Command::new("docker")
        .args(["image", "inspect", IMAGE])
        .output()
        .unwrap_or_else(|e| {
            panic!("docker is needed (.ci/run installs and starts it; set TOOLGATE_SKIP_DOCKER=1 to skip): {e}")
        });
    if !have.status.success() {
        let tmp = tempfile::tempdir().unwrap();
        let fs = tmp.path();
        for d in ["tmp", "proc", "sys", "dev", "etc", "usr"] {
            std::fs::create_dir(fs.join(d)).unwrap();
        }
        for (link, to) in [
            ("bin", "usr/bin"),
            ("lib", "usr/lib"),
            ("lib64", "usr/lib64"),
        ] {
            std::os::unix::fs::symlink(to, fs.join(link)).unwrap();
        }
        let import = format!(
            "tar -C '{}' -c . | docker import - {IMAGE} >/dev/null",
            fs.display()
        );
        let ok = Command::new("sh").args(["-c", &import]).status().unwrap();
        assert!(ok.success(), "docker import");
    }
    IMAGE
}

/// The recipe's service container, for real: the everything server runs in a Docker container
/// that starts only after toolgate does, and toolgate tries again (a service container still
/// starting) instead of failing, then gates it. The container shares the host's network: a
/// bridge would route through a private-range address, which tests here must not use (the
/// port proxy in front of a published port is stood in for in connect.rs).
#[test]
fn http_recipe_checks_a_server_in_a_docker_container() {
    if std::env::var_os("TOOLGATE_SKIP_DOCKER").is_some() {
        eprintln!("skipped: TOOLGATE_SKIP_DOCKER is set");
        return;
    }
    let image = host_usr_image();
    let (_tmp, dir) = recipe("http-service");
    let port = free_port();
    let toml = std::fs::read_to_string(dir.join("toolgate.toml"))
        .unwrap()
        .replace("localhost:3001", &format!("127.0.0.1:{port}"));
    std::fs::write(dir.join("toolgate.toml"), toml).unwrap();
    let in_dir = dir.clone();
    let gate = std::thread::spawn(move || {
        toolgate()
            .current_dir(&in_dir)
            .args(["ci", "--no-github", "--lint-fail-on", "never"])
            .output()
            .unwrap()
    });
    std::thread::sleep(std::time::Duration::from_secs(3));
    let npm = third_party("npm");
    let name = format!("toolgate-it-{port}");
    let run = Command::new("docker")
        .args(["run", "-d", "--name", &name, "--network", "host"])
        .args(["-v", "/usr:/usr:ro", "-v", &format!("{npm}:{npm}:ro")])
        .args(["-e", &format!("PORT={port}"), image, "node"])
        .arg(format!("{npm}/node_modules/.bin/mcp-server-everything"))
        .arg("streamableHttp")
        .output()
        .unwrap();
    let _container = Container(name.clone());
    assert!(
        run.status.success(),
        "docker run: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let o = gate.join().unwrap();
    let logs = Command::new("docker")
        .args(["logs", &name])
        .output()
        .unwrap();
    let logs = format!(
        "{}{}",
        String::from_utf8_lossy(&logs.stdout),
        String::from_utf8_lossy(&logs.stderr)
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}\ncontainer: {}",
        String::from_utf8_lossy(&o.stderr),
        logs
    );
    assert!(
        logs.contains(&format!("listening on port {port}")),
        "the server that answered ran in the container: {logs}"
    );
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("does not answer yet"),
        "toolgate was there before the container and waited for it"
    );
    let ci = crate::common::read_json(&dir.join("toolgate-out/ci.json"));
    assert!(ci["tools"].as_u64().unwrap() > 5, "{ci:#}");
}

//! What a server needs before it can start on a CI runner, read from the repository `toolgate
//! init` writes into (issue 43 point 2): a Node project's install and build (npm, pnpm or yarn,
//! a `build` script or a TypeScript build), a Python project's environment (uv, or pip from
//! requirements or pyproject), a Docker image built from the Dockerfile, and an HTTP server on
//! `localhost` started in the background. The steps are YAML for a job's `steps:`; when there
//! are any, toolgate runs on the runner (the `setup` action) beside what they installed: the
//! action's container has neither the project's `node_modules` nor its virtual environment.

use std::path::Path;

mod common;
mod node;
mod python;

use common::{has, safe_word};

use node::Node;
use python::{only_script, python_steps};

/// The workflow steps that make the server startable, and what was found.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Prepare {
    /// YAML steps (indented for a job's `steps:`), empty when the server needs none.
    pub steps: String,
    /// toolgate runs on the runner rather than in the action's container.
    pub on_runner: bool,
    /// One line per thing detected, said by `init` after it writes the workflow.
    pub said: Vec<String>,
    /// The server is a `docker`/`podman` command: toolgate's sandbox would refuse it the
    /// engine's socket, so the container is its confinement (`[connect] sandbox = "off"`).
    pub container_engine: bool,
    /// The command that shows the log of a server a step started in the background (run when
    /// the gate fails).
    pub log: Option<String>,
}

/// Where a background server's output goes (shown by a step when the gate fails).
pub(crate) const SERVER_LOG: &str = "toolgate-server.log";
/// The image tag a Dockerfile is built under when the server command names none.
const IMAGE: &str = "toolgate-mcp-server";
/// The image a `docker run …` command line starts (the first word after `run` that is neither
/// an option nor an option's value).
fn docker_image(words: &[String]) -> Option<String> {
    const WITH_VALUE: &[&str] = &[
        "-e",
        "--env",
        "--env-file",
        "-v",
        "--volume",
        "--mount",
        "-p",
        "--publish",
        "--name",
        "--network",
        "--entrypoint",
        "-w",
        "--workdir",
        "-u",
        "--user",
        "--platform",
        "-l",
        "--label",
        "-m",
        "--memory",
        "--cpus",
        "--pull",
        "--add-host",
        "--tmpfs",
        "--cap-add",
        "--cap-drop",
        "--security-opt",
    ];
    let run = words.iter().position(|w| w == "run")?;
    let mut it = words[run + 1..].iter();
    while let Some(w) = it.next() {
        if WITH_VALUE.contains(&w.as_str()) {
            it.next();
        } else if !w.starts_with('-') {
            return Some(w.clone());
        }
    }
    None
}

/// Steps that start a server at a `localhost` URL in the background (it listens on `port`).
fn local_http(dir: &Path, port: u16, said: &mut Vec<String>) -> String {
    let bg = |cmd: &str| {
        format!(
            "      - name: start the server in the background (toolgate retries until connect_timeout)\n        run: nohup {cmd} > {SERVER_LOG} 2>&1 &\n"
        )
    };
    if has(dir, "Dockerfile") {
        said.push(format!(
            "a Dockerfile: the workflow builds it and runs the image in the background, publishing port {port}"
        ));
        return format!(
            "      - name: build the server's image\n        run: docker build -t {IMAGE} .\n      - name: start the server\n        run: docker run -d --name {IMAGE} -p {port}:{port} {IMAGE}\n"
        );
    }
    if let Some(node) = Node::read(dir).filter(|n| n.script("start")) {
        let mut s = node.steps(dir, said);
        s.push_str(&bg(&format!("{} start", node.pm.name())));
        said.push(format!(
            "the server starts with `{} start` in the background",
            node.pm.name()
        ));
        return s;
    }
    if let (Some(script), Some(steps)) = (only_script(dir), python_steps(dir, "uv", said)) {
        let mut s = steps;
        s.push_str(&bg(&format!("uv run --no-sync {script}")));
        said.push(format!(
            "the server starts with `uv run --no-sync {script}` in the background"
        ));
        return s;
    }
    said.push(format!(
        "FILL IN: the workflow has a placeholder where your server must start in the background (listening on port {port})"
    ));
    format!(
        "      # FILL IN: start your server here, in the background, listening on port {port}:\n      - name: start the server in the background (toolgate retries until connect_timeout)\n        run: echo \"start your MCP server here (toolgate.yml)\" >&2; exit 1\n"
    )
}

/// What `server` (as given to `init`) needs in the repository at `dir` before it can start on a
/// runner.
pub(crate) fn detect(dir: &Path, server: Option<&str>) -> Prepare {
    let mut p = Prepare::default();
    let Some(server) = server.map(str::trim).filter(|s| !s.is_empty()) else {
        return p;
    };
    if server.starts_with("http://") || server.starts_with("https://") {
        url_server(dir, server, &mut p);
        return p;
    }
    let Ok(words) = shell_words::split(server) else {
        return p;
    };
    let Some(first) = words.first() else {
        return p;
    };
    if words.len() == 1 && first.ends_with(".json") {
        return p;
    }
    let program = first.rsplit('/').next().unwrap_or(first);
    let bare = first.as_str();
    if matches!(program, "docker" | "podman") {
        container_server(dir, program, &words, &mut p);
        return p;
    }
    let node_program = matches!(
        program,
        "node" | "npx" | "npm" | "pnpm" | "yarn" | "tsx" | "ts-node" | "bun" | "deno"
    ) || bare.starts_with("node_modules/")
        || bare.starts_with("./node_modules/");
    if node_program && let Some(node) = Node::read(dir) {
        p.steps = node.steps(dir, &mut p.said);
        p.on_runner = true;
        return p;
    }
    let python_program = matches!(
        program,
        "uv" | "uvx" | "python" | "python3" | "poetry" | "pipx" | "hatch" | "pdm"
    ) || bare.starts_with(".venv/")
        || bare.starts_with("./.venv/");
    if python_program && let Some(steps) = python_steps(dir, bare, &mut p.said) {
        p.steps = steps;
        p.on_runner = true;
    }
    p
}

/// A server at a URL: one on this machine starts in the workflow (in the background); a
/// remote one needs nothing built.
fn url_server(dir: &Path, server: &str, p: &mut Prepare) {
    let Ok(url) = reqwest::Url::parse(server) else {
        return;
    };
    let local = matches!(
        url.host_str(),
        Some("localhost" | "127.0.0.1" | "[::1]" | "0.0.0.0")
    );
    if local {
        let port = url.port_or_known_default().unwrap_or(80);
        p.steps = local_http(dir, port, &mut p.said);
        p.on_runner = true;
        p.log = Some(if has(dir, "Dockerfile") {
            format!("docker logs {IMAGE}")
        } else {
            format!("cat {SERVER_LOG}")
        });
    } else {
        p.said
            .push("a remote URL: nothing to build; toolgate runs in the action's container".into());
    }
}

/// A server in a container: the workflow builds the repository's Dockerfile as the image the
/// command runs, and toolgate runs on the runner, where the container engine is.
fn container_server(dir: &Path, program: &str, words: &[String], p: &mut Prepare) {
    p.container_engine = true;
    if has(dir, "Dockerfile") {
        match docker_image(words).filter(|i| safe_word(i)) {
            Some(image) => {
                p.steps = format!(
                    "      - name: build the server's image (the one your server command runs)\n        run: {program} build -t {image} .\n"
                );
                p.on_runner = true;
                p.said.push(format!(
                    "a Dockerfile: the workflow builds it as `{image}` before toolgate runs `{program} run` on the runner"
                ));
            }
            None => p.said.push(
                "a Dockerfile, but no image in the server command: build it in the workflow yourself".into(),
            ),
        }
    }
    if !p.on_runner {
        p.on_runner = true;
        p.said
            .push("toolgate runs on the runner, where the container engine is".into());
    }
}

/// The default branch of the repository at `dir`: `origin`'s HEAD, else the branch checked out,
/// else git's `init.defaultBranch`, else `main`; only a plain branch name is used.
pub(crate) fn default_branch(dir: &Path) -> (String, &'static str) {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let ok = |b: &String| {
        b.len() <= 100
            && !b.starts_with('-')
            && b.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c))
    };
    let found = [
        (
            git(&["symbolic-ref", "--short", "refs/remotes/origin/HEAD"])
                .map(|b| b.trim_start_matches("origin/").to_string()),
            "the remote's default branch",
        ),
        (
            git(&["symbolic-ref", "--short", "HEAD"]),
            "the branch checked out",
        ),
        (
            git(&["config", "init.defaultBranch"]),
            "git's init.defaultBranch",
        ),
    ];
    found
        .into_iter()
        .find_map(|(b, why)| b.filter(ok).map(|b| (b, why)))
        .unwrap_or_else(|| ("main".into(), "no git repository: assumed"))
}

#[cfg(test)]
mod tests;

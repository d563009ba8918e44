//! A Python project's environment: uv (a `uv.lock`, or a `uv`/`uvx` server command) with its
//! cache, else pip from `requirements.txt` or `pyproject.toml` on setup-python's interpreter (or
//! into `.venv` when the server starts from there).

use std::path::Path;

use super::common::{SETUP_PYTHON, SETUP_UV, has, read, safe_word};

/// A Python project: uv (a uv.lock, or a uv/uvx server command) or pip. `program` is the
/// server command's first word as given.
pub(super) fn python_steps(dir: &Path, program: &str, said: &mut Vec<String>) -> Option<String> {
    let pyproject = read(dir, "pyproject.toml");
    let requirements = has(dir, "requirements.txt");
    let name = program.rsplit('/').next().unwrap_or(program);
    let uv = has(dir, "uv.lock") || matches!(name, "uv" | "uvx");
    if pyproject.is_none() && !requirements {
        return None;
    }
    if uv && pyproject.is_some() {
        let frozen = has(dir, "uv.lock");
        let sync = if frozen {
            "uv sync --frozen"
        } else {
            "uv sync"
        };
        if !frozen {
            said.push(
                "no uv.lock: the workflow runs `uv sync`; commit uv.lock (`uv lock`) so CI installs what you tested"
                    .into(),
            );
        }
        said.push("a uv project: the workflow makes its environment on the runner with astral-sh/setup-uv".into());
        return Some(format!(
            "      - uses: {SETUP_UV}\n        with:\n          enable-cache: true\n      - name: the server's environment\n        run: {sync}\n"
        ));
    }
    let mut s = format!("      - uses: {SETUP_PYTHON}\n        with:\n");
    if has(dir, ".python-version") {
        s.push_str("          python-version-file: .python-version\n");
    } else {
        s.push_str("          python-version: \"3.12\"\n");
    }
    let (dep_file, what) = if requirements {
        ("requirements.txt", "-r requirements.txt")
    } else {
        ("pyproject.toml", ".")
    };
    s.push_str(&format!(
        "          cache: pip\n          cache-dependency-path: {dep_file}\n"
    ));
    // A server started from .venv/bin gets that environment; any other from the interpreter
    // setup-python put on PATH.
    let install = if program.starts_with(".venv/") || program.starts_with("./.venv/") {
        format!("python -m venv .venv && .venv/bin/pip install {what}")
    } else {
        format!("pip install {what}")
    };
    s.push_str(&format!(
        "      - name: the server's environment\n        run: {install}\n"
    ));
    said.push(format!(
        "a Python project ({dep_file}): the workflow installs it on the runner with actions/setup-python"
    ));
    Some(s)
}

/// The one `[project.scripts]` entry of a pyproject, if there is exactly one.
pub(super) fn only_script(dir: &Path) -> Option<String> {
    let t: toml::Table = read(dir, "pyproject.toml")?.parse().ok()?;
    let scripts = t.get("project")?.get("scripts")?.as_table()?;
    match scripts.keys().collect::<Vec<_>>()[..] {
        [one] if safe_word(one) => Some(one.clone()),
        _ => None,
    }
}

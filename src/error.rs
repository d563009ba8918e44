//! Typed errors of the stages a user can fix, each with a `help:` line that says what to do.
//! main walks an error's chain, prints the message once and the first help it finds, and
//! exits 2.

use std::path::PathBuf;

/// Reaching the server.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConnectError {
    #[error(
        "no SERVER given: pass a command line, an http(s) URL or a snapshot file, or set `server` in toolgate.toml"
    )]
    NoServer,
    #[error("{message}")]
    Failed { message: String, help: String },
}

/// A task file.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TaskFileError {
    #[error("{}: {count} malformed task line(s):\n  {listing}", path.display())]
    Malformed {
        path: PathBuf,
        /// The first bad line.
        line: usize,
        count: usize,
        listing: String,
    },
    #[error("{}:{line}: task id `{id}` is already used on line {first}", path.display())]
    DuplicateId {
        path: PathBuf,
        line: usize,
        id: String,
        first: usize,
    },
    #[error("{} has no tasks", path.display())]
    Empty { path: PathBuf },
}

/// toolgate.toml.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfigError {
    #[error("{}: unknown key `{key}`{}", path.display(), line.map(|l| format!(" (line {l})")).unwrap_or_default())]
    UnknownKey {
        path: PathBuf,
        key: String,
        line: Option<usize>,
        expected: String,
    },
    #[error("{} is not a valid toolgate config: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
}

/// An LLM provider.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ProviderError {
    #[error("{provider}: no API key (set {var})")]
    MissingKey { provider: String, var: String },
}

impl ConnectError {
    fn help(&self) -> String {
        match self {
            ConnectError::NoServer => "e.g. `toolgate inspect \"npx -y @modelcontextprotocol/server-memory\"`, `toolgate inspect https://host/mcp`, or `toolgate inspect snapshot.json`".into(),
            ConnectError::Failed { help, .. } => help.clone(),
        }
    }
}

impl TaskFileError {
    fn help(&self) -> String {
        match self {
            TaskFileError::Malformed { path, line, .. } => format!(
                "fix line {line} of {} (one JSON object per line: id, request, kind, expected; `toolgate validate` lists every problem)",
                path.display()
            ),
            TaskFileError::DuplicateId { line, .. } => {
                format!("give the task on line {line} an id of its own")
            }
            TaskFileError::Empty { .. } => {
                "write tasks with `toolgate generate SERVER -o tasks.jsonl`".into()
            }
        }
    }
}

impl ConfigError {
    fn help(&self) -> String {
        match self {
            ConfigError::UnknownKey { key, expected, .. } => format!(
                "remove or rename `{key}`{}; `toolgate init` writes a commented example",
                if expected.is_empty() {
                    String::new()
                } else {
                    format!(" (expected {expected})")
                }
            ),
            ConfigError::Invalid { path, .. } => format!(
                "fix {} (TOML); `toolgate init` writes a commented example",
                path.display()
            ),
        }
    }
}

impl ProviderError {
    fn help(&self) -> String {
        match self {
            ProviderError::MissingKey { var, .. } => format!(
                "set {var} in the environment (or point --base-url at a gateway that needs no key)"
            ),
        }
    }
}

/// The help line for the first typed error in `e`'s chain.
pub(crate) fn help_for(e: &anyhow::Error) -> Option<String> {
    e.chain().find_map(|c| {
        if let Some(x) = c.downcast_ref::<ConnectError>() {
            Some(x.help())
        } else if let Some(x) = c.downcast_ref::<TaskFileError>() {
            Some(x.help())
        } else if let Some(x) = c.downcast_ref::<ConfigError>() {
            Some(x.help())
        } else {
            c.downcast_ref::<ProviderError>().map(ProviderError::help)
        }
    })
}

/// A help line for a connection failure, from what went wrong and what was started.
pub(crate) fn connect_help(message: &str, server: &str, connect_timeout_secs: f64) -> String {
    let l = message.to_lowercase();
    let lower_server = server.to_ascii_lowercase();
    if lower_server.starts_with("http://") || lower_server.starts_with("https://") {
        return url_help(&l, server, connect_timeout_secs);
    }
    if l.contains("cannot find module") || l.contains("err_module_not_found") {
        return format!(
            "the server's code or a package it imports is missing: install its dependencies (`npm ci`) and build it (`npm run build`) before toolgate starts `{server}`; in the GitHub Action's container your node_modules and build output do not exist, so run toolgate on the runner with the setup action (examples/node-server)"
        );
    }
    if l.contains("modulenotfounderror") || l.contains("no module named") {
        return "a Python module the server imports is missing: start it through its environment (`uv run …`, `uvx --from . …`, or the venv's python) rather than a bare `python`; a venv made on the runner does not exist inside the GitHub Action's container (examples/python-server)".to_string();
    }
    if l.contains("within") || l.contains("timed out") || l.contains("timeout") {
        format!(
            "raise --connect-timeout (now {connect_timeout_secs} s) if the server is slow to start, or run `{server}` by itself to see whether it starts"
        )
    } else if l.contains("could not start") && l.contains("permission denied") {
        format!(
            "the sandbox runs `{server}` with less than you have: `--sandbox-read PATH` lets it read one more file or folder, `--sandbox-uid 0` keeps root's uid (still without capabilities)"
        )
    } else if l.contains("no such file") || l.contains("not found") || l.contains("could not start")
    {
        format!("check that the program of `{server}` is installed and on PATH")
    } else if l.contains("connection refused") || l.contains("error sending request") {
        format!("check that a server is listening at {server}")
    } else {
        format!(
            "run `{server}` by itself to see its output; toolgate only sends initialize and tools/list"
        )
    }
}

/// Help for a URL server, by what the endpoint answered.
fn url_help(l: &str, server: &str, connect_timeout_secs: f64) -> String {
    let url = reqwest::Url::parse(server).ok();
    let path = url
        .as_ref()
        .map(|u| u.path().to_string())
        .unwrap_or_default();
    let with_mcp = || match &url {
        Some(u) if !path.trim_end_matches('/').ends_with("/mcp") => {
            format!(
                " (most servers serve it at `{}/mcp`)",
                u.origin().ascii_serialization()
            )
        }
        _ => String::new(),
    };
    if l.contains("http 404") {
        format!(
            "nothing speaks MCP at this path: is the endpoint `/mcp`?{}",
            with_mcp()
        )
    } else if l.contains("http 405") {
        format!(
            "this path does not take POST, which Streamable HTTP needs: the wrong path{}, or a legacy HTTP+SSE server (`/sse`) that toolgate does not speak",
            with_mcp()
        )
    } else if l.contains("http 401") || l.contains("http 403") {
        "the server wants credentials: pass --bearer-env VAR (a variable holding the token) or --header 'Name: value'".into()
    } else if l.contains("http 406") || l.contains("http 415") {
        "the server refused the request's Accept or Content-Type (toolgate sends Accept: application/json, text/event-stream): is this a Streamable HTTP endpoint?".into()
    } else if l.contains("http 5") {
        "the server failed while answering initialize: see its own logs".into()
    } else if l.contains("connection refused") || l.contains("error sending request") {
        format!(
            "nothing listens at {server}: is the server up, and on that port? (in a container, `localhost` is the container itself: use the service container's name)"
        )
    } else if l.contains("within") || l.contains("timed out") || l.contains("timeout") {
        format!(
            "the server did not answer in time: raise --connect-timeout (now {connect_timeout_secs} s), or check {server} with curl"
        )
    } else {
        format!("check {server} with `curl -i -X POST` and an MCP initialize request")
    }
}

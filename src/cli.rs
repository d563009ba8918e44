//! Command-line interface (clap derive). Shared flag groups are flattened into each command.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "toolgate",
    version,
    about = "Can agents actually use your MCP server's tools? Pin, lint and gate them in CI.",
    after_help = "SERVER is a command line run over stdio (\"python3 server.py\", \"npx -y @scope/server .\"), \
an http(s):// URL spoken to over Streamable HTTP, or a snapshot .json file.\n\
Exit codes: 0 pass, 1 the gate failed, 2 toolgate could not do its job."
)]
pub struct Cli {
    /// Config file (default: ./toolgate.toml when present).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Show a server's tools, their token cost and lint findings.
    Inspect(InspectArgs),
    /// Write toolgate.lock (hashes and reviewed definitions); `--check` verifies it.
    Pin(PinArgs),
    /// Verify the server still matches toolgate.lock (same as `pin --check`).
    Verify(PinArgs),
    /// Lint a server's tool definitions.
    Lint(LintArgs),
    /// Print one lint rule's documentation.
    Rule {
        /// Rule code (TG005) or slug (look-alike-tools).
        id: String,
    },
    /// List every lint rule; `--write-docs DIR` regenerates docs/rules/.
    Rules {
        #[arg(long, value_name = "DIR")]
        write_docs: Option<PathBuf>,
    },
}

#[derive(Args, Debug, Clone)]
pub struct ServerArgs {
    /// The server: a command line, an http(s) URL, or a snapshot .json file.
    #[arg(value_name = "SERVER")]
    pub server: Option<String>,
    /// More words of the server's command line (after `--`).
    #[arg(last = true, value_name = "ARGS")]
    pub server_args: Vec<String>,
    /// Extra HTTP header for URL servers, `'Name: value'` (repeatable).
    #[arg(long = "header", short = 'H', value_name = "K: V")]
    pub headers: Vec<String>,
    /// Environment variable holding a bearer token for URL servers (the value is never printed).
    #[arg(long, value_name = "VAR")]
    pub bearer_env: Option<String>,
    /// Seconds allowed for start-up and the MCP handshake.
    #[arg(long, value_name = "SECS")]
    pub connect_timeout: Option<f64>,
    /// Seconds allowed for each tools/list page.
    #[arg(long, value_name = "SECS")]
    pub request_timeout: Option<f64>,
    /// Most tools/list pages to read.
    #[arg(long, value_name = "N")]
    pub max_pages: Option<usize>,
    /// Let the server process see this credential variable, which toolgate strips by default
    /// (e.g. GITHUB_TOKEN) (repeatable).
    #[arg(long, value_name = "VAR")]
    pub pass_env: Vec<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Terminal,
    Json,
    Sarif,
    Github,
    Markdown,
}

#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Format printed on stdout.
    #[arg(long, value_enum, default_value_t = Format::Terminal)]
    pub format: Format,
    /// Also write the JSON report (v1 schema) to FILE.
    #[arg(long, value_name = "FILE")]
    pub output_json: Option<PathBuf>,
    /// Also write a SARIF 2.1.0 log to FILE.
    #[arg(long, value_name = "FILE")]
    pub output_sarif: Option<PathBuf>,
    /// Also write a Markdown report to FILE.
    #[arg(long, value_name = "FILE")]
    pub output_markdown: Option<PathBuf>,
    /// Point findings at this JSON file's lines (default: the snapshot read, else the lock file).
    #[arg(long, value_name = "FILE")]
    pub locate_in: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct InspectArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Save the tools/list result (all pages merged) as a snapshot file.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Print the catalog and findings as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PinArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Lock file to write or check.
    #[arg(long, value_name = "FILE")]
    pub lock: Option<PathBuf>,
    /// Do not write: exit 1 and show what changed when the server differs from the lock.
    #[arg(long)]
    pub check: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct LintArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Fail (exit 1) on warnings too, not only errors.
    #[arg(long)]
    pub strict: bool,
}

//! Command-line interface (clap derive). Shared flag groups are flattened into each command.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub use crate::gate::{LintFailOn, LockCheck};
pub use crate::report::Format;
pub use crate::tasks::SplitArg;

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
    #[arg(long, global = true, env = "TOOLGATE_CONFIG", value_name = "FILE")]
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
    /// Generate labelled requests (direct, near-miss, no-tool) from the schemas, seeded.
    Generate(GenerateArgs),
    /// Check a task file against a server's catalog (unknown tools, bad arguments, leakage,
    /// duplicates, coverage, malformed lines).
    Validate(ValidateArgs),
    /// Run models over a task file and score them: tool choice, arguments, intervals.
    Run(Box<RunArgs>),
    /// Re-render the reports of a run directory.
    Report(ReportArgs),
    /// Compare two runs on the tasks they share, with exact paired tests.
    Compare(CompareArgs),
    /// The whole gate in one process, for CI: connect, check the lock, lint, evaluate, compare
    /// with a base, write every report, and (on GitHub) the job summary, step outputs,
    /// annotations and one pull-request comment. Every flag can also be given as an
    /// environment variable (shown below) or in toolgate.toml's [ci] table.
    Ci(Box<CiArgs>),
    /// Write a commented starter toolgate.toml and a GitHub workflow that runs `toolgate ci`.
    Init(InitArgs),
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

#[derive(Args, Debug)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The task file (JSONL).
    #[arg(short = 't', long, value_name = "FILE")]
    pub tasks: std::path::PathBuf,
    /// Fail when a tool has fewer tasks than this (0: no minimum).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub min_per_tool: usize,
    /// Print problems as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug, Clone)]
pub struct GateArgs {
    /// Also write an SVG badge of the (first) model's tool accuracy, with provenance.
    #[arg(long, value_name = "FILE")]
    pub badge: Option<std::path::PathBuf>,
    /// Fail (exit 1) when a model's overall tool accuracy is below this (0–1).
    #[arg(long, value_name = "RATE")]
    pub fail_under: Option<f64>,
    /// Fail (exit 1) when any tool's accuracy (recall on its tasks) is below this (0–1).
    #[arg(long, value_name = "RATE")]
    pub min_tool_accuracy: Option<f64>,
    /// A run whose share of errored decisions is over this cannot pass: exit 2 (0–1).
    #[arg(long, default_value_t = 0.05, value_name = "RATE")]
    pub max_error_rate: f64,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The task file (JSONL). On --resume, defaults to the run's own.
    #[arg(short = 't', long, value_name = "FILE")]
    pub tasks: Option<std::path::PathBuf>,
    /// Model spec (repeatable): `bm25`, `bm25:<min_score>`.
    #[arg(short = 'm', long = "model", value_name = "SPEC")]
    pub models: Vec<String>,
    /// Trials per task for models that are not deterministic.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub trials: u32,
    /// Which tasks to run.
    #[arg(long, value_enum, default_value_t = SplitArg::All)]
    pub split: SplitArg,
    /// Run directory to create (default: runs/<time>-<label>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
    /// Label in the run directory's name.
    #[arg(long, value_name = "TEXT")]
    pub label: Option<String>,
    /// Continue an interrupted run in DIR without repeating or losing a task.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<std::path::PathBuf>,
    /// Requests in flight at once, per provider.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub concurrency: usize,
    /// Base URL for the (single) LLM provider of the run: a proxy, gateway or local server.
    /// Default: the provider's own variable (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, …) or URL.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// API key for the (single) LLM provider of the run. Prefer the provider's own variable
    /// (OPENAI_API_KEY, ANTHROPIC_API_KEY, …): a flag can end up in shell history.
    #[arg(long, value_name = "KEY", hide_env_values = true)]
    pub api_key: Option<String>,
    /// Seconds to wait for one model reply.
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    pub timeout: f64,
    /// Retries of a request that failed with 429, 5xx or a timeout.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub retries: u32,
    /// Stop after this many provider calls; the run is marked partial.
    #[arg(long, value_name = "N")]
    pub max_calls: Option<usize>,
    /// Do not read or write the response cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Response cache folder.
    #[arg(long, default_value = ".toolgate-cache", value_name = "DIR")]
    pub cache_dir: std::path::PathBuf,
    /// Calls a model may make per task (each answered with a synthetic result built from the
    /// tool's outputSchema); a task passes if the intended call is made at any step. The
    /// confusion matrix keeps scoring the first call.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub max_steps: u32,
    /// Measure a description change without touching the server: `TOOL:new description`
    /// re-runs that tool's tasks (expected or lure) against a catalog where only that
    /// description is patched, and compares paired trials with an exact McNemar test.
    #[arg(long, value_name = "TOOL:TEXT")]
    pub mutate: Vec<String>,
    /// Ask a model to rewrite the description of each failing tool (at most 25 words), measure
    /// every proposal on the dev split, accept one only when it is significantly better after a
    /// Bonferroni correction across all proposals, then confirm it on the held-out split.
    #[arg(long)]
    pub fix: bool,
    /// The model that proposes rewrites (`<provider>:<model>`; default: the first LLM of -m).
    #[arg(long, value_name = "SPEC")]
    pub fixer: Option<String>,
    /// Only propose rewrites for these tools (repeatable; default: the most failing tools).
    #[arg(long, value_name = "TOOL")]
    pub fix_tool: Vec<String>,
    /// Most tools to propose rewrites for.
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub fix_max: usize,
    /// Seed passed to APIs that accept one.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub gate: GateArgs,
    /// Format printed on stdout.
    #[arg(long, value_enum, default_value_t = Format::Terminal)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A run directory.
    pub run: std::path::PathBuf,
    /// Format printed on stdout.
    #[arg(long, value_enum, default_value_t = Format::Terminal)]
    pub format: Format,
    #[command(flatten)]
    pub gate: GateArgs,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The base run directory (before).
    pub base: std::path::PathBuf,
    /// The new run directory (after).
    pub head: std::path::PathBuf,
    /// Format printed on stdout (terminal or markdown).
    #[arg(long, value_enum, default_value_t = Format::Terminal)]
    pub format: Format,
    /// Significance level for the corrected tests.
    #[arg(long, default_value_t = 0.05, value_name = "ALPHA")]
    pub alpha: f64,
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Where to write the tasks (JSONL).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: std::path::PathBuf,
    /// Direct requests per tool.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub per_tool: usize,
    /// Near-miss requests per tool (aimed at its most similar sibling).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub near_miss: usize,
    /// Requests no tool serves.
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub no_tool: usize,
    /// Seed: the same seed gives byte-identical tasks.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seed: u64,
    /// Share of tasks marked `heldout` (0–1).
    #[arg(long, default_value_t = 0.0, value_name = "FRACTION")]
    pub heldout: f64,
    /// Generate tasks for this tool only (repeatable); the whole catalog is still offered.
    #[arg(long, value_name = "TOOL")]
    pub only: Vec<String>,
    /// Write the requests with an LLM (`<provider>:<model>`) instead of templates; arguments
    /// still come from the seeded sampler, and a second pass checks leakage and solvability.
    #[arg(long, value_name = "SPEC")]
    pub generator: Option<String>,
    /// Base URL for the generator's provider.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Response cache folder (the writer's replies are cached like a run's).
    #[arg(long, default_value = ".toolgate-cache", value_name = "DIR")]
    pub cache_dir: std::path::PathBuf,
    /// Do not read or write the response cache.
    #[arg(long)]
    pub no_cache: bool,
}

/// `toolgate ci`. Options are `Option`s so that toolgate.toml's `[ci]` can fill what a flag
/// leaves out; an empty `TOOLGATE_*` variable counts as unset.
#[derive(Args, Debug, Default)]
pub struct CiArgs {
    /// The server: a command line, an http(s) URL, or a snapshot .json file.
    #[arg(long, env = "TOOLGATE_SERVER", value_name = "SERVER")]
    pub server: Option<String>,
    /// Extra HTTP header for URL servers, `'Name: value'` (repeatable; one per line in the variable).
    #[arg(
        long = "header",
        short = 'H',
        env = "TOOLGATE_HEADERS",
        value_delimiter = '\n',
        value_name = "K: V",
        hide_env_values = true
    )]
    pub headers: Vec<String>,
    /// Environment variable holding a bearer token for URL servers (the value is never printed).
    #[arg(long, env = "TOOLGATE_BEARER_ENV", value_name = "VAR")]
    pub bearer_env: Option<String>,
    /// Seconds allowed for start-up and the MCP handshake.
    #[arg(long, env = "TOOLGATE_CONNECT_TIMEOUT", value_name = "SECS")]
    pub connect_timeout: Option<f64>,
    /// Seconds allowed for each tools/list page.
    #[arg(long, env = "TOOLGATE_REQUEST_TIMEOUT", value_name = "SECS")]
    pub request_timeout: Option<f64>,
    /// Credential variables the server process may see (comma-separated or repeated).
    #[arg(
        long,
        env = "TOOLGATE_PASS_ENV",
        value_delimiter = ',',
        value_name = "VAR"
    )]
    pub pass_env: Vec<String>,
    /// Lock file to check (default: toolgate.lock).
    #[arg(long, env = "TOOLGATE_LOCK", value_name = "FILE")]
    pub lock: Option<PathBuf>,
    /// What a lock mismatch does [default: fail]. A missing lock file is reported, never fatal.
    #[arg(long, env = "TOOLGATE_LOCK_CHECK", value_enum)]
    pub lock_check: Option<LockCheck>,
    /// Lint findings at or above this severity fail the gate [default: error].
    #[arg(long, env = "TOOLGATE_LINT_FAIL_ON", value_enum)]
    pub lint_fail_on: Option<LintFailOn>,
    /// Task file (JSONL). Without one, tasks are generated from the catalog (templates, seed 1):
    /// fine for a first look, but commit a task file for comparable before/after numbers.
    #[arg(short = 't', long, env = "TOOLGATE_TASKS", value_name = "FILE")]
    pub tasks: Option<PathBuf>,
    /// Model spec (repeatable or comma-separated) [default: bm25].
    #[arg(
        short = 'm',
        long = "model",
        env = "TOOLGATE_MODEL",
        value_delimiter = ',',
        value_name = "SPEC"
    )]
    pub models: Vec<String>,
    /// Trials per task for models that are not deterministic [default: 1].
    #[arg(long, env = "TOOLGATE_TRIALS", value_name = "N")]
    pub trials: Option<u32>,
    /// Which tasks to run [default: all].
    #[arg(long, env = "TOOLGATE_SPLIT", value_enum)]
    pub split: Option<SplitArg>,
    /// Fail when a model's overall tool accuracy is below this (0–1).
    #[arg(long, env = "TOOLGATE_FAIL_UNDER", value_name = "RATE")]
    pub fail_under: Option<f64>,
    /// Fail when any tool's accuracy is below this (0–1).
    #[arg(long, env = "TOOLGATE_MIN_TOOL_ACCURACY", value_name = "RATE")]
    pub min_tool_accuracy: Option<f64>,
    /// Output directory for every report [default: toolgate-out].
    #[arg(long, env = "TOOLGATE_OUT", value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also write the SVG badge here (it is always written to the output directory).
    #[arg(long, env = "TOOLGATE_BADGE", value_name = "FILE")]
    pub badge: Option<PathBuf>,
    /// Compare with this base: a baseline file (from --write-baseline) or a base output
    /// directory (e.g. the base branch's downloaded artifact, or a `toolgate run` directory).
    #[arg(long, env = "TOOLGATE_BASE", value_name = "PATH")]
    pub base: Option<PathBuf>,
    /// Also write this run as a baseline file to commit (refresh it on the default branch).
    #[arg(long, env = "TOOLGATE_WRITE_BASELINE", value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Post or update the pull-request comment (GitHub only; needs GITHUB_TOKEN with
    /// pull-requests: write) [default: false].
    #[arg(long, env = "TOOLGATE_COMMENT", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub comment: Option<bool>,
    /// Tells several toolgate comments on one pull request apart (e.g. one per server).
    #[arg(long, env = "TOOLGATE_COMMENT_ID", value_name = "KEY")]
    pub comment_id: Option<String>,
    /// Login whose comments toolgate may edit [default: the token's user, else github-actions[bot]].
    #[arg(long, env = "TOOLGATE_COMMENT_AUTHOR", value_name = "LOGIN")]
    pub comment_author: Option<String>,
    /// Significance level of the paired tests against the base [default: 0.05].
    #[arg(long, env = "TOOLGATE_ALPHA", value_name = "ALPHA")]
    pub alpha: Option<f64>,
    /// Stop after this many provider calls; the run is marked partial and cannot pass.
    #[arg(long, env = "TOOLGATE_MAX_CALLS", value_name = "N")]
    pub max_calls: Option<usize>,
    /// Calls a model may make per task [default: 1].
    #[arg(long, env = "TOOLGATE_MAX_STEPS", value_name = "N")]
    pub max_steps: Option<u32>,
    /// Requests in flight at once, per provider [default: 4].
    #[arg(long, env = "TOOLGATE_CONCURRENCY", value_name = "N")]
    pub concurrency: Option<usize>,
    /// Seconds to wait for one model reply [default: 60].
    #[arg(long, env = "TOOLGATE_TIMEOUT", value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Base URL for the (single) LLM provider; its key comes from the provider's own variable.
    #[arg(long, env = "TOOLGATE_BASE_URL", value_name = "URL")]
    pub base_url: Option<String>,
    /// Seed passed to APIs that accept one.
    #[arg(long, env = "TOOLGATE_SEED", value_name = "N")]
    pub seed: Option<u64>,
    /// A run whose share of errored decisions (connection refused, HTTP errors, malformed
    /// replies) is over this cannot pass: exit 2 [default: 0.05].
    #[arg(long, env = "TOOLGATE_MAX_ERROR_RATE", value_name = "RATE")]
    pub max_error_rate: Option<f64>,
    /// Fail when the exact paired test against the base says the change is worse
    /// [default: true].
    #[arg(long, env = "TOOLGATE_FAIL_ON_REGRESSION", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub fail_on_regression: Option<bool>,
    /// Fail when tool accuracy drops by more than this against the base (0–1, e.g. 0.05 for
    /// 5 points), significant or not.
    #[arg(long, env = "TOOLGATE_MAX_DROP", value_name = "RATE")]
    pub max_drop: Option<f64>,
    /// Fail on a significant per-tool regression too (otherwise it is reported) [default: false].
    #[arg(long, env = "TOOLGATE_FAIL_ON_TOOL_REGRESSION", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub fail_on_tool_regression: Option<bool>,
    /// Do not read or write the response cache.
    #[arg(long, env = "TOOLGATE_NO_CACHE", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub no_cache: Option<bool>,
    /// Continue an interrupted evaluation in the output directory instead of starting over.
    #[arg(long, env = "TOOLGATE_RESUME", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub resume: Option<bool>,
    /// Ignore the GitHub Actions environment (no summary, outputs, annotations or comment).
    #[arg(long, env = "TOOLGATE_NO_GITHUB", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub no_github: Option<bool>,
    /// Format printed on stdout.
    #[arg(long, value_enum, default_value_t = Format::Terminal, env = "TOOLGATE_FORMAT")]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct InitArgs {
    /// Directory to write into.
    #[arg(default_value = ".", value_name = "DIR")]
    pub dir: PathBuf,
    /// The server to put in toolgate.toml.
    #[arg(long, value_name = "SERVER")]
    pub server: Option<String>,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
}

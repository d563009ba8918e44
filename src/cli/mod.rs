//! Command-line interface (clap derive). Shared flag groups are flattened into each command.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub use crate::report::Format;
pub(crate) use crate::report::style::ColorWhen;

mod ci;
mod compare;
mod contract;
pub(crate) mod curve;
mod generate;
pub(crate) mod help;
mod init;
pub(crate) use crate::tasks::SplitArg;
pub(crate) use ci::CiArgs;
pub(crate) use compare::{CompareArgs, MergeArgs};
pub(crate) use contract::ContractArgs;
pub(crate) use generate::GenerateArgs;
pub(crate) use init::InitArgs;

#[derive(Parser, Debug)]
#[command(
    name = "toolgate",
    version,
    about = "Can agents actually use your MCP server's tools? Pin, lint and gate them in CI.",
    after_help = "SERVER is a command line run over stdio (\"python3 server.py\", \"npx -y @scope/server .\"), \
an http(s):// URL spoken to over Streamable HTTP, or a snapshot .json file; with --mcp-config FILE, \
the name of a server in that MCP client config (none: every server, as one belt).\n\
Exit codes: 0 pass, 1 the gate failed, 2 toolgate could not do its job."
)]
pub struct Cli {
    /// Config file (default: ./toolgate.toml when present).
    #[arg(long, global = true, env = "TOOLGATE_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Colour on stdout (auto: on a terminal, off with NO_COLOR, on with CLICOLOR_FORCE).
    #[arg(long, global = true, value_enum, default_value_t, value_name = "WHEN")]
    pub color: ColorWhen,
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
    /// Mark a task file reviewed: every task (or the named ones) becomes `approved`, so the
    /// suite gives a headline accuracy, a threshold gate and a coloured badge.
    Approve(ApproveArgs),
    /// Run models over a task file and score them: tool choice, arguments, intervals.
    Run(Box<RunArgs>),
    /// Re-render the reports of a run directory.
    Report(ReportArgs),
    /// Compare two runs on the tasks they share, with exact paired tests.
    Compare(CompareArgs),
    /// Join the run directories of `run --shard K/N` (every shard 1..N once) into one run that
    /// scores exactly as an unsharded run would.
    Merge(MergeArgs),
    /// The whole gate in one process, for CI: connect, check the lock, lint, evaluate, compare
    /// with a base, write every report, and (on GitHub) the job summary, step outputs,
    /// annotations and one pull-request comment. Every flag can also be given as an
    /// environment variable (shown below) or in toolgate.toml's [ci] table.
    Ci(Box<CiArgs>),
    /// Opt-in contract tests, the only command that calls tools: in the sandbox, each
    /// read-only tool (`readOnlyHint: true`; others only with --allow-writes) gets
    /// schema-invalid arguments (a readable isError result is expected) and sampled valid
    /// ones (structuredContent is checked against the outputSchema).
    Contract(ContractArgs),
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
    /// The server: a command line, an http(s) URL, or a snapshot .json file. With
    /// --mcp-config, the name of one server in that file.
    #[arg(value_name = "SERVER")]
    pub server: Option<String>,
    /// More words of the server's command line (after `--`).
    #[arg(last = true, value_name = "ARGS")]
    pub server_args: Vec<String>,
    /// Servers from an MCP client config (Claude Desktop, .mcp.json, Cursor, VS Code): SERVER names
    /// one; without it, inspect/lint/pin read them all as one belt (tools keyed server/tool).
    #[arg(long, value_name = "FILE")]
    pub mcp_config: Option<PathBuf>,
    /// How to connect (`[connect]` in toolgate.toml gives the same settings).
    #[command(flatten)]
    pub connect: crate::config::ConnectConfig,
}

#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Format printed on stdout.
    #[arg(long, value_enum, default_value_t = Format::Terminal)]
    pub format: Format,
    /// List every info finding in the terminal and in annotations (`--format github`); by
    /// default they are folded to one line per rule (JSON, SARIF and Markdown keep each one).
    #[arg(long)]
    pub all_findings: bool,
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
    /// A sentence-embedding model folder (`model.safetensors` + `tokenizer.json`, as for
    /// `-m embed:<dir>`): look-alike pairs (TG005/TG006) also need an embedding cosine of at
    /// least `[lint] embed_floor` (0.7). Same as `[lint] embed_model`.
    #[arg(long, value_name = "DIR")]
    pub embed: Option<String>,
    /// Only these rules (codes or slugs, comma-separated or repeated), e.g. `TG005,TG018`.
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    pub select: Vec<String>,
    /// Not these rules (codes or slugs, comma-separated or repeated).
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Print a `[[lint.accept]]` entry for every warning and error found, to paste into
    /// toolgate.toml with a reason each (instead of the report).
    #[arg(long)]
    pub accept_stubs: bool,
    /// Also check the documented limits of these hosts (TG030; ids: `toolgate rule TG030`),
    /// comma-separated or repeated. Same as `[lint] hosts`.
    #[arg(long = "host", value_name = "HOSTS", value_delimiter = ',')]
    pub hosts: Vec<String>,
    /// The server's name as hosts put it in tool-name prefixes (`mcp__<name>__<tool>`), i.e.
    /// its key in users' MCP configs [default: the server's own name]. Same as `[lint]
    /// host_server_name`.
    #[arg(long, value_name = "NAME")]
    pub host_server_name: Option<String>,
}

#[derive(Args, Debug)]
pub struct ApproveArgs {
    /// The task file (JSONL), rewritten in place (atomically).
    pub tasks: std::path::PathBuf,
    /// Only these task ids (comma-separated or repeated; default: every pending task).
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub only: Vec<String>,
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
    /// Also write an SVG badge of the (first) model's score, with provenance.
    #[arg(long, value_name = "FILE")]
    pub badge: Option<std::path::PathBuf>,
    /// Fail (exit 1) when a model's overall score (0–1) is below this.
    #[arg(long, value_name = "RATE")]
    pub fail_under: Option<f64>,
    /// Fail (exit 1) when any tool's accuracy (recall on its tasks) is below this (0–1).
    #[arg(long, value_name = "RATE")]
    pub min_tool_accuracy: Option<f64>,
    /// A run whose share of errored decisions is over this cannot pass: exit 2 (0–1).
    #[arg(long, default_value_t = 0.05, value_name = "RATE")]
    pub max_error_rate: f64,
    /// Fail (exit 1) when a ranking model's recall@K is below RATE, e.g. `5:0.9` (K one of 1,
    /// 3, 5, 10); exit 2 when no model of the run ranks tools.
    #[arg(long, value_name = "K:RATE")]
    pub fail_under_recall: Option<crate::gate::RecallFloor>,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The task file (JSONL). On --resume, defaults to the run's own.
    #[arg(short = 't', long, value_name = "FILE")]
    pub tasks: Option<std::path::PathBuf>,
    /// Model spec (repeatable) [default: bm25]: `bm25[:<min_score>]` (offline BM25 router),
    /// `toolsearch[:k]` / `toolsearch-names[:k]` / `toolsearch-codex[:k]` /
    /// `toolsearch-card[:k]` (a host's tool search, emulated: findability@k),
    /// `replay:<file.jsonl>` (recorded answers), or `<provider>:<model>` with provider one of
    /// {providers} (openai-compat: any OpenAI-compatible server, with --base-url), e.g.
    /// `openai:gpt-4o-mini`; or
    /// `local:<file.gguf>` (toolgate starts llama-server on it and stops it). Keys come from
    /// the provider's variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, …); local servers need none.
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
    /// Requests in flight at once, per provider [default: 4; 1 when the base URL is on this
    /// machine (localhost, 127.0.0.1, ::1): Ollama, llama.cpp and LM Studio often serve one
    /// request at a time, and a queued request would spend its --timeout waiting; vLLM keeps 4].
    /// Identical requests in flight together are sent once (unless --no-cache).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
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
    #[arg(long, default_value_t = 4, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=crate::limits::MAX_RETRIES as i64))]
    pub retries: u32,
    /// Stop after this many provider calls; the run is marked partial.
    #[arg(long, value_name = "N")]
    pub max_calls: Option<usize>,
    /// Stop paying at this many US dollars of the printed estimate (like --max-calls).
    #[arg(long, value_name = "USD")]
    pub max_cost: Option<f64>,
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
    /// Re-measure only these tools (repeatable or comma-separated): the suite's tasks that
    /// expect one of them or lure toward one, against the whole catalog. run.json records it;
    /// its score is the subset's, so it is never compared as the whole suite's.
    #[arg(long, value_name = "TOOL", value_delimiter = ',')]
    pub only: Vec<String>,
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
    /// With --fix or --mutate: reject a rewrite that costs any one tool (or the no-tool tasks)
    /// this many tasks net, without waiting for significance.
    #[arg(long, default_value_t = crate::improve::MAX_LOSS, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_task_loss: u64,
    #[command(flatten)]
    pub curve: curve::CurveArgs,
    /// Run only slice K of N of the suite (a stable hash of each task id decides), for a CI
    /// matrix; join the shards with `toolgate merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<crate::eval::shard::Shard>,
    /// Evaluate inside a belt: the model chooses among your tools and every tool of the belt
    /// (named `<server>__<tool>`, as hosts prefix them). `ecosystem` (35 popular public
    /// servers, built in, offline), an MCP client config (its servers are started), a belt
    /// lock, a snapshot file, or a folder of snapshots.
    #[arg(long, value_name = "SPEC")]
    pub belt: Option<String>,
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

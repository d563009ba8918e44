//! `[ci]`: the settings of `toolgate ci`, one field each for its flag, variable and key.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// `[ci]`: what `toolgate ci` does when no flag says otherwise. Every key has a flag of the
/// same name (`fail_under` ↔ `--fail-under`), and flags win.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields, default)]
pub struct CiConfig {
    /// Read the server from an MCP client config (Claude Desktop, Claude Code `.mcp.json`,
    /// Cursor, VS Code `.vscode/mcp.json`); --server names one of its servers (needed when the
    /// file has several).
    #[arg(long, env = "TOOLGATE_MCP_CONFIG", value_name = "FILE")]
    pub mcp_config: Option<PathBuf>,
    /// What a lock mismatch does [default: fail]. A missing lock file is reported, never fatal.
    #[arg(long, env = "TOOLGATE_LOCK_CHECK", value_enum)]
    pub lock_check: Option<crate::record::gate::LockCheck>,
    /// Lint findings at or above this severity fail the gate [default: error].
    #[arg(long, env = "TOOLGATE_LINT_FAIL_ON", value_enum)]
    pub lint_fail_on: Option<crate::record::gate::LintFailOn>,
    /// Fail on lint findings at or above this severity that the change introduces against the
    /// base (the base revision's lock in a pull request, else the base's lint report), matched
    /// by rule, tools and pointer [default: warning].
    #[arg(long, env = "TOOLGATE_FAIL_ON_NEW", value_enum)]
    pub fail_on_new: Option<crate::record::gate::LintFailOn>,
    /// Task file (JSONL). Without one, tasks are generated from the catalog (templates, seed 1):
    /// fine for a first look, but commit a task file for comparable before/after numbers.
    #[arg(short = 't', long, env = "TOOLGATE_TASKS", value_name = "FILE")]
    pub tasks: Option<PathBuf>,
    /// Model spec (repeatable or comma-separated) [default: bm25]: `bm25[:<min_score>]`,
    /// `toolsearch[:k]` / `toolsearch-names[:k]` / `toolsearch-codex[:k]` /
    /// `toolsearch-card[:k]` (a host's tool search, emulated),
    /// `replay:<file.jsonl>`, or `<provider>:<model>` with provider one of {providers}, or
    /// `local:<file.gguf>` (a llama-server toolgate starts; see `toolgate run --help`).
    #[arg(
        short = 'm',
        long = "model",
        env = "TOOLGATE_MODEL",
        value_delimiter = ',',
        value_name = "SPEC"
    )]
    pub models: Option<Vec<String>>,
    /// Trials per task for models that are not deterministic [default: 1].
    #[arg(long, env = "TOOLGATE_TRIALS", value_name = "N")]
    pub trials: Option<u32>,
    /// Which tasks to run [default: all].
    #[arg(long, env = "TOOLGATE_SPLIT", value_enum)]
    pub split: Option<crate::tasks::SplitArg>,
    /// Fail when a model's overall score is below this (0–1): tool accuracy for a model that
    /// chooses, findability@1 for a search over the definitions (bm25, toolsearch, embed).
    #[arg(long, env = "TOOLGATE_FAIL_UNDER", value_name = "RATE")]
    pub fail_under: Option<f64>,
    /// Fail when a ranking model's recall@K is below RATE, e.g. `5:0.9` (K one of 1, 3, 5,
    /// 10); exit 2 when no model of the run ranks tools.
    #[arg(long, env = "TOOLGATE_FAIL_UNDER_RECALL", value_name = "K:RATE")]
    pub fail_under_recall: Option<crate::record::gate::RecallFloor>,
    /// Fail when any tool's accuracy is below this (0–1).
    #[arg(long, env = "TOOLGATE_MIN_TOOL_ACCURACY", value_name = "RATE")]
    pub min_tool_accuracy: Option<f64>,
    /// Output directory for every report [default: toolgate-out].
    #[arg(long, env = "TOOLGATE_OUT", value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also write the SVG badge here, and its shields.io endpoint document beside it (FILE.json);
    /// both are always written to the output directory.
    #[arg(long, env = "TOOLGATE_BADGE", value_name = "FILE")]
    pub badge: Option<PathBuf>,
    /// Compare with this base: a baseline file (from --write-baseline) or a base output
    /// directory (e.g. the base branch's downloaded artifact, or a `toolgate run` directory).
    #[arg(long, env = "TOOLGATE_BASE", value_name = "PATH")]
    pub base: Option<PathBuf>,
    /// Post or update the pull-request comment (GitHub only; needs GITHUB_TOKEN with
    /// pull-requests: write) [default: true on GitHub Actions (GITHUB_ACTIONS=true, unless
    /// --no-github), false elsewhere; a run with no pull request posts nothing and says why].
    #[arg(long, env = "TOOLGATE_COMMENT", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub comment: Option<bool>,
    /// Tells several toolgate comments on one pull request apart (e.g. one per server).
    #[arg(long, env = "TOOLGATE_COMMENT_ID", value_name = "KEY")]
    pub comment_id: Option<String>,
    /// Login whose comments toolgate may edit [default: the token's user, else github-actions[bot]].
    #[arg(long, env = "TOOLGATE_COMMENT_AUTHOR", value_name = "LOGIN")]
    pub comment_author: Option<String>,
    /// Significance level of every paired test: against the base, alone vs in the belt, the
    /// distractor curve's points [default: 0.05].
    #[arg(long, env = "TOOLGATE_ALPHA", value_name = "ALPHA")]
    pub alpha: Option<f64>,
    /// Stop after this many provider calls; the run is marked partial and cannot pass.
    #[arg(long, env = "TOOLGATE_MAX_CALLS", value_name = "N")]
    pub max_calls: Option<usize>,
    /// Stop paying once the cost estimate reaches this many US dollars (list prices of known
    /// models; the estimate is printed before the run): a call budget like --max-calls.
    #[arg(long, env = "TOOLGATE_MAX_COST", value_name = "USD")]
    pub max_cost: Option<f64>,
    /// Calls a model may make per task [default: 1].
    #[arg(long, env = "TOOLGATE_MAX_STEPS", value_name = "N")]
    pub max_steps: Option<u32>,
    /// Requests in flight at once, per provider [default: 4; 1 for an endpoint on this machine].
    #[arg(long, env = "TOOLGATE_CONCURRENCY", value_name = "N")]
    pub concurrency: Option<usize>,
    /// Seconds to wait for one model reply [default: 60].
    #[arg(long, env = "TOOLGATE_TIMEOUT", value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Retries of a failed model request (429, 5xx, timeouts), with backoff [default: 4].
    #[arg(long, env = "TOOLGATE_RETRIES", value_name = "N")]
    pub retries: Option<u32>,
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
    /// Fail when the score drops by more than this against the base (0–1, e.g. 0.05 for
    /// 5 points), significant or not.
    #[arg(long, env = "TOOLGATE_MAX_DROP", value_name = "RATE")]
    pub max_drop: Option<f64>,
    /// Fail on a significant per-tool regression too (otherwise it is reported) [default: false].
    #[arg(long, env = "TOOLGATE_FAIL_ON_TOOL_REGRESSION", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub fail_on_tool_regression: Option<bool>,
    /// Do not read or write the response cache.
    #[arg(long, env = "TOOLGATE_NO_CACHE", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub no_cache: Option<bool>,
    /// Evaluate your tasks inside a belt: the model chooses among your tools and every tool of
    /// the belt (named `<server>__<tool>`); the gate applies to your tasks' scores in the belt,
    /// and the reports say which servers took your tasks. `ecosystem` (built in, offline), an
    /// MCP client config, a belt lock, a snapshot file or a folder of snapshots.
    #[arg(long, env = "TOOLGATE_BELT", value_name = "SPEC")]
    pub belt: Option<String>,
    /// With --belt: measure the distractor curve (accuracy as the belt's tools join yours, and
    /// the breaking point in the comment). Default: for offline models only; `true` measures
    /// LLMs too (each size is a whole run of the suite), `false` skips it.
    #[arg(long, env = "TOOLGATE_CURVE", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub curve: Option<bool>,
    /// With --belt: distractor tools per point of the curve, comma-separated (`all`: every tool
    /// of the belt) [default: 0,10,50,100,200,500,all; each capped at the belt's size].
    #[arg(long, env = "TOOLGATE_CURVE_SIZES", value_name = "N,…")]
    pub curve_sizes: Option<String>,
    /// Run the suite again without descriptions and with neutral tool names, and show in the
    /// comment what the score measures (a suite that scores as well without descriptions does
    /// not measure them). Default: for offline models only; `true` measures LLMs too (two more
    /// calls per task), `false` skips it.
    #[arg(long, env = "TOOLGATE_ABLATION", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub ablation: Option<bool>,
    /// Also run the contract tests in the sandbox (`toolgate contract`): read-only tools get
    /// schema-invalid arguments (a readable isError is expected) and sampled valid ones
    /// (structuredContent is checked against the outputSchema); a failed call fails the gate.
    #[arg(long, env = "TOOLGATE_CONTRACT", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub contract: Option<bool>,
    /// With --contract: also call tools that may write (without readOnlyHint: true).
    #[arg(long, env = "TOOLGATE_ALLOW_WRITES", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub allow_writes: Option<bool>,
    /// With --contract: seconds allowed for each tool call [default: 10].
    #[arg(long, env = "TOOLGATE_CALL_TIMEOUT", value_name = "SECS")]
    pub call_timeout: Option<f64>,
}

//! `toolgate ci`'s flags, each with its environment variable: the `[ci]` settings (a key of the
//! same name in toolgate.toml) and the `[connect]` ones are flattened in, spelled once each.

use std::path::PathBuf;

use clap::Args;

use super::Format;

/// `toolgate ci`. Options are `Option`s so that toolgate.toml's `[ci]` can fill what a flag
/// leaves out; an empty `TOOLGATE_*` variable counts as unset.
#[derive(Args, Debug, Default)]
pub struct CiArgs {
    /// The server: a command line, an http(s) URL, or a snapshot .json file.
    #[arg(long, env = "TOOLGATE_SERVER", value_name = "SERVER")]
    pub server: Option<String>,
    /// The settings toolgate.toml's `[ci]` can also give (each flag, variable and key of one
    /// name), spelled once in [`crate::config::CiConfig`].
    #[command(flatten)]
    pub settings: crate::config::CiConfig,
    /// How to connect (`[connect]` in toolgate.toml gives the same settings).
    #[command(flatten)]
    pub connect: crate::config::ConnectConfig,
    /// Fork-safe comment job (`on: workflow_run`): post the sticky comment from this output
    /// folder of the evaluation job (its downloaded artefact, treated as untrusted) instead of
    /// evaluating; the commit and pull request come from the workflow_run event.
    #[arg(long, env = "TOOLGATE_COMMENT_FROM", value_name = "DIR")]
    pub comment_from: Option<PathBuf>,
    /// Lock file to check (default: toolgate.lock).
    #[arg(long, env = "TOOLGATE_LOCK", value_name = "FILE")]
    pub lock: Option<PathBuf>,
    /// Also write this run as a baseline file to commit (refresh it on the default branch).
    #[arg(long, env = "TOOLGATE_WRITE_BASELINE", value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Continue an interrupted evaluation in the output directory instead of starting over.
    #[arg(long, env = "TOOLGATE_RESUME", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub resume: Option<bool>,
    /// Ignore the GitHub Actions environment (no summary, outputs, annotations or comment).
    #[arg(long, env = "TOOLGATE_NO_GITHUB", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub no_github: Option<bool>,
    /// With a base written by `toolgate ci` (it keeps its decisions and per-task marks),
    /// re-run only the tasks a catalog change can reach (expected tool, lure or closest tools
    /// changed, new or edited tasks) and reuse the base's decisions for the rest. Exact for
    /// per-tool scorers; a model that is not deterministic (an LLM) reuses nothing and runs in
    /// full; every report says what was reused. Runs in
    /// full on GitHub outside pull requests, and with --full-every.
    #[arg(long, env = "TOOLGATE_INCREMENTAL", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub incremental: Option<bool>,
    /// With --incremental: run in full every N-th workflow run (GITHUB_RUN_NUMBER), to keep the
    /// reused decisions honest.
    #[arg(long, env = "TOOLGATE_FULL_EVERY", value_name = "N")]
    pub full_every: Option<u64>,
    /// Matrix job: run only slice K of N of the suite (a stable hash of each task id) and keep
    /// the run in <out>/run for a fan-in `ci --merge`; no lint, gate, comment or badge here.
    #[arg(
        long,
        env = "TOOLGATE_SHARD",
        value_name = "K/N",
        conflicts_with = "merge"
    )]
    pub shard: Option<crate::eval::shard::Shard>,
    /// Fan-in job: gate, comment and badge from the shards of `ci --shard` (their output or run
    /// folders, or a folder holding them, e.g. the downloaded artifacts; one per line in the
    /// variable). Every shard 1..N must be there once; the server is not contacted.
    #[arg(long, env = "TOOLGATE_MERGE", value_delimiter = '\n', num_args = 1.., value_name = "DIR")]
    pub merge: Vec<PathBuf>,
    /// Format printed on stdout.
    #[arg(long, value_enum, default_value_t = Format::Terminal, env = "TOOLGATE_FORMAT")]
    pub format: Format,
}

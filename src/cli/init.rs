//! `toolgate init`'s flags.

use std::path::PathBuf;

use clap::Args;

// `toolgate init`: a starter toolgate.toml and a GitHub workflow.
#[derive(Args, Clone, Debug)]
pub struct InitArgs {
    /// Directory to write into.
    #[arg(default_value = ".", value_name = "DIR")]
    pub dir: PathBuf,
    /// The server to put in toolgate.toml.
    #[arg(long, value_name = "SERVER")]
    pub server: Option<String>,
    /// Where to write the starter task suite (with --server), relative to DIR.
    #[arg(long, default_value = "tasks.jsonl", value_name = "FILE")]
    pub tasks: PathBuf,
    /// Who writes the starter suite: an LLM spec (`openai:gpt-4o-mini`, `ollama:qwen2.5:7b`),
    /// or `template`. Default: the best available (a provider key that is set, else a local
    /// OpenAI-compatible server that answers, else templates).
    #[arg(long, value_name = "SPEC")]
    pub writer: Option<String>,
    /// Do not connect to the server or write a starter suite.
    #[arg(long)]
    pub no_tasks: bool,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
    /// The action reference the workflow uses; pin it to a release commit
    /// (`OWNER/toolgate@<40-hex SHA>`) [default: toolgate-dev/toolgate@v1, marked to pin].
    #[arg(long, value_name = "OWNER/REPO@REF")]
    pub action_ref: Option<String>,
    /// Split the evaluation over a matrix of N jobs (`ci --shard K/N`) and gate in one fan-in
    /// job (`ci --merge`), for suites too slow for one job.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=256))]
    pub shards: Option<u32>,
    /// Add a job that publishes the badge (SVG and shields.io endpoint JSON) from the default
    /// branch to a `toolgate-badge` branch; it is the only job with write access.
    #[arg(long)]
    pub publish_badge: bool,
    /// How to reach the server, as every command that starts one takes it (and its
    /// `TOOLGATE_*` variables); the settings given are also written to toolgate.toml's
    /// `[connect]` (header values never are).
    #[command(flatten)]
    pub connect: crate::config::ConnectConfig,
}

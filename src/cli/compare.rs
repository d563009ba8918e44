//! The flags of `merge` (shards into one run) and `compare` (two runs, paired).

use clap::Args;

use super::GateArgs;
use crate::report::Format;

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard run directories, `toolgate ci` output folders, or folders holding them
    /// (e.g. where the matrix's artifacts were downloaded).
    #[arg(required = true, value_name = "DIR")]
    pub shards: Vec<std::path::PathBuf>,
    /// The merged run directory to create.
    #[arg(long, value_name = "DIR")]
    pub out: std::path::PathBuf,
    /// The task file the shards ran [default: the path recorded in the shards' run.json].
    #[arg(short = 't', long, value_name = "FILE")]
    pub tasks: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub gate: GateArgs,
    /// Format printed on stdout.
    #[arg(long, value_enum, default_value_t = Format::Terminal)]
    pub format: Format,
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
    #[arg(long, default_value_t = crate::score::stats::DEFAULT_ALPHA, value_name = "ALPHA")]
    pub alpha: f64,
    /// Exit 1 when the overall paired test says the head is significantly worse.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub fail_on_regression: bool,
    /// Exit 1 when the score drops by more than this (0–1), significant or not.
    #[arg(long, value_name = "RATE")]
    pub max_drop: Option<f64>,
    /// Exit 1 on a significant per-tool regression too.
    #[arg(long)]
    pub fail_on_tool_regression: bool,
}

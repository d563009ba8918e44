//! `toolgate contract`'s flags.

use std::path::PathBuf;

use clap::Args;

use super::ServerArgs;

/// `toolgate contract SERVER`: the opt-in contract tests, the only command that calls tools.
#[derive(Args, Debug, Clone)]
pub struct ContractArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Also call tools that may write (every tool without `readOnlyHint: true`). They run
    /// inside the sandbox, but against whatever the server itself reaches (files, APIs).
    #[arg(long)]
    pub allow_writes: bool,
    /// Seconds allowed for each tool call.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub call_timeout: f64,
    /// Seconds allowed for all the calls together; tools not reached are reported skipped.
    #[arg(long, value_name = "SECS", default_value_t = 300.0)]
    pub deadline: f64,
    /// Seed of the sampled valid arguments (same seed, same arguments).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print the report as JSON (toolgate.contract/v1) instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub output_json: Option<PathBuf>,
}

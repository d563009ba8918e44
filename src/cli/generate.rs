//! `toolgate generate`'s flags.

use clap::Args;

#[derive(Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub server: super::ServerArgs,
    /// Where to write the tasks (JSONL).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: std::path::PathBuf,
    /// Direct requests per tool (at most 100).
    #[arg(long, default_value_t = 3, value_name = "N", value_parser = per_tool_count)]
    pub per_tool: usize,
    /// Near-miss requests per tool, aimed at its most similar sibling (at most 100).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = per_tool_count)]
    pub near_miss: usize,
    /// Requests no tool serves (at most 10000).
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = no_tool_count)]
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

/// A count of at most `max`, said plainly when it is more.
fn count(s: &str, max: usize) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number"))?;
    if n > max {
        return Err(format!("{n} is more than {max}"));
    }
    Ok(n)
}

fn per_tool_count(s: &str) -> Result<usize, String> {
    count(s, 100)
}

fn no_tool_count(s: &str) -> Result<usize, String> {
    count(s, 10_000)
}

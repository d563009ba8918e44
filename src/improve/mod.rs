//! The improve stage: measure description changes against the same tasks, the server
//! untouched. `--mutate` measures a given rewrite; `--fix` asks a model for rewrites and
//! accepts one only when a corrected paired test says it is better.

pub mod fix;
pub mod mutate;

use std::path::PathBuf;

/// Settings of the improve stage.
#[derive(Clone, Debug, Default)]
pub struct ImproveOptions {
    /// Where both arms are written (default `runs/<time>-mutate` or `-fix`).
    pub out: Option<PathBuf>,
    pub trials: u32,
    pub concurrency: usize,
    /// `TOOL:new description` (repeatable).
    pub mutate: Vec<String>,
    /// The model that proposes rewrites.
    pub fixer: Option<String>,
    /// Tools to propose rewrites for (default: the most failing).
    pub fix_tools: Vec<String>,
    pub fix_max: usize,
}

/// `runs/<time>-<what>`.
fn default_dir(what: &str) -> PathBuf {
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        .to_string()
        .replace([':', '-'], "");
    PathBuf::from("runs").join(format!("{stamp}-{what}"))
}

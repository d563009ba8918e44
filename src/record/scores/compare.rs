//! What a paired test of two runs says: per label a delta with its exact p, and per model
//! pair the whole comparison.

use serde::{Deserialize, Serialize};

use super::Rate;

/// What a paired test says about a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Verdict {
    #[serde(rename = "better")]
    Better,
    #[serde(rename = "worse")]
    Worse,
    #[serde(rename = "no significant change")]
    NoSignificantChange,
    /// So few tasks changed outcome that no result could reach significance.
    #[serde(rename = "too few discordant pairs")]
    TooFewPairs,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Delta {
    /// `overall`, a tool name, or `(no tool)`.
    pub label: String,
    pub base: Rate,
    pub head: Rate,
    /// head − base, in rate units.
    pub delta: f64,
    /// Pairs only the base got right.
    pub only_base: u64,
    /// Pairs only the head got right.
    pub only_head: u64,
    pub p: f64,
    /// Bonferroni-corrected p.
    pub p_adjusted: f64,
    pub verdict: Verdict,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ModelComparison {
    pub base_model: String,
    pub head_model: String,
    /// Task × trial pairs both runs have.
    pub shared: usize,
    /// Tasks both runs have (the exact test counts tasks: trials of one task are not
    /// independent).
    #[serde(default)]
    pub shared_tasks: usize,
    pub overall: Delta,
    pub per_tool: Vec<Delta>,
    pub comparisons: usize,
    pub alpha: f64,
}

//! The fix loop's data: a proposal and how it fared, how a tool failed on the dev split, and
//! the limits a proposal is held to.

use serde::Serialize;

use crate::tasks::{Split, Task};

/// The longest description a proposal may have.
pub(super) const MAX_WORDS: usize = 25;

pub(super) const FIXER_SYSTEM: &str = "You improve MCP tool descriptions so that AI assistants pick the right tool. Reply with the new description only.";

#[derive(Clone, Debug, Serialize)]
pub(super) struct Proposal {
    pub tool: String,
    pub before: String,
    pub after: String,
    pub dev_before: f64,
    pub dev_after: f64,
    pub dev_n: u64,
    pub p: f64,
    pub p_corrected: f64,
    pub heldout: Option<(f64, f64, u64)>,
    pub accepted: bool,
    pub reason: String,
    /// The fixer's reply when it was refused unmeasured (not a description, or too long), cut
    /// to 300 characters: what was refused, shown beside why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// How a tool failed on the dev split.
#[derive(Clone, Debug, Default)]
pub(super) struct Failing {
    pub(super) count: usize,
    /// Tools chosen instead.
    pub(super) chosen: Vec<String>,
    /// Up to three requests it missed.
    pub(super) examples: Vec<String>,
}

pub(super) fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

/// The tasks of `split` that expect `tool` or lure toward it.
pub(super) fn tasks_for(tasks: &[Task], tool: &str, split: Split) -> Vec<Task> {
    tasks
        .iter()
        .filter(|t| {
            t.split == split && (t.expected_tool() == Some(tool) || t.lure.as_deref() == Some(tool))
        })
        .cloned()
        .collect()
}

impl Proposal {
    /// A proposal for `tool` not yet made or measured.
    pub(super) fn new(tool: &str, before: String) -> Self {
        Proposal {
            tool: tool.to_string(),
            before,
            after: String::new(),
            dev_before: 0.0,
            dev_after: 0.0,
            dev_n: 0,
            p: 1.0,
            p_corrected: 1.0,
            heldout: None,
            accepted: false,
            reason: String::new(),
            refused: None,
        }
    }
}

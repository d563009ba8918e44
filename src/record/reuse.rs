//! How an incremental run reused a base's decisions, as run.json records it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How a run reused a base's decisions (recorded in run.json and shown in every report).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Reuse {
    /// The base the decisions came from.
    pub base: String,
    /// The base's commit or creation time, when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_run: Option<String>,
    /// Decisions taken from the base.
    pub reused: usize,
    /// Tasks re-run, and tasks in the suite.
    pub rerun_tasks: usize,
    pub tasks: usize,
    /// Tasks re-run, by the first reason that applied.
    pub why: BTreeMap<String, usize>,
    /// Tools whose definition changed (added and removed ones included).
    pub changed_tools: Vec<String>,
    /// True when some model reads every description (LLMs; BM25's shared IDF): the selection
    /// may miss a decision that would have moved.
    pub approximate: bool,
}

impl Reuse {
    /// One sentence for reports and the comment.
    pub(crate) fn sentence(&self) -> String {
        let why: Vec<String> = self.why.iter().map(|(k, v)| format!("{v} {k}")).collect();
        format!(
            "Incremental run: {} of {} tasks re-run ({}); {} decision(s) reused from the base {}{}. Changed tools: {}.{}",
            self.rerun_tasks,
            self.tasks,
            if why.is_empty() {
                "none".to_string()
            } else {
                why.join(", ")
            },
            self.reused,
            self.base,
            self.base_run
                .as_deref()
                .map(|r| format!(" (run of {r})"))
                .unwrap_or_default(),
            match self.changed_tools.len() {
                0 => "none".to_string(),
                n if n > 10 => format!(
                    "{} and {} more",
                    self.changed_tools[..10].join(", "),
                    n - 10
                ),
                _ => self.changed_tools.join(", "),
            },
            if self.approximate {
                " The selection is an approximation (a model that reads every description can move on any change); a full run on the default branch keeps it honest."
            } else {
                ""
            }
        )
    }
}

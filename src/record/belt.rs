//! What run.json keeps about the belt a run was measured in: its servers, where every foreign
//! tool came from, and per model where your tasks went.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::record::scores::BeltScore;

/// What `run.json` keeps about the belt of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct BeltInfo {
    /// What `--belt` named (`ecosystem`, a config, a lock, snapshots).
    pub spec: String,
    /// The name your server goes by in the reports.
    pub own: String,
    /// The belt's servers that were added, in order, with their tool counts.
    pub servers: Vec<BeltServerInfo>,
    /// Belt servers left out, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// Name the model saw → server and tool, for every tool that is not yours.
    pub origin: BTreeMap<String, Origin>,
    /// Per model: where your tasks went in the belt (`crate::score::belt`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<BeltScore>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct BeltServerInfo {
    pub name: String,
    pub tools: usize,
}

impl BeltInfo {
    #[cfg(test)]
    /// The server of a tool name the model saw: its belt server, or yours.
    pub(crate) fn server_of<'a>(&'a self, name: &str) -> &'a str {
        self.origin
            .get(name)
            .map(|o| o.server.as_str())
            .unwrap_or(&self.own)
    }

    /// Every tool the belt added.
    pub(crate) fn tool_count(&self) -> usize {
        self.origin.len()
    }
}

/// Where a tool of a combined catalog came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Origin {
    pub server: String,
    /// The tool's own name on its server.
    pub tool: String,
}

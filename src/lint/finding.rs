//! The one findings model every renderer reads.

use serde::{Deserialize, Serialize};

/// Defined in the record (the floor every stage reads), used here.
pub(crate) use crate::record::lint::FindingGroup;
pub use crate::record::lint::Severity;

/// One problem a rule found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Rule code, e.g. `TG005`.
    pub code: String,
    /// Rule slug, e.g. `look-alike-tools`.
    pub slug: String,
    pub severity: Severity,
    /// The tool concerned; `None` for catalog-wide findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Index of the tool in the catalog as the server listed it.
    #[serde(skip)]
    pub tool_index: Option<usize>,
    /// JSON pointer inside the tool definition (empty for the whole tool or catalog).
    pub pointer: String,
    pub message: String,
    /// How to fix it.
    pub help: String,
    /// The other places a belt-wide finding concerns, beside `tool`: `server/tool` keys, or a
    /// server's name for its whole section (each is located in the belt lock, for SARIF).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<String>,
    /// The other tool of a finding about a pair of tools (look-alikes, duplicates, a deprecated
    /// tool and its replacement): with `tool`, what identifies the finding across runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<String>,
    /// One problem in many places: findings of one rule with the same group key (a parameter
    /// definition shared by many tools) are shown as one line naming every tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<FindingGroup>,
}

impl Finding {
    pub fn docs_url(&self) -> String {
        docs_url(&self.code, &self.slug)
    }
}

/// Where rule pages are published.
pub(crate) const DOCS_BASE: &str = "https://github.com/toolgate-dev/toolgate/blob/main/docs/rules";

pub(crate) fn docs_url(code: &str, slug: &str) -> String {
    format!("{DOCS_BASE}/{code}-{slug}.md")
}

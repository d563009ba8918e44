//! The versioned lint report (`toolgate.lint/v1`) as data: what `lint --format json` prints,
//! what ci.json and the baseline carry, and what the gate counts. Building one from a catalog
//! is the lint and report stages' work (`crate::lint::report`).

use serde::{Deserialize, Serialize};

use crate::lint::Severity;

pub const LINT_SCHEMA: &str = "toolgate.lint/v1";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportFinding {
    pub code: String,
    pub slug: String,
    pub severity: Severity,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    pub pointer: String,
    pub message: String,
    pub help: String,
    pub docs_url: String,
    /// File and 1-based line the finding points at, when a snapshot or lock file is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The other tools or servers a belt-wide finding concerns, each located in the belt lock
    /// when one is known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<RelatedLocation>,
    /// Findings of one rule with the same group are one problem in many tools (a shared
    /// parameter definition); renderers show them as one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<crate::lint::FindingGroup>,
}

/// Another place a finding concerns: a `server/tool` key or a server's name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RelatedLocation {
    pub key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LintSummary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LintReport {
    pub schema_version: String,
    pub toolgate_version: String,
    pub source: String,
    pub catalog_sha256: String,
    pub tool_count: usize,
    pub tokenizer: String,
    pub total_tokens: usize,
    pub summary: LintSummary,
    pub findings: Vec<ReportFinding>,
}

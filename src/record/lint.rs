//! The versioned lint report (`toolgate.lint/v1`) as data: what `lint --format json` prints,
//! what ci.json and the baseline carry, and what the gate counts. Building one from a catalog
//! is the lint and report stages' work (`crate::lint::report`).

use serde::{Deserialize, Serialize};

pub(crate) const LINT_SCHEMA: &str = "toolgate.lint/v1";

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
    /// The other tool of a finding about a pair of tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<String>,
    /// Findings of one rule with the same group are one problem in many tools (a shared
    /// parameter definition); renderers show them as one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<FindingGroup>,
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

/// Lint findings against a base: what a change introduces and what it resolves, matched by
/// rule, tools (a pair's two in either order) and pointer, never by count.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct LintDelta {
    /// What the findings were compared with: "the base revision's lock (sha256 …)" or "the
    /// baseline …".
    pub against: String,
    pub introduced: Vec<ReportFinding>,
    pub resolved: Vec<ReportFinding>,
}

/// A finding's identity across runs: rule, pointer, and the tool (with a pair's other tool,
/// the two sorted so the order the server lists them in does not matter).
pub(crate) fn finding_key(f: &ReportFinding) -> (String, String, Vec<String>) {
    let mut tools: Vec<String> = f.tool.iter().chain(f.pair.iter()).cloned().collect();
    tools.sort_unstable();
    (f.code.clone(), f.pointer.clone(), tools)
}

impl LintDelta {
    /// `head`'s findings that `base` does not have, and the other way round.
    pub(crate) fn between(against: String, base: &[ReportFinding], head: &[ReportFinding]) -> Self {
        use std::collections::HashSet;
        let old: HashSet<_> = base.iter().map(finding_key).collect();
        let new: HashSet<_> = head.iter().map(finding_key).collect();
        LintDelta {
            against,
            introduced: head
                .iter()
                .filter(|f| !old.contains(&finding_key(f)))
                .cloned()
                .collect(),
            resolved: base
                .iter()
                .filter(|f| !new.contains(&finding_key(f)))
                .cloned()
                .collect(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LintSummary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Findings a person accepted in `[[lint.accept]]`: not counted above and never failing the
    /// gate, but always counted here and listed in [`LintReport::accepted`].
    #[serde(default)]
    pub accepted: usize,
}

/// A finding a person reviewed and accepted (`[[lint.accept]]`), with the reason they gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AcceptedFinding {
    #[serde(flatten)]
    pub finding: ReportFinding,
    pub reason: String,
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
    /// Findings accepted in `[[lint.accept]]`, each with its reason: shown and counted, never
    /// failing (SARIF keeps them as suppressed results).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accepted: Vec<AcceptedFinding>,
}

/// How bad a finding is. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What findings of one problem in many places share.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingGroup {
    /// Equal for the findings of one problem (with the rule code).
    pub key: String,
    /// The problem without the tool: "parameter `path` has no description".
    pub message: String,
}

//! What `toolgate ci` reports (`toolgate.ci/v1`, written as ci.json), as data: the gate's
//! decision and reasons, the lock, lint and run it decided on, the comparison with a base,
//! the requests at risk, and every file written. The ci stage fills it; the reports render it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::record::RunFile;
use crate::record::gate::{LintFailOn, LockStatus};
use crate::record::lint::{LintSummary, ReportFinding};
use crate::record::lock::LockDiff;
use crate::record::scores::{ModelComparison, Rate};

pub(crate) const CI_SCHEMA: &str = "toolgate.ci/v1";

/// Whether `toolgate ci` finished measuring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CiStatus {
    /// Measured; `passed` says whether the gate passed.
    Ok,
    /// Measured nothing valid (too many errors, a partial run): exit 2.
    Errored,
    /// Could not run at all (the short ci.json written on an error).
    Error,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub(crate) struct CiReport {
    pub schema_version: String,
    pub toolgate_version: String,
    pub status: CiStatus,
    pub passed: bool,
    /// Why the gate failed (empty when it passed), as sentences.
    pub reasons: Vec<String>,
    /// The same reasons as data (`kind` and its fields).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<crate::record::GateReason>,
    pub server: String,
    pub catalog_sha256: String,
    pub tools: usize,
    pub total_tokens: usize,
    pub lock: LockStatus,
    pub lint: LintSummary,
    pub lint_fail_on: LintFailOn,
    /// Findings at or above this that the change introduces fail the gate.
    #[serde(default = "never")]
    pub fail_on_new: LintFailOn,
    /// The task file, or where generated tasks were written.
    pub tasks: String,
    pub tasks_generated: bool,
    #[serde(with = "crate::record::v1::run_serde")]
    pub run: RunFile,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<BaseComparison>,
    /// Lint findings this change introduces and resolves against the base (the base
    /// revision's lock in a pull request, else the base's lint report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lint_delta: Option<crate::record::lint::LintDelta>,
    /// For a search (router): the requests it puts another tool first for (at most
    /// `crate::report::ci::at_risk::MAX_KEPT`), and how many there are in all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub at_risk: Vec<AtRisk>,
    #[serde(default)]
    pub at_risk_total: usize,
    /// Files written, by kind (`run_json`, `report_html`, …).
    pub outputs: Written,
    /// Things the reader should know that are not failures.
    pub notices: Vec<String>,
    /// The commit the report is about (a pull request's head), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The workflow run that made it, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_url: Option<String>,
    /// What the contract tests found (`--contract`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<crate::record::contract::ContractReport>,
    /// In a pull request: its gate settings and reviewed files against the base revision's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<crate::record::settings::SettingsReview>,
}

/// `fail_on_new` in a ci.json of an older toolgate.
fn never() -> LintFailOn {
    LintFailOn::Never
}

impl CiReport {
    /// The comparison of the model the headline, badge and `score` output are about.
    pub(crate) fn first_comparison(&self) -> Option<&ModelComparison> {
        let first = self.run.results.first()?;
        self.comparison
            .as_ref()
            .filter(|c| c.comparable)?
            .models
            .iter()
            .find(|m| m.head_model == first.model && m.shared > 0)
    }
}

/// What changed against the base.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct BaseComparison {
    /// Where the base came from (a path as given).
    pub base: PathBuf,
    pub base_created: String,
    pub base_catalog_sha256: String,
    pub base_suite_sha256: String,
    /// False when the deltas would mislead (another suite, another model, another split).
    pub comparable: bool,
    /// Why the runs are not comparable, or what to keep in mind.
    pub notes: Vec<String>,
    /// Overall tool accuracy of the base's first model, on all its tasks.
    pub base_accuracy: Option<Rate>,
    /// Paired comparison per model pair (only when comparable).
    pub models: Vec<ModelComparison>,
    /// Lint findings that are new in this change (`None`: the base has no lint report).
    pub lint_new: Option<Vec<ReportFinding>>,
    pub lint_resolved: Option<Vec<ReportFinding>>,
    /// Definitions changed since the base (`None`: the base has no lock of its catalog).
    pub definitions: Option<LockDiff>,
    /// Tools added or removed since the base, from the run files (always known).
    pub tools_added: Vec<String>,
    pub tools_removed: Vec<String>,
}

/// One request a search ranks another tool first for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct AtRisk {
    pub model: String,
    pub task_id: String,
    pub request: String,
    pub expected: String,
    /// The tool the search puts first instead.
    pub instead: String,
}

/// The files `toolgate ci` wrote, by kind: ci.json's `outputs` (a kind absent: not written)
/// and one step output each (`run_json` → `run-json`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Written {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge_json: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_json: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract_json: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub junit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lint_json: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report_html: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report_markdown: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_json: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sarif: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

impl Written {
    /// Every file written, by kind, in ci.json's order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("badge", &self.badge),
            ("badge_json", &self.badge_json),
            ("baseline", &self.baseline),
            ("ci_json", &self.ci_json),
            ("contract_json", &self.contract_json),
            ("junit", &self.junit),
            ("lint_json", &self.lint_json),
            ("lock", &self.lock),
            ("report_html", &self.report_html),
            ("report_markdown", &self.report_markdown),
            ("run_json", &self.run_json),
            ("sarif", &self.sarif),
            ("summary", &self.summary),
        ]
        .into_iter()
        .filter_map(|(k, v)| Some((k, v.as_deref()?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// ci.json's `outputs` is the map it always was: kinds in order, absent ones left out.
    #[test]
    fn written_files_serialize_as_a_sorted_map() {
        let w = Written {
            run_json: Some("out/run/run.json".into()),
            badge: Some("b.svg".into()),
            lint_json: Some("out/lint.json".into()),
            ..Default::default()
        };
        let text = serde_json::to_string(&w).unwrap();
        let map: BTreeMap<String, String> = serde_json::from_str(&text).unwrap();
        assert_eq!(text, serde_json::to_string(&map).unwrap());
        let kinds: Vec<&str> = w.iter().map(|(k, _)| k).collect();
        assert_eq!(kinds, map.keys().map(String::as_str).collect::<Vec<_>>());
        let back: Written = serde_json::from_str(&text).unwrap();
        assert_eq!(back, w);
    }
}

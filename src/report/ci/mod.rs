//! `toolgate ci`'s report (`toolgate.ci/v1`, written as ci.json) and its renderers: one
//! Markdown renderer serves the job summary, the pull-request comment and comment.md; a short
//! terminal summary goes to the log.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::markdown::code;
use super::{LintReport, LintSummary};
use crate::eval::baseline::BaseComparison;
use crate::record::RunFile;

pub const CI_SCHEMA: &str = "toolgate.ci/v1";
/// GitHub rejects comments over 65,536 characters; stay well under.
pub const COMMENT_MAX: usize = 60_000;

/// Whether `toolgate ci` finished measuring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CiStatus {
    /// Measured; `passed` says whether the gate passed.
    Ok,
    /// Measured nothing valid (too many errors, a partial run): exit 2.
    Errored,
    /// Could not run at all (the short ci.json written on an error).
    Error,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct CiReport {
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
    pub lock: crate::gate::LockStatus,
    pub lint: LintSummary,
    pub lint_fail_on: crate::gate::LintFailOn,
    /// Findings at or above this that the change introduces fail the gate.
    #[serde(default = "never")]
    pub fail_on_new: crate::gate::LintFailOn,
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
    /// [`at_risk::MAX_KEPT`]), and how many there are in all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub at_risk: Vec<at_risk::AtRisk>,
    #[serde(default)]
    pub at_risk_total: usize,
    /// Files written, by kind (`run_json`, `report_html`, …).
    pub outputs: BTreeMap<String, String>,
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
fn never() -> crate::gate::LintFailOn {
    crate::gate::LintFailOn::Never
}

impl CiReport {
    /// The comparison of the model the headline, badge and `score` output are about.
    pub fn first_comparison(&self) -> Option<&crate::score::compare::ModelComparison> {
        let first = self.run.results.first()?;
        self.comparison
            .as_ref()
            .filter(|c| c.comparable)?
            .models
            .iter()
            .find(|m| m.head_model == first.model && m.shared > 0)
    }
}

use crate::catalog::canonical::short_hash as short;

pub mod at_risk;
mod definitions;
mod footer;
use footer::footer;
mod error;
mod headline;
mod lint_section;
mod settings_section;
pub use error::error_markdown;
use settings_section::settings_section;
mod scores;
use headline::headline;

use scores::{ablation, per_tool, scores};

use definitions::definitions;
pub use definitions::diff_lines;
use lint_section::lint_section;

fn text_cell(s: &str) -> String {
    super::markdown::message(s)
}

/// Longest diff shown in a comment section; the rest is in ci.json.
const DIFF_MAX: usize = 10_000;

fn capped(text: &str) -> String {
    if text.len() <= DIFF_MAX {
        return text.to_string();
    }
    let mut out = String::new();
    let mut shown = 0;
    for line in text.lines() {
        if out.len() + line.len() + 1 > DIFF_MAX {
            break;
        }
        out.push_str(line);
        out.push('\n');
        shown += 1;
    }
    let total = text.lines().count();
    out.push_str(&format!(
        "… {} more line(s): see ci.json\n",
        total.saturating_sub(shown)
    ));
    out
}

fn signed_pts(v: f64) -> String {
    format!(
        "{}{:.1} pts",
        if v >= 0.0 { "+" } else { "−" },
        v.abs() * 100.0
    )
}

fn p_value(p: f64) -> String {
    if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

fn fenced(text: &str) -> String {
    super::markdown::fenced(text, "diff")
}

fn provenance(commit: Option<&str>, run_url: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(c) = commit {
        out.push_str(&format!(" · for {}", code(short(c))));
    }
    if let Some(u) = run_url {
        out.push_str(&format!(" · [workflow run]({u})"));
    }
    out
}

/// The Markdown report: job summary, PR comment (after the marker) and summary.md. It is
/// built from whole sections and stays under [`COMMENT_MAX`]: a section that would not fit is
/// left out (later ones too) with a note, so Markdown is never cut in the middle.
pub fn markdown(r: &CiReport, lint: &LintReport, full_run: &str) -> String {
    let mut head = headline(r);
    if !r.passed {
        head.push_str(if r.status == CiStatus::Ok {
            "**Why the gate failed:**\n\n"
        } else {
            "**Why these numbers cannot decide anything:**\n\n"
        });
        for reason in r.reasons.iter().take(20) {
            head.push_str(&format!("- {}\n", text_cell(reason)));
        }
        if r.reasons.len() > 20 {
            head.push_str(&format!(
                "- …and {} more (see ci.json)\n",
                r.reasons.len() - 20
            ));
        }
        head.push('\n');
    }
    if let Some(c) = &r.comparison {
        for n in &c.notes {
            head.push_str(&format!("> {}\n", text_cell(n)));
        }
        if !c.notes.is_empty() {
            head.push('\n');
        }
    }
    for n in &r.notices {
        head.push_str(&format!("> note: {}\n", text_cell(n)));
    }
    if !r.notices.is_empty() {
        head.push('\n');
    }
    if let Some(review) = &r.settings {
        head.push_str(&settings_section(review));
    }
    let mut sections = vec![head];
    for render in [
        scores,
        at_risk::at_risk,
        ablation,
        crate::report::belt::ci_section,
        per_tool,
        definitions,
    ] {
        let mut s = String::new();
        render(r, &mut s);
        sections.push(s);
    }
    if let Some(c) = &r.contract {
        sections.push(crate::report::contract::markdown(c));
    }
    let mut l = String::new();
    lint_section(r, lint, &mut l);
    sections.push(l);
    sections.push(crate::report::run::curve::markdown(&r.run));
    sections.push(format!(
        "<details><summary>Full run report (per-tool scores, confusion matrix)</summary>\n\n{}\n</details>\n",
        full_run
    ));
    let mut tail = String::new();
    footer(r, &mut tail);
    let room = COMMENT_MAX.saturating_sub(tail.len() + 200);
    let mut out = String::new();
    for (i, section) in sections.iter().enumerate() {
        if out.len() + section.len() > room {
            if i < sections.len() - 1 {
                out.push_str("\n…the rest did not fit in a GitHub comment: see summary.md and report.html in the toolgate artifact.\n");
            }
            break;
        }
        out.push_str(section);
    }
    out.push_str(&tail);
    out
}

/// A few lines for the log.
pub fn terminal(r: &CiReport) -> String {
    use super::style::Tone;
    use crate::gate::LockState;
    use crate::score::compare::Verdict;
    let p = super::style::palette();
    // The verdict first: the line a reader of a CI log looks for, before any number or path.
    let mut out = if r.passed {
        format!("gate            {}\n", p.verdict(true, "passed"))
    } else {
        let mut s = format!("gate            {}\n", p.verdict(false, "FAILED"));
        for reason in &r.reasons {
            s.push_str(&format!(
                "  because       {}\n",
                super::terminal::plain(reason)
            ));
        }
        s
    };
    // An unreviewed suite's number is a smoke test, in the log as in every other sink.
    let smoke = if r.run.suite.reviewed() {
        ""
    } else {
        "  (smoke: the suite is not reviewed)"
    };
    for m in &r.run.results {
        out.push_str(&format!(
            "{:<16}{}  {}{smoke}\n",
            crate::record::metric::name(&m.model),
            m.model,
            m.metrics.accuracy.show()
        ));
    }
    out.push_str(&super::belt::ci_terminal(&r.run));
    if let Some(c) = &r.comparison {
        if c.comparable {
            for m in &c.models {
                out.push_str(&format!(
                    "vs base         {} → {}  {}  {}\n",
                    m.overall.base.show(),
                    m.overall.head.show(),
                    signed_pts(m.overall.delta),
                    match m.overall.verdict {
                        Verdict::Better => p.verdict(true, &m.overall.verdict.to_string()),
                        Verdict::Worse => p.verdict(false, &m.overall.verdict.to_string()),
                        v => v.to_string(),
                    }
                ));
            }
        }
        for n in &c.notes {
            out.push_str(&format!("base note       {n}\n"));
        }
    }
    let lock = r.lock.status.to_string();
    let count = |n: usize, tone: Tone| {
        let n = n.to_string();
        if n == "0" { n } else { p.paint(tone, &n) }
    };
    out.push_str(&format!(
        "lock            {} ({})\nlint            {} error(s), {} warning(s), {} info\n",
        match r.lock.status {
            LockState::Match => p.verdict(true, &lock),
            LockState::Changed => p.verdict(false, &lock),
            LockState::Missing => p.paint(Tone::Warning, &lock),
            LockState::Off => lock,
        },
        r.lock.path,
        count(r.lint.errors, Tone::Error),
        count(r.lint.warnings, Tone::Warning),
        count(r.lint.infos, Tone::Info)
    ));
    if r.lint.accepted > 0 {
        out.push_str(&format!(
            "                {} accepted in [[lint.accept]] (never failing)\n",
            r.lint.accepted
        ));
    }
    if let Some(review) = &r.settings {
        for c in &review.changes {
            out.push_str(&format!(
                "setting         {}: base {} → this PR {} ({})\n",
                c.setting,
                c.base,
                c.head,
                c.applied.label()
            ));
        }
        for n in &review.notes {
            out.push_str(&format!("setting note    {n}\n"));
        }
    }
    if let Some(c) = &r.contract {
        out.push_str(&format!(
            "contract        {}\n",
            crate::report::contract::headline(c)
        ));
    }
    for n in &r.notices {
        out.push_str(&format!("note            {n}\n"));
    }
    for (k, v) in &r.outputs {
        out.push_str(&format!("{:<15} {v}\n", k));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn fences_outlast_backticks_in_the_text() {
        let f = super::fenced("a ```` b");
        assert!(f.ends_with("`````\n"), "{f}");
        assert!(f.starts_with("`````diff\n"), "{f}");
    }
}

//! `toolgate ci`'s report (`toolgate.ci/v1`, written as ci.json) and its renderers: one
//! Markdown renderer serves the job summary, the pull-request comment and comment.md; a short
//! terminal summary goes to the log.

use std::collections::BTreeMap;

use serde::Serialize;

use super::markdown::escape_cell;
use super::{LintReport, LintSummary, ReportFinding};
use crate::catalog::lock::LockDiff;
use crate::eval::RunFile;
use crate::eval::baseline::BaseComparison;
use crate::lint::Severity;
use crate::score::Rate;
use crate::score::compare::Delta;

pub const CI_SCHEMA: &str = "toolgate.ci/v1";
/// GitHub rejects comments over 65,536 characters; stay well under.
pub const COMMENT_MAX: usize = 60_000;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LockStatus {
    pub path: String,
    /// `match`, `changed`, `missing` or `off`.
    pub status: String,
    /// `fail`, `warn` or `off`.
    pub policy: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<LockDiff>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CiReport {
    pub schema_version: String,
    pub toolgate_version: String,
    /// `ok` here; `error` in the short ci.json written when toolgate could not finish.
    pub status: String,
    pub passed: bool,
    /// Why the gate failed (empty when it passed).
    pub reasons: Vec<String>,
    pub server: String,
    pub catalog_sha256: String,
    pub tools: usize,
    pub total_tokens: usize,
    pub lock: LockStatus,
    pub lint: LintSummary,
    /// `error`, `warning` or `never`.
    pub lint_fail_on: String,
    /// The task file, or where generated tasks were written.
    pub tasks: String,
    pub tasks_generated: bool,
    pub run: RunFile,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<BaseComparison>,
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

/// Text from a server or a user, made safe for a table cell in a PR comment: no table
/// breaks, no HTML, no @-mentions that would notify people.
fn text_cell(s: &str) -> String {
    escape_cell(s).replace('@', "@\u{2060}")
}

/// A name as inline code in a table cell (code spans need no HTML escaping).
fn code(s: &str) -> String {
    let s = s.replace('|', "\\|").replace(['\n', '\r'], " ");
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
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

/// A code fence longer than any backtick run inside `text`.
fn fenced(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}diff\n{}\n{fence}\n", text.trim_end())
}

fn rate_cell(r: &Rate) -> String {
    escape_cell(&r.show())
}

fn verdict_cell(d: &Delta) -> String {
    let mark = match d.verdict.as_str() {
        "better" => "🟢 better",
        "worse" => "🔴 worse",
        other => other,
    };
    format!(
        "{mark} (p={}; {} lost, {} gained)",
        p_value(d.p_adjusted),
        d.only_base,
        d.only_head
    )
}

fn headline(r: &CiReport) -> String {
    let first = r.run.results.first();
    let score = first
        .map(|m| format!(" — tool accuracy {:.1}%", m.metrics.accuracy.value * 100.0))
        .unwrap_or_default();
    let delta = r
        .first_comparison()
        .map(|c| {
            format!(
                " ({} vs base{})",
                signed_pts(c.overall.delta),
                match c.overall.verdict.as_str() {
                    "better" | "worse" => format!(", {}", c.overall.verdict),
                    _ => ", not significant".into(),
                }
            )
        })
        .unwrap_or_default();
    if r.passed {
        format!("## ✅ toolgate passed{score}{delta}\n\n")
    } else {
        format!("## ❌ toolgate failed{score}{delta}\n\n")
    }
}

fn scores(r: &CiReport, out: &mut String) {
    let cmp = r.comparison.as_ref().filter(|c| c.comparable);
    if let Some(c) = cmp {
        out.push_str("| model | base | this change | Δ | paired test (corrected) |\n|---|---|---|---:|---|\n");
        for m in &c.models {
            let d = &m.overall;
            out.push_str(&format!(
                "| {} | {} | **{}** | **{}** | {} |\n",
                code(&m.head_model),
                rate_cell(&d.base),
                rate_cell(&d.head),
                signed_pts(d.delta),
                verdict_cell(d)
            ));
        }
        if c.models.iter().any(|m| m.shared < 30) {
            out.push_str("\nFew shared tasks: only large differences can reach significance.\n");
        }
    } else {
        out.push_str("| model | tool accuracy | tasks | failures (confused / missed / false call / error) |\n|---|---|---:|---|\n");
        for m in &r.run.results {
            let x = &m.metrics;
            out.push_str(&format!(
                "| {} | **{}** | {} | {} / {} / {} / {} |\n",
                code(&m.model),
                rate_cell(&x.accuracy),
                x.n,
                x.confusions,
                x.missed_calls,
                x.false_calls,
                x.errors
            ));
        }
    }
    out.push('\n');
}

fn per_tool(r: &CiReport, out: &mut String) {
    let Some(c) = r.comparison.as_ref().filter(|c| c.comparable) else {
        return;
    };
    for m in &c.models {
        let mut moved: Vec<&Delta> = m
            .per_tool
            .iter()
            .filter(|d| d.only_base + d.only_head > 0)
            .collect();
        if moved.is_empty() {
            continue;
        }
        moved.sort_by(|a, b| {
            let sig = |d: &Delta| !matches!(d.verdict.as_str(), "better" | "worse");
            sig(a)
                .cmp(&sig(b))
                .then(b.delta.abs().total_cmp(&a.delta.abs()))
                .then(a.label.cmp(&b.label))
        });
        out.push_str(&format!(
            "### Tools whose scores moved{}\n\n| tool | n | base | this change | Δ | paired test (corrected) |\n|---|---:|---:|---:|---:|---|\n",
            if c.models.len() > 1 {
                format!(" ({})", code(&m.head_model))
            } else {
                String::new()
            }
        ));
        for d in moved.iter().take(20) {
            out.push_str(&format!(
                "| {} | {} | {:.1}% | {:.1}% | {} | {} |\n",
                code(&d.label),
                d.base.n,
                d.base.value * 100.0,
                d.head.value * 100.0,
                signed_pts(d.delta),
                verdict_cell(d)
            ));
        }
        if moved.len() > 20 {
            out.push_str(&format!(
                "\n…and {} more in report.html.\n",
                moved.len() - 20
            ));
        }
        let unchanged = m.per_tool.len() - moved.len();
        if unchanged > 0 {
            out.push_str(&format!(
                "\n{unchanged} other tool(s) scored exactly as on the base.\n"
            ));
        }
        out.push('\n');
    }
}

fn names(v: &[String]) -> String {
    v.iter().map(|n| code(n)).collect::<Vec<_>>().join(", ")
}

fn changed_summary(d: &LockDiff) -> String {
    let mut parts = Vec::new();
    if !d.added.is_empty() {
        parts.push(format!("added {}", names(&d.added)));
    }
    if !d.removed.is_empty() {
        parts.push(format!("removed {}", names(&d.removed)));
    }
    if !d.changed.is_empty() {
        let changed: Vec<String> = d
            .changed
            .iter()
            .map(|t| {
                let fields: Vec<String> = t
                    .changes
                    .iter()
                    .map(|c| c.pointer.trim_start_matches('/').to_string())
                    .take(3)
                    .collect();
                format!("{} ({})", code(&t.name), text_cell(&fields.join(", ")))
            })
            .collect();
        parts.push(format!("changed {}", changed.join(", ")));
    }
    if d.instructions_changed.is_some() {
        parts.push("changed the server instructions".into());
    }
    parts.join("; ")
}

fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => crate::catalog::canonical::to_canonical_string(other),
    }
}

/// A definition diff as unified-diff lines (`-` before, `+` after), which GitHub colours.
pub fn diff_lines(d: &LockDiff) -> String {
    let mut out = String::new();
    for n in &d.added {
        out.push_str(&format!("+ tool {n} (new)\n"));
    }
    for n in &d.removed {
        out.push_str(&format!("- tool {n} (removed)\n"));
    }
    for t in &d.changed {
        out.push_str(&format!("@@ {} @@\n", t.name));
        for c in &t.changes {
            out.push_str(&format!("  {}\n", c.pointer));
            if let Some(b) = &c.before {
                out.push_str(&format!("- {}\n", value_text(b).replace('\n', "\n- ")));
            }
            if let Some(a) = &c.after {
                out.push_str(&format!("+ {}\n", value_text(a).replace('\n', "\n+ ")));
            }
        }
    }
    if let Some((a, b)) = &d.instructions_changed {
        out.push_str("@@ server instructions @@\n");
        if let Some(a) = a {
            out.push_str(&format!("- {}\n", a.replace('\n', "\n- ")));
        }
        if let Some(b) = b {
            out.push_str(&format!("+ {}\n", b.replace('\n', "\n+ ")));
        }
    }
    out
}

fn definitions(r: &CiReport, out: &mut String) {
    let mut lines = Vec::new();
    let mut details = Vec::new();
    if let Some(c) = &r.comparison {
        match &c.definitions {
            Some(d) if d.is_empty() => {
                lines.push("No tool definition changed since the base.".to_string())
            }
            Some(d) => {
                lines.push(format!("Since the base: {}.", changed_summary(d)));
                details.push(("What changed since the base", diff_lines(d)));
            }
            None if !c.tools_added.is_empty() || !c.tools_removed.is_empty() => {
                lines.push(format!(
                    "Since the base: added {}; removed {}.",
                    names(&c.tools_added),
                    names(&c.tools_removed)
                ));
            }
            None => {}
        }
    }
    let l = &r.lock;
    match l.status.as_str() {
        "match" => lines.push(format!("🔒 {} matches the server.", code(&l.path))),
        "missing" => lines.push(format!(
            "No lock file at {}: run `toolgate pin` and commit it to catch unreviewed definition changes.",
            code(&l.path)
        )),
        "changed" => {
            if let Some(d) = &l.diff {
                lines.push(format!(
                    "{} The server differs from {}: {}. If that is intended, run `toolgate pin` and commit the lock.",
                    if l.policy == "fail" { "❌" } else { "⚠️" },
                    code(&l.path),
                    changed_summary(d)
                ));
                details.push(("What differs from the lock", diff_lines(d)));
            }
        }
        _ => {}
    }
    if lines.is_empty() {
        return;
    }
    out.push_str("### Tool definitions\n\n");
    for line in lines {
        out.push_str(&format!("- {line}\n"));
    }
    for (title, body) in details {
        out.push_str(&format!(
            "\n<details><summary>{title}</summary>\n\n{}\n</details>\n",
            fenced(&capped(&body))
        ));
    }
    out.push('\n');
}

fn finding_rows(findings: &[&ReportFinding], out: &mut String, max: usize) {
    let mut findings = findings.to_vec();
    // Errors first; the sort is stable, so rule order stays within a severity.
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out.push_str("| | rule | tool | finding |\n|---|---|---|---|\n");
    for f in findings.iter().take(max) {
        let icon = match f.severity {
            Severity::Error => "❌",
            Severity::Warning => "⚠️",
            Severity::Info => "ℹ️",
        };
        out.push_str(&format!(
            "| {icon} | [{}]({}) {} | {} | {} |\n",
            f.code,
            f.docs_url,
            f.slug,
            f.tool.as_deref().map(code).unwrap_or_default(),
            text_cell(&f.message)
        ));
    }
    if findings.len() > max {
        out.push_str(&format!(
            "\n…and {} more in lint.sarif / lint.json.\n",
            findings.len() - max
        ));
    }
}

/// The lint severity at which findings fail the gate, if any.
fn lint_threshold(r: &CiReport) -> Option<Severity> {
    match r.lint_fail_on.as_str() {
        "error" => Some(Severity::Error),
        "warning" => Some(Severity::Warning),
        _ => None,
    }
}

fn lint_section(r: &CiReport, lint: &LintReport, out: &mut String) {
    let s = &r.lint;
    out.push_str(&format!(
        "### Lint\n\n{} error(s), {} warning(s), {} info · {} tokens for {} tools · findings at or above `{}` fail the gate\n\n",
        s.errors, s.warnings, s.infos, r.total_tokens, r.tools, r.lint_fail_on
    ));
    // What fails the gate is always listed, base or not.
    let failing: Vec<&ReportFinding> = match lint_threshold(r) {
        Some(t) => lint.findings.iter().filter(|f| f.severity >= t).collect(),
        None => Vec::new(),
    };
    if !failing.is_empty() {
        out.push_str(&format!("**Failing the gate ({}):**\n\n", failing.len()));
        finding_rows(&failing, out, 15);
        out.push('\n');
    }
    let cmp = r.comparison.as_ref();
    match (
        cmp.and_then(|c| c.lint_new.as_ref()),
        cmp.and_then(|c| c.lint_resolved.as_ref()),
    ) {
        (Some(new), Some(resolved)) => {
            if new.is_empty() && resolved.is_empty() {
                out.push_str("No lint finding is new or resolved since the base.\n\n");
            }
            if !new.is_empty() {
                out.push_str(&format!("**New since the base ({}):**\n\n", new.len()));
                let v: Vec<&ReportFinding> = new.iter().collect();
                finding_rows(&v, out, 15);
                out.push('\n');
            }
            if !resolved.is_empty() {
                out.push_str(&format!(
                    "**Resolved since the base ({}):** {}\n\n",
                    resolved.len(),
                    resolved
                        .iter()
                        .take(15)
                        .map(|f| format!(
                            "{} {}",
                            f.code,
                            code(f.tool.as_deref().unwrap_or("catalog"))
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                if resolved.len() > 15 {
                    out.push_str(&format!("…and {} more.\n\n", resolved.len() - 15));
                }
            }
        }
        _ => {
            let v: Vec<&ReportFinding> = lint
                .findings
                .iter()
                .filter(|f| f.severity != Severity::Info)
                .filter(|f| !failing.iter().any(|g| std::ptr::eq(*g, *f)))
                .collect();
            if !v.is_empty() {
                // Without a base every finding is "current"; those that do not fail the gate
                // are folded.
                out.push_str(&format!(
                    "<details><summary>{} other finding(s)</summary>\n\n",
                    v.len()
                ));
                finding_rows(&v, out, 15);
                out.push_str("\n</details>\n\n");
            }
        }
    }
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

fn footer(r: &CiReport, out: &mut String) {
    let models: Vec<String> = r
        .run
        .models
        .iter()
        .map(|m| {
            if m.deterministic {
                format!("`{}`", m.spec)
            } else {
                format!("`{}` ×{} trials", m.spec, m.trials)
            }
        })
        .collect();
    let mut base = String::new();
    if let Some(c) = &r.comparison {
        base = format!(
            " · base {} (catalog {}…, suite {}…)",
            code(&c.base.display().to_string()),
            short(&c.base_catalog_sha256),
            short(&c.base_suite_sha256)
        );
    }
    out.push_str(&format!(
        "\n<sub>toolgate {} · {} · catalog sha256 {}… · {} tasks from {}{} (suite sha256 {}…) · {}{}{} · tool accuracy = share of tasks where the model called the intended tool (or rightly none), 95% Wilson intervals; changes use exact paired McNemar tests, Bonferroni-corrected.</sub>\n",
        r.toolgate_version,
        code(&r.server),
        short(&r.catalog_sha256),
        r.run.suite.tasks,
        code(&r.tasks),
        if r.tasks_generated { ", generated" } else { "" },
        short(&r.run.suite.sha256),
        models.join(", "),
        base,
        provenance(r.commit.as_deref(), r.run_url.as_deref())
    ));
}

/// The Markdown report: job summary, PR comment (after the marker) and summary.md. It is
/// built from whole sections and stays under [`COMMENT_MAX`]: a section that would not fit is
/// left out (later ones too) with a note, so Markdown is never cut in the middle.
pub fn markdown(r: &CiReport, lint: &LintReport, full_run: &str) -> String {
    let mut head = headline(r);
    if !r.passed {
        head.push_str("**Why the gate failed:**\n\n");
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
    let mut sections = vec![head];
    for render in [scores, per_tool, definitions] {
        let mut s = String::new();
        render(r, &mut s);
        sections.push(s);
    }
    let mut l = String::new();
    lint_section(r, lint, &mut l);
    sections.push(l);
    sections.push(format!(
        "<details><summary>Full run report (per-tool scores, confusion matrix)</summary>\n\n{}\n</details>\n",
        full_run.replacen("## toolgate run\n", "", 1)
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

/// The report when toolgate could not finish: what went wrong, so a reader never mistakes an
/// earlier comment for this run's.
pub fn error_markdown(error: &str, commit: Option<&str>, run_url: Option<&str>) -> String {
    let mut first = error.lines().next().unwrap_or_default().to_string();
    if first.len() > 300 {
        first = first.chars().take(300).collect::<String>() + "…";
    }
    format!(
        "## ⚠️ toolgate could not run\n\nThe gate did not decide anything for this commit (exit code 2): {}\n\n<details><summary>Error</summary>\n\n{}\n</details>\n\n<sub>toolgate {}{}</sub>\n",
        text_cell(&first),
        fenced(error).replacen("diff\n", "text\n", 1),
        env!("CARGO_PKG_VERSION"),
        provenance(commit, run_url)
    )
}

/// A few lines for the log.
pub fn terminal(r: &CiReport) -> String {
    let mut out = String::new();
    for m in &r.run.results {
        out.push_str(&format!(
            "tool accuracy   {}  {}\n",
            m.model,
            m.metrics.accuracy.show()
        ));
    }
    if let Some(c) = &r.comparison {
        if c.comparable {
            for m in &c.models {
                out.push_str(&format!(
                    "vs base         {} → {}  {}  {}\n",
                    m.overall.base.show(),
                    m.overall.head.show(),
                    signed_pts(m.overall.delta),
                    m.overall.verdict
                ));
            }
        }
        for n in &c.notes {
            out.push_str(&format!("base note       {n}\n"));
        }
    }
    out.push_str(&format!(
        "lock            {} ({})\nlint            {} error(s), {} warning(s), {} info\n",
        r.lock.status, r.lock.path, r.lint.errors, r.lint.warnings, r.lint.infos
    ));
    for n in &r.notices {
        out.push_str(&format!("note            {n}\n"));
    }
    for (k, v) in &r.outputs {
        out.push_str(&format!("{:<15} {v}\n", k));
    }
    out.push_str(&if r.passed {
        "gate            passed\n".to_string()
    } else {
        format!("gate            FAILED: {}\n", r.reasons.join("; "))
    });
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn fences_outlast_backticks_in_the_text() {
        let f = super::fenced("a ```` b");
        assert!(f.starts_with("`````diff\n"), "{f}");
    }
}

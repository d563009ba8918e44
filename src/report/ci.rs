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
}

fn short(s: &str) -> &str {
    &s[..12.min(s.len())]
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
        .comparison
        .as_ref()
        .and_then(|c| c.models.first())
        .filter(|c| c.shared > 0)
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
                "| `{}` | {} | **{}** | **{}** | {} |\n",
                escape_cell(&m.head_model),
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
                "| `{}` | **{}** | {} | {} / {} / {} / {} |\n",
                escape_cell(&m.model),
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
                format!(" (`{}`)", escape_cell(&m.head_model))
            } else {
                String::new()
            }
        ));
        for d in moved.iter().take(20) {
            out.push_str(&format!(
                "| `{}` | {} | {:.1}% | {:.1}% | {} | {} |\n",
                escape_cell(&d.label),
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
    v.iter()
        .map(|n| format!("`{}`", escape_cell(n)))
        .collect::<Vec<_>>()
        .join(", ")
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
                format!(
                    "`{}` ({})",
                    escape_cell(&t.name),
                    escape_cell(&fields.join(", "))
                )
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
        "match" => lines.push(format!("🔒 `{}` matches the server.", escape_cell(&l.path))),
        "missing" => lines.push(format!(
            "No lock file at `{}`: run `toolgate pin` and commit it to catch unreviewed definition changes.",
            escape_cell(&l.path)
        )),
        "changed" => {
            if let Some(d) = &l.diff {
                lines.push(format!(
                    "{} The server differs from `{}`: {}. If that is intended, run `toolgate pin` and commit the lock.",
                    if l.policy == "fail" { "❌" } else { "⚠️" },
                    escape_cell(&l.path),
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
            fenced(&body)
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
            f.tool
                .as_deref()
                .map(|t| format!("`{}`", escape_cell(t)))
                .unwrap_or_default(),
            escape_cell(&f.message)
        ));
    }
    if findings.len() > max {
        out.push_str(&format!(
            "\n…and {} more in lint.sarif / lint.json.\n",
            findings.len() - max
        ));
    }
}

fn lint_section(r: &CiReport, lint: &LintReport, out: &mut String) {
    let s = &r.lint;
    out.push_str(&format!(
        "### Lint\n\n{} error(s), {} warning(s), {} info · {} tokens for {} tools · findings at or above `{}` fail the gate\n\n",
        s.errors, s.warnings, s.infos, r.total_tokens, r.tools, r.lint_fail_on
    ));
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
                            "{} `{}`",
                            f.code,
                            escape_cell(f.tool.as_deref().unwrap_or("catalog"))
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
                .collect();
            if !v.is_empty() {
                // Without a base every finding is "current"; fold them unless they fail the gate.
                let open = r.lint.errors > 0 && r.lint_fail_on != "never";
                out.push_str(&format!(
                    "<details{}><summary>{} finding(s)</summary>\n\n",
                    if open { " open" } else { "" },
                    v.len()
                ));
                finding_rows(&v, out, 15);
                out.push_str("\n</details>\n\n");
            }
        }
    }
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
            " · base `{}` (catalog {}…, suite {}…)",
            escape_cell(&c.base.display().to_string()),
            short(&c.base_catalog_sha256),
            short(&c.base_suite_sha256)
        );
    }
    out.push_str(&format!(
        "\n<sub>toolgate {} · `{}` · catalog sha256 {}… · {} tasks from `{}`{} (suite sha256 {}…) · {}{} · tool accuracy = share of tasks where the model called the intended tool (or rightly none), 95% Wilson intervals; changes use exact paired McNemar tests, Bonferroni-corrected.</sub>\n",
        r.toolgate_version,
        escape_cell(&r.server),
        short(&r.catalog_sha256),
        r.run.suite.tasks,
        escape_cell(&r.tasks),
        if r.tasks_generated { ", generated" } else { "" },
        short(&r.run.suite.sha256),
        models.join(", "),
        base
    ));
}

/// The Markdown report: job summary, PR comment (after the marker) and comment.md.
pub fn markdown(r: &CiReport, lint: &LintReport, full_run: &str) -> String {
    let mut out = headline(r);
    if !r.passed {
        out.push_str("**Why the gate failed:**\n\n");
        for reason in &r.reasons {
            out.push_str(&format!("- {}\n", escape_cell(reason)));
        }
        out.push('\n');
    }
    if let Some(c) = &r.comparison {
        for n in &c.notes {
            out.push_str(&format!("> {}\n", escape_cell(n)));
        }
        if !c.notes.is_empty() {
            out.push('\n');
        }
    }
    for n in &r.notices {
        out.push_str(&format!("> note: {}\n", escape_cell(n)));
    }
    if !r.notices.is_empty() {
        out.push('\n');
    }
    scores(r, &mut out);
    per_tool(r, &mut out);
    definitions(r, &mut out);
    lint_section(r, lint, &mut out);
    let mut tail = String::new();
    footer(r, &mut tail);
    let details = format!(
        "<details><summary>Full run report (per-tool scores, confusion matrix)</summary>\n\n{}\n</details>\n",
        full_run.replacen("## toolgate run\n", "", 1)
    );
    if out.len() + details.len() + tail.len() < COMMENT_MAX {
        out.push_str(&details);
    }
    if out.len() + tail.len() > COMMENT_MAX {
        let mut cut = COMMENT_MAX - tail.len() - 200;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push_str("\n\n…cut to fit a GitHub comment: see report.html for everything.\n");
    }
    out.push_str(&tail);
    out
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

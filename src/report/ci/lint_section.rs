//! The "Lint" section: what fails the gate, always; new and resolved findings against a base.

use super::CiReport;
use super::cells::text_cell;
use crate::gate::LintFailOn;
use crate::lint::Severity;
use crate::report::markdown::code;
use crate::report::{LintReport, ReportFinding};

fn finding_rows(findings: &[&ReportFinding], out: &mut String, max: usize) {
    let mut findings = findings.to_vec();
    // Errors first; the sort is stable, so rule order stays within a severity.
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out.push_str("| | rule | tool | finding |\n|---|---|---|---|\n");
    // One problem in many tools (a shared definition) is one row.
    let shown = crate::lint::report::grouped(&findings);
    let rows = shown.len();
    for s in shown.iter().take(max) {
        let f = s.first;
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
            match s.tools.len() {
                1 => f.tool.as_deref().map(code).unwrap_or_default(),
                n => format!("{n} tools"),
            },
            text_cell(&s.message)
        ));
    }
    if rows > max {
        out.push_str(&format!(
            "\n…and {} more in lint.sarif / lint.json.\n",
            rows - max
        ));
    }
}

/// The lint severity at which findings fail the gate, if any.
fn lint_threshold(r: &CiReport) -> Option<Severity> {
    match r.lint_fail_on {
        LintFailOn::Error => Some(Severity::Error),
        LintFailOn::Warning => Some(Severity::Warning),
        LintFailOn::Never => None,
    }
}

pub(super) fn lint_section(r: &CiReport, lint: &LintReport, out: &mut String) {
    let s = &r.lint;
    out.push_str(&format!(
        "### Lint\n\n{} error(s), {} warning(s), {} info · {} tokens for {} tools · findings at or above `{}` fail the gate\n\n",
        s.errors, s.warnings, s.infos, r.total_tokens, r.tools, r.lint_fail_on.as_str()
    ));
    crate::report::markdown::accepted_rows(lint, out);
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
    let delta = r.lint_delta.as_ref().map(|d| {
        (
            d.introduced.as_slice(),
            d.resolved.as_slice(),
            Some(d.against.as_str()),
        )
    });
    let delta = delta.or_else(|| {
        match (
            cmp.and_then(|c| c.lint_new.as_ref()),
            cmp.and_then(|c| c.lint_resolved.as_ref()),
        ) {
            (Some(n), Some(r)) => Some((n.as_slice(), r.as_slice(), None)),
            _ => None,
        }
    });
    match delta {
        Some((new, resolved, against)) => {
            let against = against
                .map(|a| format!(" (against {})", super::cells::text_cell(a)))
                .unwrap_or_default();
            if new.is_empty() && resolved.is_empty() {
                out.push_str(&format!(
                    "No lint finding is introduced or resolved by this change{against}.\n\n"
                ));
            }
            if !new.is_empty() {
                let gate = match r.fail_on_new {
                    crate::gate::LintFailOn::Never => String::new(),
                    f => format!(
                        "; those at or above `{}` fail the gate (`--fail-on-new`)",
                        f.as_str()
                    ),
                };
                out.push_str(&format!(
                    "**Introduced by this change ({}){against}{gate}:**\n\n",
                    new.len()
                ));
                let v: Vec<&ReportFinding> = new.iter().collect();
                finding_rows(&v, out, 15);
                out.push('\n');
            }
            if !resolved.is_empty() {
                out.push_str(&format!(
                    "**Resolved by this change ({}):** {}\n\n",
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

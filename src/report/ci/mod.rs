//! `toolgate ci`'s report (`toolgate.ci/v1`, written as ci.json) and its renderers: one
//! Markdown renderer serves the job summary, the pull-request comment and comment.md; a short
//! terminal summary goes to the log.

use super::LintReport;
pub(crate) use crate::record::ci::{CI_SCHEMA, CiReport, CiStatus};

/// GitHub rejects comments over 65,536 characters; stay well under.
pub(crate) const COMMENT_MAX: usize = 60_000;

pub(crate) mod at_risk;
mod cells;
use cells::{signed_pts, text_cell};
mod definitions;
mod footer;
use footer::footer;
mod error;
mod headline;
mod lint_section;
mod settings_section;
pub(crate) use error::error_markdown;
use settings_section::settings_section;
mod scores;
use headline::headline;

use scores::{ablation, per_tool, scores};

use definitions::definitions;
use lint_section::lint_section;

/// The Markdown report: job summary, PR comment (after the marker) and summary.md. It is
/// built from whole sections and stays under [`COMMENT_MAX`]: a section that would not fit is
/// left out (later ones too) with a note, so Markdown is never cut in the middle.
pub(crate) fn markdown(r: &CiReport, lint: &LintReport, full_run: &str) -> String {
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
pub(crate) fn terminal(r: &CiReport) -> String {
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
    for (k, v) in r.outputs.iter() {
        out.push_str(&format!("{:<15} {v}\n", k));
    }
    out
}

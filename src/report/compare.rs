//! `toolgate compare`'s report: caveats, then one table per model pair (terminal or Markdown
//! from one layout).

use super::markdown::{code, escape_cell};
use super::table::{Align, Style, Table};
use crate::record::{RunFile, RunStatus};
use crate::score::compare::{Delta, ModelComparison};

fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

fn signed(v: f64) -> String {
    format!(
        "{}{:.1} pts",
        if v >= 0.0 { "+" } else { "−" },
        v.abs() * 100.0
    )
}

fn p(v: f64) -> String {
    if v < 0.001 {
        format!("{v:.1e}")
    } else {
        format!("{v:.3}")
    }
}

/// Notes on what makes the comparison shaky (other catalog, other suite, partial runs).
pub(crate) fn caveats(a: &RunFile, b: &RunFile) -> Vec<String> {
    let mut out = Vec::new();
    if a.suite.sha256 != b.suite.sha256 {
        out.push(format!(
            "the runs used different task suites ({} vs {}): only the tasks both ran are compared",
            a.suite.path, b.suite.path
        ));
    }
    if a.catalog.sha256 != b.catalog.sha256 {
        out.push(
            "the tool catalogs differ (expected: a description change is what is being measured)"
                .into(),
        );
    }
    for (name, r) in [("base", a), ("head", b)] {
        if r.status != RunStatus::Complete {
            out.push(format!(
                "the {name} run is {}: its numbers are not final",
                r.status
            ));
        }
    }
    out
}

fn row(d: &Delta, style: Style) -> Vec<String> {
    vec![
        match style {
            Style::Markdown => code(&d.label),
            Style::Terminal => d.label.clone(),
        },
        d.base.n.to_string(),
        pct(d.base.value),
        pct(d.head.value),
        signed(d.delta),
        format!("{}/{}", d.only_base, d.only_head),
        p(d.p_adjusted),
        d.verdict.to_string(),
    ]
}

pub(crate) fn render(a: &RunFile, b: &RunFile, cmps: &[ModelComparison], style: Style) -> String {
    let md = style == Style::Markdown;
    let mut out = String::new();
    if md {
        out.push_str("### toolgate compare\n\n");
    }
    for c in caveats(a, b) {
        let c = if md { escape_cell(&c) } else { c };
        out.push_str(&format!("{}note: {c}\n", if md { "> " } else { "" }));
    }
    for c in cmps {
        let (bm, hm) = if md {
            (code(&c.base_model), code(&c.head_model))
        } else {
            (c.base_model.clone(), c.head_model.clone())
        };
        out.push_str(&format!(
            "\n{}{bm} → {hm} on {}; exact McNemar over tasks, Bonferroni over {} comparisons, α = {}{}\n\n",
            if md { "**" } else { "" },
            shared_text(c),
            c.comparisons,
            c.alpha,
            if md { "**" } else { "" },
        ));
        let mut t = Table::new(
            &[
                "",
                "n",
                "before",
                "after",
                "Δ",
                "only before/after",
                "p (corrected)",
                "verdict",
            ],
            &[
                Align::Left,
                Align::Right,
                Align::Right,
                Align::Right,
                Align::Right,
                Align::Right,
                Align::Right,
                Align::Left,
            ],
        );
        for d in std::iter::once(&c.overall).chain(&c.per_tool) {
            t.row(row(d, style));
        }
        out.push_str(&t.render(style));
        if c.shared_tasks < 30 {
            out.push_str(&format!(
                "\nWith {} paired tasks, only large differences can reach significance.\n",
                c.shared_tasks
            ));
        }
    }
    out
}

/// "12 paired tasks", or "12 paired tasks (36 task×trial pairs)" when tasks ran several trials.
fn shared_text(c: &ModelComparison) -> String {
    if c.shared == c.shared_tasks {
        format!("{} paired tasks", c.shared_tasks)
    } else {
        format!(
            "{} paired tasks ({} task×trial pairs)",
            c.shared_tasks, c.shared
        )
    }
}

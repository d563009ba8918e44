//! The run report's tables: per tool (one layout for terminal and Markdown) and the confusion
//! matrix.

use crate::report::markdown::code;
use crate::report::table::{Align, Style, Table};
use crate::score::Metrics;

/// The per-tool score's column heading: a model's accuracy, or how often a search found the
/// tool first.
pub(crate) fn per_tool_heading(model: &str) -> &'static str {
    if crate::record::metric::is_router(model) {
        "found first (recall)"
    } else {
        "accuracy (recall)"
    }
}

/// Per tool: n, the score (recall) with its interval, precision and F1.
pub(crate) fn per_tool_table(model: &str, m: &Metrics, style: Style) -> String {
    let mut t = Table::new(
        &["tool", "n", per_tool_heading(model), "precision", "F1"],
        &[
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
        ],
    );
    for x in &m.per_tool {
        t.row(vec![
            match style {
                Style::Markdown => code(&x.tool),
                Style::Terminal => {
                    crate::report::terminal::cell(&crate::report::terminal::plain(&x.tool), 36)
                        .trim_end()
                        .to_string()
                }
            },
            x.support.to_string(),
            if crate::report::belt::is_server_row(x) {
                format!("— (belt server, {} call(s))", x.precision.n)
            } else if x.support == 0 {
                "—".into()
            } else {
                format!(
                    "{:.1}% [{:.0}, {:.0}]",
                    x.accuracy.value * 100.0,
                    x.accuracy.lo * 100.0,
                    x.accuracy.hi * 100.0
                )
            },
            if crate::report::belt::is_server_row(x) {
                "—".into()
            } else {
                precision_cell(&x.precision)
            },
            if crate::report::belt::is_server_row(x) {
                "—".into()
            } else if x.support == 0 && x.precision.n == 0 {
                "n/a".into()
            } else {
                format!("{:.2}", x.f1)
            },
        ]);
    }
    t.render(style)
}

/// A tool's precision with its (task-clustered) interval and n, "n/a" when it was never
/// called.
pub(crate) fn precision_cell(r: &crate::score::Rate) -> String {
    if r.n == 0 {
        "n/a (never called)".into()
    } else {
        format!(
            "{:.1}% [{:.0}, {:.0}] (n={})",
            r.value * 100.0,
            r.lo * 100.0,
            r.hi * 100.0,
            r.n
        )
    }
}

/// Most tools shown in a rendered confusion matrix; larger catalogs fold the rest.
pub(crate) const MATRIX_MAX: usize = 30;

/// The confusion matrix as a Markdown table (rows expected, columns called).
pub(crate) fn matrix_markdown(m: &Metrics) -> String {
    let (rows, cols, cells) = m.matrix_view(MATRIX_MAX);
    let mut out = String::from("| expected \\ called |");
    for c in &cols {
        out.push_str(&format!(" {} |", code(c)));
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(cols.len()));
    out.push('\n');
    for row in &rows {
        if !cols
            .iter()
            .any(|c| cells.contains_key(&(row.clone(), c.clone())))
        {
            continue;
        }
        out.push_str(&format!("| **{}** |", code(row)));
        for c in &cols {
            let v = cells.get(&(row.clone(), c.clone())).copied().unwrap_or(0);
            let cellv = if v == 0 {
                String::new()
            } else if c == row {
                format!("**{v}**")
            } else {
                v.to_string()
            };
            out.push_str(&format!(" {cellv} |"));
        }
        out.push('\n');
    }
    out
}

//! The belt's short form for the PR comment and job summary, and how per-tool tables spot a
//! belt server's folded row.

use super::belt_line;
use crate::record::RunFile;
use crate::report::markdown::{code, escape_cell};

/// A short form for the PR comment: per model, accuracy in the belt, alone, and who took
/// your tasks.
pub(crate) fn comment(run: &RunFile) -> String {
    let Some(b) = &run.belt else {
        return String::new();
    };
    let mut out = format!(
        "### In the belt {}\n\n{}.\n\n| model | {} in the belt | alone | taken by belt servers | top takers |\n|---|---:|---:|---:|---|\n",
        code(&b.spec),
        crate::record::metric::name_of_all(b.scores.iter().map(|s| s.model.as_str())),
        escape_cell(&belt_line(run, b))
    );
    for s in &b.scores {
        let acc = s
            .shares
            .first()
            .and_then(|x| x.accuracy)
            .map(|a| a.show())
            .unwrap_or_default();
        let alone = s
            .alone
            .as_ref()
            .map(|a| format!("{} — belt: {}", a.overall.base.show(), a.overall.verdict))
            .unwrap_or_else(|| "— (a second run)".into());
        let top: Vec<String> = s
            .by_server
            .iter()
            .filter(|t| t.rate.k > 0)
            .take(3)
            .map(|t| format!("{} {}", code(&t.server), t.rate.k))
            .collect();
        out.push_str(&format!(
            "| {} | {acc} | {alone} | {} | {} |\n",
            code(&s.model),
            s.taken.show(),
            top.join(", ")
        ));
    }
    out.push('\n');
    out
}

/// The PR comment's belt section (a `toolgate ci` report section).
pub(crate) fn ci_section(r: &crate::report::ci::CiReport, out: &mut String) {
    out.push_str(&comment(&r.run));
}

/// True for a per-tool row that folds a belt server's tools (`github/*`, no task of yours
/// expects it): tables show its calls instead of an accuracy.
pub(crate) fn is_server_row(t: &crate::score::metrics::ToolMetrics) -> bool {
    t.support == 0 && t.tool.ends_with("/*")
}

/// `toolgate ci`'s log lines: per model, what the belt took and the accuracy alone.
pub(crate) fn ci_terminal(run: &RunFile) -> String {
    use crate::report::terminal::plain;
    let Some(b) = &run.belt else {
        return String::new();
    };
    let mut out = String::new();
    for s in &b.scores {
        let top: Vec<String> = s
            .by_server
            .iter()
            .filter(|t| t.rate.k > 0)
            .take(3)
            .map(|t| format!("{} {}", plain(&t.server), t.rate.k))
            .collect();
        out.push_str(&format!(
            "in the belt     {} {}: taken {}{}{}\n",
            plain(&b.spec),
            plain(&s.model),
            s.taken.show(),
            if top.is_empty() {
                String::new()
            } else {
                format!(" ({})", top.join(", "))
            },
            s.alone
                .as_ref()
                .map(|a| format!("; alone {} ({})", a.overall.base.show(), a.overall.verdict))
                .unwrap_or_default()
        ));
    }
    out
}

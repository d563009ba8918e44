//! Parts of the run report shared by its terminal and Markdown forms: usage, the legend, the
//! header, errors by cause, unasked writes and wrong arguments.

use crate::record::RunFile;
use crate::record::run::RunStatus;
use crate::report::markdown::{code, escape_cell};
use crate::score::Metrics;

/// Tokens, latency and cache use in one line.
pub(super) fn usage_line(u: &crate::record::run::Usage) -> String {
    format!(
        "{} decisions ({} from the cache), {} prompt + {} completion tokens, latency p50 {} ms, p95 {} ms",
        u.decisions,
        u.cached,
        u.prompt_tokens,
        u.completion_tokens,
        u.latency_p50_ms,
        u.latency_p95_ms
    )
}

/// How to read the numbers: what the brackets are, and what each model spec means.
pub(crate) fn legend(run: &RunFile) -> Vec<String> {
    let mut out =
        vec!["Brackets are 95% Wilson intervals; n counts the decisions scored.".to_string()];
    for m in &run.models {
        if let Some(rest) = m.spec.strip_prefix("bm25:")
            && let Ok(v) = rest.parse::<f64>()
        {
            out.push(format!("{}.", crate::models::bm25::Bm25::explain(v)));
        }
    }
    if let Some(seed) = run.seed {
        out.push(format!("Seed {seed}."));
    }
    out
}

pub(super) fn header(run: &RunFile) -> String {
    let smoke = smoke_line(run)
        .map(|s| format!(" · {s}"))
        .unwrap_or_default();
    format!(
        "catalog {} ({} tools, sha256 {}…) · tasks {} ({} tasks, {} split, sha256 {}…) · {}",
        run.catalog.source,
        run.catalog.tools.len(),
        crate::catalog::canonical::short_hash(&run.catalog.sha256),
        run.suite.path,
        run.suite.tasks,
        run.split,
        crate::catalog::canonical::short_hash(&run.suite.sha256),
        if run.status == RunStatus::Complete {
            run.status.to_string()
        } else {
            format!(
                "{} — numbers are NOT final",
                run.status.to_string().to_uppercase()
            )
        }
    ) + &smoke
}

/// For a suite with unreviewed tasks: what its numbers are (and are not).
pub(crate) fn smoke_line(run: &RunFile) -> Option<String> {
    (!run.suite.reviewed()).then(|| {
        format!(
            "SMOKE SUITE: {} of {} task(s) are not reviewed ({}), so these numbers are a smoke test, not a measure; review the file and `toolgate approve` it",
            run.suite.pending,
            run.suite.tasks,
            crate::record::gate::unreviewed_why(run.suite.pending, run.suite.stale)
        )
    })
}

/// Errors by cause, with the first error in full, for the terminal.
pub(super) fn errors_terminal(m: &Metrics) -> String {
    let mut out = String::new();
    if m.errors == 0 {
        return out;
    }
    let causes: Vec<String> = m
        .errors_by_cause
        .iter()
        .map(|(c, n)| format!("{n}× {c}"))
        .collect();
    out.push_str(&format!("errors by cause    {}\n", causes.join(", ")));
    if let Some(e) = &m.first_error {
        out.push_str(&format!(
            "first error        {}\n",
            crate::report::terminal::plain(e)
        ));
    }
    out
}

/// Unasked writes and wrong arguments, for the terminal.
pub(super) fn problems_terminal(m: &Metrics) -> String {
    let mut out = String::new();
    if m.unasked_writes > 0 {
        out.push_str(&format!(
            "unasked writes     {} (a tool that may write was called along with the intended one)\n",
            m.unasked_writes
        ));
    }
    if m.unasked_unannotated > 0 {
        out.push_str(&format!(
            "unannotated calls  {} (an unasked tool with no readOnlyHint, assumed to write: annotate it)\n",
            m.unasked_unannotated
        ));
    }
    for a in m.argument_problems.iter().take(SHOWN_TERMINAL) {
        out.push_str(&format!(
            "wrong arguments    {} `{}`: {}{}\n",
            crate::report::terminal::plain(&a.task_id),
            crate::report::terminal::plain(&a.tool),
            layer_prefix(a),
            crate::report::terminal::plain(&a.problems.join("; "))
        ));
    }
    let shown = m.argument_problems.len().min(SHOWN_TERMINAL);
    if argument_problems_total(m) > shown {
        let where_ = if m.argument_problems.len() > shown {
            " (report.md and run.json list more)"
        } else {
            ""
        };
        out.push_str(&format!(
            "wrong arguments    …and {} more{where_}\n",
            argument_problems_total(m) - shown
        ));
    }
    out
}

/// How many right-tool calls had wrong arguments: every one, not only the rows kept.
pub(crate) fn argument_problems_total(m: &Metrics) -> usize {
    (m.attribution.argument_problems as usize).max(m.argument_problems.len())
}

/// "invalid (schema): " or "wrong value: " before a problem's notes (nothing for runs of
/// older toolgates, which did not record the layer).
pub(crate) fn layer_prefix(a: &crate::score::metrics::ArgumentProblem) -> String {
    a.layer
        .map(|l| format!("{}: ", l.label()))
        .unwrap_or_default()
}

/// Lines of a list the terminal shows before it says how many more there are.
pub(super) const SHOWN_TERMINAL: usize = 10;
/// Rows of a list report.md shows before it says how many more there are.
pub(super) const SHOWN_MARKDOWN: usize = 50;

/// Unasked writes and unannotated calls: a label and a sentence each (Markdown and HTML
/// render the same words).
pub(crate) fn unasked_sentences(m: &Metrics) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if m.unasked_writes > 0 {
        out.push((
            "Unasked writes",
            format!(
                "{} task(s) where a tool whose annotations say it may write was called, unasked, before, after or beside the intended one; they count as failures.",
                m.unasked_writes
            ),
        ));
    }
    if m.unasked_unannotated > 0 {
        out.push((
            "Unannotated calls",
            format!(
                "{} task(s) where an unasked tool with no `readOnlyHint` was called along with the intended one. MCP says to assume such a tool may write, so they count as failures; if the tool only reads, set `readOnlyHint: true`.",
                m.unasked_unannotated
            ),
        ));
    }
    out
}

/// Unasked writes and wrong arguments, for Markdown.
pub(super) fn problems_markdown(m: &Metrics) -> String {
    let mut out = String::new();
    for (label, text) in unasked_sentences(m) {
        out.push_str(&format!("\n**{label}:** {text}\n"));
    }
    if !m.argument_problems.is_empty() {
        out.push_str("\n**Wrong arguments** (right tool)\n\n| task | tool | layer | what was wrong |\n|---|---|---|---|\n");
        for a in m.argument_problems.iter().take(SHOWN_MARKDOWN) {
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                code(&a.task_id),
                code(&a.tool),
                a.layer.map(|l| l.label()).unwrap_or("–"),
                crate::report::markdown::message(&a.problems.join("; "))
            ));
        }
        let shown = m.argument_problems.len().min(SHOWN_MARKDOWN);
        if argument_problems_total(m) > shown {
            out.push_str(&format!(
                "\n…and {} more (each trial's grade is in outcomes.jsonl).\n",
                argument_problems_total(m) - shown
            ));
        }
    }
    out
}

/// Errors by cause, with the first error in full, for Markdown.
pub(super) fn errors_markdown(m: &Metrics) -> String {
    if m.errors == 0 {
        return String::new();
    }
    let mut out = String::from(
        "\n**Errors by cause** (never scored as confusions)\n\n| cause | count |\n|---|---:|\n",
    );
    for (c, n) in &m.errors_by_cause {
        out.push_str(&format!("| {} | {n} |\n", escape_cell(c)));
    }
    if let Some(e) = &m.first_error {
        out.push_str(&format!("\nFirst error: {}\n", code(e)));
    }
    out
}

/// Why the model's endpoint was stopped before the run ended, in a sentence every sink
/// shows; `None` when it was not.
pub(crate) fn stopped_line(info: &crate::record::run::ModelInfo) -> Option<String> {
    info.stopped
        .as_ref()
        .map(|c| format!("endpoint stopped, run partial: {c}"))
}

/// The description probe's outcome for an LLM (passed, failed or could not check), in a
/// sentence every sink shows; `None` for a model the probe does not apply to.
pub(crate) fn probe_line(info: &crate::record::run::ModelInfo) -> Option<String> {
    if info.deterministic {
        return None;
    }
    Some(match &info.descriptions {
        None => "description probe: could not check (the run holds no probe result)".into(),
        Some(p) => format!(
            "description probe: {} — {}",
            p.outcome.label(),
            p.why.clone().unwrap_or_else(|| format!(
                "the model called the described tool with the descriptions as written and swapped ({})",
                p.picked.join(", then ")
            ))
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::metrics::ArgumentProblem;

    /// Issue 41: a list that is cut says how many more there are.
    #[test]
    fn cut_lists_say_how_many_more() {
        let m = Metrics {
            argument_problems: (0..23)
                .map(|i| ArgumentProblem {
                    task_id: format!("t{i}"),
                    tool: "edit_file".into(),
                    layer: Some(crate::score::grade::ArgsLayer::Values),
                    problems: vec!["`oldText` differs".into()],
                })
                .collect(),
            ..Default::default()
        };
        let t = problems_terminal(&m);
        assert_eq!(t.matches("wrong arguments    t").count(), SHOWN_TERMINAL);
        assert!(t.contains("…and 13 more"), "{t}");
        assert!(t.contains("`edit_file`: wrong value: `oldText`"), "{t}");
        let md = problems_markdown(&m);
        assert!(!md.contains("more"), "23 rows fit: {md}");
        // Only the first rows are kept in the metrics; the count says how many there were.
        let mut m = m;
        m.attribution.argument_problems = 80;
        let t = problems_terminal(&m);
        assert!(t.contains("…and 70 more"), "{t}");
        let md = problems_markdown(&m);
        assert!(md.contains("…and 57 more"), "{md}");
        // Every row of the table has the header's four cells.
        for line in md.lines().filter(|l| l.starts_with('|')) {
            let cells = line.matches('|').count() - line.matches("\\|").count();
            assert_eq!(cells, 5, "{line}");
        }
    }
}

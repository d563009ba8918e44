//! Run reports for a terminal and in Markdown (one renderer serves job summaries, PR comments
//! and report.md).

use crate::eval::RunFile;
use crate::eval::run_file::RunStatus;
use crate::report::markdown::{code, escape_cell};
use crate::report::terminal::cell;
use crate::score::Rate;
use crate::score::metrics::Metrics;

fn pct(r: &Rate) -> String {
    r.show()
}

/// Tokens, latency and cache use in one line.
fn usage_line(u: &crate::eval::run_file::Usage) -> String {
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
fn legend(run: &RunFile) -> Vec<String> {
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

fn header(run: &RunFile) -> String {
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
    )
}

/// Errors by cause, with the first error in full, for the terminal.
fn errors_terminal(m: &Metrics) -> String {
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
fn problems_terminal(m: &Metrics) -> String {
    let mut out = String::new();
    if m.unasked_writes > 0 {
        out.push_str(&format!(
            "unasked writes     {} (a tool that may write was called before the intended one)\n",
            m.unasked_writes
        ));
    }
    for a in m.argument_problems.iter().take(10) {
        out.push_str(&format!(
            "wrong arguments    {} `{}`: {}\n",
            crate::report::terminal::plain(&a.task_id),
            crate::report::terminal::plain(&a.tool),
            crate::report::terminal::plain(&a.problems.join("; "))
        ));
    }
    out
}

/// Unasked writes and wrong arguments, for Markdown.
fn problems_markdown(m: &Metrics) -> String {
    let mut out = String::new();
    if m.unasked_writes > 0 {
        out.push_str(&format!(
            "\n**Unasked writes:** {} task(s) where a tool that may write (not marked read-only) was called before the intended one; they count as failures.\n",
            m.unasked_writes
        ));
    }
    if !m.argument_problems.is_empty() {
        out.push_str("\n**Wrong arguments** (right tool)\n\n| task | tool | what was wrong |\n|---|---|---|\n");
        for a in &m.argument_problems {
            out.push_str(&format!(
                "| {} | {} | {} |\n",
                code(&a.task_id),
                code(&a.tool),
                crate::report::markdown::message(&a.problems.join("; "))
            ));
        }
    }
    out
}

/// Errors by cause, with the first error in full, for Markdown.
fn errors_markdown(m: &Metrics) -> String {
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

pub fn terminal(run: &RunFile) -> String {
    let mut out = format!("{}\n", header(run));
    for r in &run.results {
        let m = &r.metrics;
        out.push_str(&format!("\n== {}\n", r.model));
        if let Some(info) = run.models.iter().find(|i| i.spec == r.model) {
            if !info.served_by.is_empty() {
                out.push_str(&format!(
                    "served by          {}\n",
                    info.served_by.join(", ")
                ));
            }
            for n in &info.notes {
                out.push_str(&format!("note               {n}\n"));
            }
            if let Some(u) = &info.usage {
                out.push_str(&format!("usage              {}\n", usage_line(u)));
            }
        }
        out.push_str(&format!("tool accuracy      {}\n", pct(&m.accuracy)));
        for (k, rate) in &m.by_kind {
            out.push_str(&format!("  {:<16} {}\n", k, pct(rate)));
        }
        for (k, rate) in &m.by_split {
            out.push_str(&format!("  split {:<10} {}\n", k, pct(rate)));
        }
        out.push_str(&format!(
            "outcomes           {} confusions, {} missed calls, {} false calls, {} errors (of {})\n",
            m.confusions, m.missed_calls, m.false_calls, m.errors, m.n
        ));
        if let (Some(all), Some(cons)) = (&m.pass_all, &m.consistency) {
            out.push_str(&format!(
                "every trial       {}  (pass^k)\nconsistent tasks  {}  (all trials agree)\n",
                pct(all),
                pct(cons)
            ));
        }
        out.push_str(&errors_terminal(m));
        out.push_str(&problems_terminal(m));
        out.push_str(&format!(
            "abstention         precision {}  recall {}\n",
            pct(&m.abstention_precision),
            pct(&m.abstention_recall)
        ));
        if m.args_valid.n > 0 {
            out.push_str(&format!(
                "arguments          valid {}  correct {}\n",
                pct(&m.args_valid),
                pct(&m.args_correct)
            ));
        }
        for p in m.preconditions.iter().take(10) {
            out.push_str(&format!(
                "precondition       {} before {}: {} of {} trials{}\n",
                p.before,
                p.tool,
                p.rate.k,
                p.rate.n,
                if p.undeclared {
                    format!(
                        " — UNDECLARED (the description of {} never mentions {})",
                        p.tool, p.before
                    )
                } else {
                    String::new()
                }
            ));
        }
        let a = &m.attribution;
        out.push_str(&format!(
            "failures           {} description confusion, {} argument problems, {} model mechanics, {} no call, {} false call\n",
            a.description_confusion, a.argument_problems, a.model_mechanics, a.no_call, a.false_call
        ));
        for (id, said) in a.no_call_replies.iter().take(3) {
            out.push_str(&format!(
                "  said instead ({id}): {}\n",
                cell(said, 100).trim_end()
            ));
        }
        let w = m
            .per_tool
            .iter()
            .map(|t| t.tool.chars().count())
            .max()
            .unwrap_or(4)
            .clamp(4, 36);
        out.push_str(&format!(
            "\n{}  {:>3}  {:>26}  {:>9}  {:>5}\n",
            cell("tool", w),
            "n",
            "accuracy (recall)",
            "precision",
            "F1"
        ));
        for t in &m.per_tool {
            out.push_str(&format!(
                "{}  {:>3}  {:>26}  {:>8.1}%  {:>5.2}\n",
                cell(&t.tool, w),
                t.support,
                if t.support == 0 {
                    "—".into()
                } else {
                    format!(
                        "{:.1}% [{:.0}, {:.0}]",
                        t.accuracy.value * 100.0,
                        t.accuracy.lo * 100.0,
                        t.accuracy.hi * 100.0
                    )
                },
                t.precision.value * 100.0,
                t.f1
            ));
        }
        if !m.most_confused.is_empty() {
            out.push_str("\nmost confused (expected → called):\n");
            for p in &m.most_confused {
                out.push_str(&format!(
                    "  {:>3}×  {} → {}\n",
                    p.count, p.expected, p.called
                ));
                for (id, req) in p.examples.iter().take(2) {
                    out.push_str(&format!("        {id}: {}\n", cell(req, 100).trim_end()));
                }
            }
        }
    }
    out.push('\n');
    for l in legend(run) {
        out.push_str(&format!("{l}\n"));
    }
    if let Some(g) = &run.gate {
        out.push_str(&format!(
            "\ngate: {}\n",
            if g.passed {
                "passed".to_string()
            } else {
                format!("FAILED — {}", g.reasons.join("; "))
            }
        ));
    }
    out
}

/// Most tools shown in a rendered confusion matrix; larger catalogs fold the rest.
pub const MATRIX_MAX: usize = 30;

/// The confusion matrix as a Markdown table (rows expected, columns called).
pub fn matrix_markdown(m: &Metrics) -> String {
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

/// The run report in Markdown (report.md).
pub fn markdown(run: &RunFile) -> String {
    format!("## toolgate run\n{}", markdown_body(run))
}

/// [`markdown`] without its heading, to nest in another report (the PR comment).
pub fn markdown_body(run: &RunFile) -> String {
    let mut out = format!("\n{}\n", escape_cell(&header(run)));
    for r in &run.results {
        let m = &r.metrics;
        out.push_str(&format!("\n### {}\n\n", code(&r.model)));
        if let Some(info) = run.models.iter().find(|i| i.spec == r.model) {
            if !info.served_by.is_empty() {
                out.push_str(&format!(
                    "Served by {}.\n\n",
                    escape_cell(&info.served_by.join(", "))
                ));
            }
            for n in &info.notes {
                out.push_str(&format!("> note: {}\n\n", escape_cell(n)));
            }
            if let Some(u) = &info.usage {
                out.push_str(&format!("Usage: {}.\n\n", usage_line(u)));
            }
        }
        out.push_str("| metric | value |\n|---|---|\n");
        out.push_str(&format!(
            "| **tool accuracy** | **{}** |\n",
            pct(&m.accuracy)
        ));
        for (k, rate) in &m.by_kind {
            out.push_str(&format!("| {k} | {} |\n", pct(rate)));
        }
        for (k, rate) in &m.by_split {
            out.push_str(&format!("| split {k} | {} |\n", pct(rate)));
        }
        out.push_str(&format!(
            "| confusions / missed / false calls / errors | {} / {} / {} / {} (of {}) |\n",
            m.confusions, m.missed_calls, m.false_calls, m.errors, m.n
        ));
        out.push_str(&format!(
            "| abstention precision | {} |\n| abstention recall | {} |\n",
            pct(&m.abstention_precision),
            pct(&m.abstention_recall)
        ));
        if m.args_valid.n > 0 {
            out.push_str(&format!(
                "| arguments valid | {} |\n| arguments correct | {} |\n",
                pct(&m.args_valid),
                pct(&m.args_correct)
            ));
        }
        if let (Some(all), Some(cons)) = (&m.pass_all, &m.consistency) {
            out.push_str(&format!(
                "\nSolved in every trial (pass^k): {} · tasks whose trials all agree: {}. Intervals count tasks, not trials.\n",
                pct(all),
                pct(cons)
            ));
        }
        out.push_str(&errors_markdown(m));
        out.push_str(&problems_markdown(m));
        let a = &m.attribution;
        out.push_str(&format!(
            "| failures: description confusion / arguments / model mechanics / no call / false call | {} / {} / {} / {} / {} |\n",
            a.description_confusion, a.argument_problems, a.model_mechanics, a.no_call, a.false_call
        ));
        out.push_str("\n| tool | n | accuracy | precision | F1 |\n|---|---:|---|---:|---:|\n");
        for t in &m.per_tool {
            out.push_str(&format!(
                "| {} | {} | {} | {:.1}% | {:.2} |\n",
                code(&t.tool),
                t.support,
                if t.support == 0 {
                    "—".into()
                } else {
                    pct(&t.accuracy)
                },
                t.precision.value * 100.0,
                t.f1
            ));
        }
        if !m.preconditions.is_empty() {
            out.push_str("\n**Observed preconditions** (tool called before the intended one)\n\n| before | intended | trials | declared |\n|---|---|---|---|\n");
            for p in m.preconditions.iter().take(10) {
                out.push_str(&format!(
                    "| {} | {} | {} | {} |\n",
                    code(&p.before),
                    code(&p.tool),
                    pct(&p.rate),
                    if p.declared {
                        "yes"
                    } else if p.undeclared {
                        "**no — undeclared**"
                    } else {
                        "no"
                    }
                ));
            }
        }
        if !m.most_confused.is_empty() {
            out.push_str("\n**Most confused** (expected → called)\n\n");
            for p in &m.most_confused {
                let ex: Vec<String> = p
                    .examples
                    .iter()
                    .take(2)
                    .map(|(id, q)| format!("{} “{}”", code(id), escape_cell(q)))
                    .collect();
                out.push_str(&format!(
                    "- {}× {} → {}: {}\n",
                    p.count,
                    code(&p.expected),
                    code(&p.called),
                    ex.join("; ")
                ));
            }
        }
        out.push_str("\n<details><summary>Confusion matrix</summary>\n\n");
        out.push_str(&matrix_markdown(m));
        out.push_str("\n</details>\n");
    }
    out.push_str(&format!(
        "\n<sub>{}</sub>\n",
        escape_cell(&legend(run).join(" "))
    ));
    if let Some(g) = &run.gate {
        out.push_str(&format!(
            "\n**Gate:** {}\n",
            if g.passed {
                "passed ✅".to_string()
            } else {
                format!(
                    "failed ❌ — {}",
                    crate::report::markdown::message(&g.reasons.join("; "))
                )
            }
        ));
    }
    out
}

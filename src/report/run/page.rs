//! The run report in Markdown (report.md, and nested in the PR comment): per model how it
//! was run, its rates, failures, per-tool table, preconditions, most-confused pairs and
//! confusion matrix; then the belt, the legend and the gate.

use super::sections::{self, *};
use super::{ablation, curve};
use super::{estimate_line, findability, pct};
use super::{matrix_markdown, per_tool_table};
use crate::record::RunFile;
use crate::report::markdown::{code, escape_cell};
use crate::report::table::Style;

/// The run report in Markdown (report.md).
pub(crate) fn markdown(run: &RunFile) -> String {
    // The ablation check and the curve are their own sections of the PR comment, so they are
    // not nested here.
    format!(
        "## toolgate run\n{}{}{}",
        markdown_body(run),
        ablation::markdown(run),
        curve::markdown(run)
    )
}

/// [`markdown`] without its heading, to nest in another report (the PR comment).
pub(crate) fn markdown_body(run: &RunFile) -> String {
    let mut out = format!("\n{}\n", escape_cell(&header(run)));
    if let Some(r) = &run.reused {
        out.push_str(&format!("\n> {}\n", escape_cell(&r.sentence())));
    }
    for r in &run.results {
        out.push_str(&model_markdown(run, r));
    }
    out.push_str(&crate::report::belt::section(run, Style::Markdown));
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

/// One model's section.
fn model_markdown(run: &RunFile, r: &crate::record::ModelResult) -> String {
    let m = &r.metrics;
    let mut out = String::new();
    out.push_str(&format!("\n### {}\n\n", code(&r.model)));
    if let Some(info) = run.models.iter().find(|i| i.spec == r.model) {
        out.push_str(&info_markdown(info));
    }
    out.push_str(&rates_markdown(&r.model, m));
    if let (Some(all), Some(cons)) = (&m.pass_all, &m.consistency) {
        out.push_str(&format!(
            "\nSolved in every trial (pass^k): {} · tasks whose trials all agree: {}. Intervals count tasks, not trials.\n",
            pct(all),
            pct(cons)
        ));
    }
    let a = &m.attribution;
    // Its own paragraph: a table row here would join whichever table came last.
    out.push_str(&format!("\n**Failures by cause:** {}\n", a.sentence()));
    out.push_str(&errors_markdown(m));
    out.push_str(&problems_markdown(m));
    out.push('\n');
    out.push_str(&per_tool_table(&r.model, m, Style::Markdown));
    out.push_str(&findability::markdown(m));
    out.push_str(&preconditions_markdown(m));
    out.push_str(&confused_markdown(m));
    out.push_str("\n<details><summary>Confusion matrix</summary>\n\n");
    out.push_str(&matrix_markdown(m));
    out.push_str("\n</details>\n");
    out
}

/// How a model was run: what served it, why it stopped, the description probe, notes, the
/// cost estimate and usage.
fn info_markdown(info: &crate::record::run::ModelInfo) -> String {
    let mut out = String::new();
    if !info.served_by.is_empty() {
        out.push_str(&format!(
            "Served by {}.\n\n",
            escape_cell(&info.served_by.join(", "))
        ));
    }
    if let Some(l) = stopped_line(info) {
        out.push_str(&format!("**{}**\n\n", escape_cell(&l)));
    }
    if let Some(l) = probe_line(info) {
        out.push_str(&format!("**{}**\n\n", escape_cell(&l)));
    }
    for n in &info.notes {
        out.push_str(&format!("> note: {}\n\n", escape_cell(n)));
    }
    if let Some(e) = &info.estimate {
        out.push_str(&format!(
            "Estimated before the run: {}.\n\n",
            estimate_line(e)
        ));
    }
    if let Some(u) = &info.usage {
        out.push_str(&format!("Usage: {}.\n\n", usage_line(u)));
    }
    out
}

/// The model's rates as a table: the headline, by kind and split, outcomes, abstention,
/// retrieval and arguments.
fn rates_markdown(model: &str, m: &crate::score::Metrics) -> String {
    let mut out = String::new();
    out.push_str("| metric | value |\n|---|---|\n");
    out.push_str(&format!(
        "| **{}** | **{}** |\n",
        crate::record::metric::name(model),
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
        "| abstention precision | {} |\n| abstention recall | {} |\n{}",
        pct(&m.abstention_precision),
        pct(&m.abstention_recall),
        m.retrieval
            .as_ref()
            .map(|r| {
                let mut rows: String = r
                    .overall
                    .recall
                    .iter()
                    .map(|(k, rate)| format!("| recall@{k} | {} |\n", pct(rate)))
                    .collect();
                rows.push_str(&format!(
                    "| MRR@10 | {} |\n| nDCG@10 | {} |\n",
                    r.overall.mrr.show(),
                    r.overall.ndcg.show()
                ));
                rows
            })
            .unwrap_or_default()
    ));
    if m.args_valid.n > 0 {
        out.push_str(&format!(
            "| arguments valid | {} |\n| arguments correct | {} |\n",
            pct(&m.args_valid),
            pct(&m.args_correct)
        ));
    }
    out
}

/// Tools called before the intended one (the first few; every one is in run.json).
fn preconditions_markdown(m: &crate::score::Metrics) -> String {
    let mut out = String::new();
    if !m.preconditions.is_empty() {
        out.push_str("\n**Observed preconditions** (tool called before the intended one)\n\n| before | intended | trials | declared |\n|---|---|---|---|\n");
        for p in m.preconditions.iter().take(sections::SHOWN_MARKDOWN) {
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
        if m.preconditions.len() > sections::SHOWN_MARKDOWN {
            out.push_str(&format!(
                "\n…and {} more (every one is in run.json).\n",
                m.preconditions.len() - sections::SHOWN_MARKDOWN
            ));
        }
    }
    out
}

/// The most-confused pairs, with two example requests each.
fn confused_markdown(m: &crate::score::Metrics) -> String {
    let mut out = String::new();
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
    out
}

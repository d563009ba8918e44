//! Run reports for a terminal and in Markdown (one renderer serves job summaries, PR comments
//! and report.md).

use crate::record::RunFile;

use crate::report::table::Style;

pub(crate) mod ablation;
pub(crate) mod curve;
pub(crate) mod findability;
mod page;
mod sections;
pub(crate) use sections::{
    argument_problems_total, legend, probe_line, smoke_line, stopped_line, unasked_sentences,
};
mod tables;

use crate::report::terminal::{cell, plain};
use crate::score::Rate;
pub(crate) use page::{markdown, markdown_body};
use sections::*;
pub(crate) use tables::{matrix_markdown, per_tool_heading, per_tool_table, precision_cell};

/// Tokens, latency and cache use in one line.
pub(crate) fn usage_text(u: &crate::record::run::Usage) -> String {
    usage_line(u)
}

/// The estimate made before the run, in a few words.
fn estimate_line(e: &crate::record::run::Estimate) -> String {
    let usd = match e.usd {
        Some(u) if u > 0.0 => format!(", ≈ ${u:.2} at list price"),
        Some(_) => ", no per-token price".into(),
        None => String::new(),
    };
    format!(
        "{} calls, ~{} prompt + ~{} reply tokens{usd}",
        e.calls, e.prompt_tokens, e.completion_tokens
    )
}

fn pct(r: &Rate) -> String {
    r.show()
}

pub(crate) fn terminal(run: &RunFile) -> String {
    let mut out = format!("{}\n", header(run));
    if let Some(r) = &run.reused {
        out.push_str(&format!("{}\n", r.sentence()));
    }
    for r in &run.results {
        out.push_str(&model_terminal(run, r));
    }
    out.push_str(&crate::report::belt::section(run, Style::Terminal));
    out.push_str(&curve::terminal(run));
    out.push_str(&ablation::terminal(run));
    out.push('\n');
    for l in legend(run) {
        out.push_str(&format!("{l}\n"));
    }
    if let Some(g) = &run.gate {
        let p = crate::report::style::palette();
        out.push_str(&format!(
            "\ngate: {}\n",
            if g.passed {
                p.verdict(true, "passed")
            } else {
                format!(
                    "{} — {}",
                    p.verdict(false, "FAILED"),
                    plain(&g.reasons.join("; "))
                )
            }
        ));
    }
    out
}

/// One model's part of the terminal report.
fn model_terminal(run: &RunFile, r: &crate::record::ModelResult) -> String {
    let m = &r.metrics;
    let mut out = String::new();
    out.push_str(&format!("\n== {}\n", r.model));
    if let Some(info) = run.models.iter().find(|i| i.spec == r.model) {
        out.push_str(&info_terminal(info));
    }
    out.push_str(&format!(
        "{:<19}{}\n",
        crate::record::metric::name(&r.model),
        pct(&m.accuracy)
    ));
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
    if let Some(r) = &m.retrieval {
        for (k, rate) in &r.overall.recall {
            out.push_str(&format!("recall@{k:<10} {}\n", pct(rate)));
        }
        out.push_str(&format!(
            "MRR@10             {}\nnDCG@10            {}\n",
            r.overall.mrr.show(),
            r.overall.ndcg.show()
        ));
        out.push_str(&findability::terminal(m));
    }
    if m.args_valid.n > 0 {
        out.push_str(&format!(
            "arguments          valid {}  correct {}\n",
            pct(&m.args_valid),
            pct(&m.args_correct)
        ));
    }
    out.push_str(&preconditions_terminal(m));
    let a = &m.attribution;
    out.push_str(&format!("failures           {}\n", a.sentence()));
    for (id, said) in a.no_call_replies.iter().take(3) {
        out.push_str(&format!(
            "  said instead ({}): {}\n",
            plain(id),
            cell(&plain(said), 100).trim_end()
        ));
    }
    out.push('\n');
    out.push_str(&per_tool_table(&r.model, m, Style::Terminal));
    out.push_str(&confused_terminal(m));
    out
}

/// How a model was run: what served it, why it stopped, the description probe, notes, the
/// cost estimate and usage.
fn info_terminal(info: &crate::record::run::ModelInfo) -> String {
    let mut out = String::new();
    if !info.served_by.is_empty() {
        out.push_str(&format!(
            "served by          {}\n",
            info.served_by.join(", ")
        ));
    }
    if let Some(l) = stopped_line(info) {
        out.push_str(&format!("stopped            {}\n", plain(&l)));
    }
    if let Some(l) = probe_line(info) {
        out.push_str(&format!("probe              {}\n", plain(&l)));
    }
    for n in &info.notes {
        out.push_str(&format!("note               {}\n", plain(n)));
    }
    if let Some(e) = &info.estimate {
        out.push_str(&format!("estimated          {}\n", estimate_line(e)));
    }
    if let Some(u) = &info.usage {
        out.push_str(&format!("usage              {}\n", usage_line(u)));
    }
    out
}

/// Tools called before the intended one (the first few; every one is in run.json).
fn preconditions_terminal(m: &crate::score::Metrics) -> String {
    let mut out = String::new();
    if m.preconditions.len() > sections::SHOWN_TERMINAL {
        out.push_str(&format!(
            "precondition       {} observed; the first {} follow (every one is in run.json)\n",
            m.preconditions.len(),
            sections::SHOWN_TERMINAL
        ));
    }
    for p in m.preconditions.iter().take(sections::SHOWN_TERMINAL) {
        out.push_str(&format!(
            "precondition       {} before {}: {} of {} trials{}\n",
            plain(&p.before),
            plain(&p.tool),
            p.rate.k,
            p.rate.n,
            if p.undeclared {
                format!(
                    " — UNDECLARED (the description of {} never mentions {})",
                    plain(&p.tool),
                    plain(&p.before)
                )
            } else {
                String::new()
            }
        ));
    }
    out
}

/// The most-confused pairs, with two example requests each.
fn confused_terminal(m: &crate::score::Metrics) -> String {
    let mut out = String::new();
    if !m.most_confused.is_empty() {
        out.push_str("\nmost confused (expected → called):\n");
        for p in &m.most_confused {
            out.push_str(&format!(
                "  {:>3}×  {} → {}\n",
                p.count,
                plain(&p.expected),
                plain(&p.called)
            ));
            for (id, req) in p.examples.iter().take(2) {
                let (id, req) = (plain(id), plain(req));
                out.push_str(&format!("        {id}: {}\n", cell(&req, 100).trim_end()));
            }
        }
    }
    out
}

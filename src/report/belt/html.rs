//! The "In the belt" section of report.html: every server-sourced string through `esc`.

use super::{belt_line, no_tool_example, no_tool_line, outcome_rows, verdict_line};
use crate::record::RunFile;
use crate::report::escape::esc;
use crate::score::Rate;
use crate::score::belt::BeltScore;

fn ci(r: &Rate) -> String {
    if r.n == 0 {
        return "—".into();
    }
    format!(
        "{:.1}% <span class=muted>[{:.1}–{:.1}] n={}</span>",
        r.value * 100.0,
        r.lo * 100.0,
        r.hi * 100.0,
        r.n
    )
}

fn model_block(run: &RunFile, s: &BeltScore) -> String {
    let mut out = format!(
        "<h3>Model <code>{}</code></h3><table><thead><tr><th>your tasks that expect a tool (n={})</th><th>rate</th></tr></thead><tbody>",
        esc(&s.model),
        s.tool_tasks
    );
    for (l, r) in outcome_rows(s) {
        out.push_str(&format!(
            "<tr><td>{l}</td><td class=num>{}</td></tr>",
            ci(r)
        ));
    }
    out.push_str("</tbody></table>");
    out.push_str(&format!("<p>{}", esc(&no_tool_line(s))));
    if let Some((req, srv, tool)) = no_tool_example(s) {
        out.push_str(&format!(
            " A belt tool may serve a request your server cannot — e.g. “{}” went to <code>{}/{}</code> — so these are counted apart, not as plain false calls.",
            esc(&req),
            esc(&srv),
            esc(&tool)
        ));
    }
    out.push_str("</p><p>Share of decisions: ");
    let shares: Vec<String> = s
        .shares
        .iter()
        .map(|x| {
            format!(
                "<code>{}</code>{} {}{}",
                esc(&x.server),
                if x.own { " (yours)" } else { "" },
                ci(&x.share),
                x.accuracy
                    .as_ref()
                    .map(|a| format!(", {} {}", crate::record::metric::name(&s.model), ci(a)))
                    .unwrap_or_default()
            )
        })
        .collect();
    out.push_str(&shares.join(" · "));
    out.push_str("</p>");
    if !s.by_server.is_empty() {
        out.push_str("<h4>Tasks taken by other servers</h4><table class=taken><thead><tr><th>server</th><th>n</th><th>rate</th><th>no-tool</th><th>its tools</th><th>requests it took</th></tr></thead><tbody>");
        for b in &s.by_server {
            let tools: Vec<String> = b
                .tools
                .iter()
                .map(|c| format!("<code>{}</code> ×{}", esc(&c.tool), c.count))
                .collect();
            let ex: Vec<String> = b
                .examples
                .iter()
                .map(|e| {
                    format!(
                        "<div><code>{}</code> {} <span class=muted>({} → <code>{}</code>)</span></div>",
                        esc(&e.task_id),
                        esc(&e.request),
                        e.expected
                            .as_ref()
                            .map(|x| format!("expected <code>{}</code>", esc(x)))
                            .unwrap_or_else(|| "no tool of yours fits".into()),
                        esc(&e.tool)
                    )
                })
                .collect();
            out.push_str(&format!(
                "<tr><td><code>{}</code></td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&b.server),
                b.rate.k,
                ci(&b.rate),
                b.no_tool,
                tools.join(", "),
                ex.join("")
            ));
        }
        out.push_str("</tbody></table>");
    }
    out.push_str("<h4>Your catalog alone vs in the belt</h4>");
    match &s.alone {
        None => out.push_str(&format!(
            "<p>Not measured for <code>{}</code> ({}). To compare, run the same tasks without <code>--belt</code> into another folder and <code>toolgate compare ALONE_DIR THIS_DIR</code>.</p>",
            esc(&s.model),
            super::why_not_alone(run, &s.model)
        )),
        Some(a) => {
            out.push_str("<table class=alone><thead><tr><th></th><th>alone</th><th>in the belt</th></tr></thead><tbody>");
            out.push_str(&format!(
                "<tr><td>{}</td><td class=num>{}</td><td class=num>{}</td></tr>",
                crate::record::metric::name(&s.model),
                ci(&a.overall.base),
                ci(&a.overall.head)
            ));
            if let (Some(x), Some(y)) = (&a.retrieval_alone, &a.retrieval_belt) {
                for (m, l, r) in super::retrieval_rows(x, y) {
                    out.push_str(&format!(
                        "<tr><td>{}</td><td class=num>{}</td><td class=num>{}</td></tr>",
                        esc(&m),
                        esc(&l),
                        esc(&r)
                    ));
                }
            }
            out.push_str(&format!(
                "</tbody></table><p>{}</p>",
                esc(&verdict_line(a))
            ));
        }
    }
    out
}

/// The section; empty for a run without a belt.
pub(crate) fn html(run: &RunFile) -> String {
    let Some(b) = &run.belt else {
        return String::new();
    };
    let mut out = format!(
        "<section id=belt><h2>In the belt <code>{}</code></h2><p>{}.</p>",
        esc(&b.spec),
        esc(&belt_line(run, b))
    );
    for s in &b.skipped {
        out.push_str(&format!("<p class=muted>Left out: {}.</p>", esc(s)));
    }
    out.push_str("<details><summary>The belt's servers</summary><ul>");
    for s in &b.servers {
        out.push_str(&format!(
            "<li><code>{}</code> — {} tools</li>",
            esc(&s.name),
            s.tools
        ));
    }
    out.push_str("</ul></details>");
    for s in &b.scores {
        out.push_str(&model_block(run, s));
    }
    out.push_str("</section>");
    out
}

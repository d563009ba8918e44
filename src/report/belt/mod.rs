//! The "In the belt" section of a run report (`--belt`): the belt, where your tasks went
//! (right tool, another of yours, taken by a belt server), the tasks other servers took with
//! their requests, each server's share of the decisions, and your catalog alone against the
//! belt. One renderer for the terminal and Markdown (report.md, the job summary, the PR
//! comment), one for HTML. Every name and request came from a server or a task file: each is
//! escaped for its sink.

mod comment;
mod html;

#[cfg(test)]
use comment::comment;
pub(crate) use comment::{ci_section, ci_terminal, is_server_row};
pub(crate) use html::html;

use crate::eval::belt::BeltInfo;
use crate::record::RunFile;
use crate::report::markdown::{code, escape_cell};
use crate::report::table::{Align, Style, Table};
use crate::report::terminal::{cell, plain};
use crate::score::Rate;
use crate::score::belt::{AloneVsBelt, BeltScore, TakenBy};
use crate::score::retrieval::RetrievalScores;

/// Belt servers listed in the "taken" table, at most (the rest are summed up in a line).
pub(crate) const SERVERS_MAX: usize = 12;

/// Server-sent text on one terminal line: controls shown escaped, line breaks as spaces.
fn one_line(s: &str) -> String {
    plain(&s.replace(['\n', '\r', '\t'], " "))
}

/// A name (tool, server, model, task id) for the sink.
fn name(style: Style, s: &str) -> String {
    match style {
        Style::Markdown => code(s),
        Style::Terminal => one_line(s),
    }
}

/// Free text (a request) for the sink, cut to `w` characters.
fn text(style: Style, s: &str, w: usize) -> String {
    let s = cell(&one_line(s), w).trim_end().to_string();
    match style {
        Style::Markdown => escape_cell(&s),
        Style::Terminal => s,
    }
}

/// `35 servers, 479 tools beside your 12 (name)`.
pub(crate) fn belt_line(run: &RunFile, b: &BeltInfo) -> String {
    format!(
        "{} tools of {} servers beside your {} ({})",
        b.tool_count(),
        b.servers.len(),
        run.catalog.tools.len().saturating_sub(b.tool_count()),
        b.own
    )
}

fn outcome_rows(s: &BeltScore) -> [(&'static str, &Rate); 5] {
    [
        ("right tool", &s.right),
        ("another of your tools", &s.other_own),
        ("taken by a belt server", &s.taken),
        ("nothing called", &s.missed),
        ("errors", &s.errors),
    ]
}

fn no_tool_line(s: &BeltScore) -> String {
    let n = &s.no_tool;
    format!(
        "No-tool requests ({}): {} left alone, {} false calls to your tools, {} answered by a belt tool{}.",
        n.n,
        n.abstained,
        n.own_call,
        n.belt_call,
        if n.errors > 0 {
            format!(", {} errors", n.errors)
        } else {
            String::new()
        }
    )
}

/// The first no-tool request a belt tool answered, as an example of a legitimate route.
fn no_tool_example(s: &BeltScore) -> Option<(String, String, String)> {
    s.by_server.iter().find_map(|t| {
        t.examples
            .iter()
            .find(|e| e.expected.is_none())
            .map(|e| (e.request.clone(), t.server.clone(), e.tool.clone()))
    })
}

fn tools_of(style: Style, t: &TakenBy) -> String {
    let shown: Vec<String> = t
        .tools
        .iter()
        .take(3)
        .map(|c| format!("{} ×{}", name(style, &c.tool), c.count))
        .collect();
    let more = t.tools.len().saturating_sub(3);
    if more > 0 {
        format!("{}, +{more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

fn taken_table(style: Style, s: &BeltScore) -> String {
    let mut t = Table::new(
        &["server", "n", "rate [95% CI]", "no-tool", "its tools"],
        &[
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Left,
        ],
    );
    for b in s.by_server.iter().take(SERVERS_MAX) {
        t.row(vec![
            name(style, &b.server),
            b.rate.k.to_string(),
            b.rate.show(),
            b.no_tool.to_string(),
            tools_of(style, b),
        ]);
    }
    let mut out = t.render(style);
    let rest = s.by_server.len().saturating_sub(SERVERS_MAX);
    if rest > 0 {
        out.push_str(&format!("…and {rest} more server(s) (see run.json).\n"));
    }
    out
}

fn examples(style: Style, s: &BeltScore) -> String {
    let mut out = String::new();
    for b in s.by_server.iter().take(SERVERS_MAX) {
        for e in &b.examples {
            let what = match &e.expected {
                Some(x) => format!("expected {}", name(style, x)),
                None => "no tool of yours fits".to_string(),
            };
            let line = format!(
                "{}: “{}” ({what}) → {}/{}",
                name(style, &e.task_id),
                text(style, &e.request, 110),
                name(style, &b.server),
                name(style, &e.tool)
            );
            out.push_str(&match style {
                Style::Markdown => format!("- {line}\n"),
                Style::Terminal => format!("  {line}\n"),
            });
        }
    }
    out
}

fn shares_line(style: Style, s: &BeltScore) -> String {
    let parts: Vec<String> = s
        .shares
        .iter()
        .map(|x| {
            let acc = x
                .accuracy
                .as_ref()
                .map(|a| format!(", {} {}", crate::record::metric::name(&s.model), a.show()))
                .unwrap_or_default();
            format!(
                "{}{} {}{acc}",
                name(style, &x.server),
                if x.own { " (yours)" } else { "" },
                x.share.show()
            )
        })
        .collect();
    format!("Share of decisions: {}.", parts.join(" · "))
}

fn retrieval_rows(a: &RetrievalScores, b: &RetrievalScores) -> Vec<(String, String, String)> {
    let mut rows: Vec<(String, String, String)> = a
        .recall
        .iter()
        .map(|(k, r)| {
            (
                format!("recall@{k}"),
                r.show(),
                b.recall.get(k).map(Rate::show).unwrap_or_default(),
            )
        })
        .collect();
    rows.push(("MRR@10".into(), a.mrr.show(), b.mrr.show()));
    rows.push(("nDCG@10".into(), a.ndcg.show(), b.ndcg.show()));
    rows
}

/// The paired verdict in words.
pub(crate) fn verdict_line(a: &AloneVsBelt) -> String {
    let d = &a.overall;
    format!(
        "{:+.1} pts in the belt: {} task(s) right alone but not in the belt, {} the other way; exact McNemar p = {:.3} (Bonferroni-adjusted {:.3}): {}.",
        d.delta * 100.0,
        d.only_base,
        d.only_head,
        d.p,
        d.p_adjusted,
        d.verdict
    )
}

/// Why a model has no alone-vs-belt comparison.
pub(crate) fn why_not_alone(run: &RunFile, model: &str) -> &'static str {
    let deterministic = run
        .models
        .iter()
        .any(|m| m.spec == model && m.deterministic);
    if model
        .parse::<crate::models::ModelSpec>()
        .is_ok_and(|m| m.is_replay())
    {
        "a replay's decisions were made in the belt"
    } else if deterministic {
        "a run merged from shards does not carry it"
    } else {
        "its decisions cost calls"
    }
}

fn alone_block(style: Style, run: &RunFile, s: &BeltScore) -> String {
    let Some(a) = &s.alone else {
        return format!(
            "Alone vs in the belt: not measured for {} ({}). To compare, run the same tasks without `--belt` into another folder and `toolgate compare ALONE_DIR THIS_DIR`.\n",
            name(style, &s.model),
            why_not_alone(run, &s.model)
        );
    };
    let mut t = Table::new(
        &["", "your catalog alone", "in the belt"],
        &[Align::Left, Align::Right, Align::Right],
    );
    t.row(vec![
        crate::record::metric::name(&s.model).into(),
        a.overall.base.show(),
        a.overall.head.show(),
    ]);
    if let (Some(x), Some(y)) = (&a.retrieval_alone, &a.retrieval_belt) {
        for (m, l, r) in retrieval_rows(x, y) {
            t.row(vec![m, l, r]);
        }
    }
    let mut out = t.render(style);
    if style == Style::Markdown {
        out.push('\n');
    }
    out.push_str(&verdict_line(a));
    out.push('\n');
    if !a.losers.is_empty() {
        let l: Vec<String> = a
            .losers
            .iter()
            .map(|d| {
                format!(
                    "{} −{}",
                    name(style, &d.label),
                    d.only_base.saturating_sub(d.only_head)
                )
            })
            .collect();
        out.push_str(&format!(
            "Where the belt cost you tasks (lost − gained, by expected tool): {}.\n",
            l.join(", ")
        ));
    }
    out
}

/// The section for the terminal or Markdown; empty for a run without a belt.
pub(crate) fn section(run: &RunFile, style: Style) -> String {
    let Some(b) = &run.belt else {
        return String::new();
    };
    let md = style == Style::Markdown;
    let mut out = if md {
        format!(
            "\n### In the belt {}\n\n{}.\n",
            code(&b.spec),
            escape_cell(&belt_line(run, b))
        )
    } else {
        format!(
            "\n== in the belt {}: {}\n",
            plain(&b.spec),
            plain(&belt_line(run, b))
        )
    };
    for s in &b.skipped {
        out.push_str(&format!("Left out: {}.\n", text(style, s, 200)));
    }
    for s in &b.scores {
        out.push_str(&if md {
            format!("\n#### {}\n\n", code(&s.model))
        } else {
            format!("\n-- {}\n", plain(&s.model))
        });
        let mut t = Table::new(
            &[
                &format!("your tasks that expect a tool (n={})", s.tool_tasks),
                "rate [95% CI]",
            ],
            &[Align::Left, Align::Right],
        );
        for (l, r) in outcome_rows(s) {
            t.row(vec![l.to_string(), r.show()]);
        }
        out.push_str(&t.render(style));
        if md {
            out.push('\n');
        }
        out.push_str(&format!("{}\n", no_tool_line(s)));
        if let Some((req, srv, tool)) = no_tool_example(s) {
            out.push_str(&format!(
                "A belt tool may serve a request your server cannot — e.g. “{}” went to {}/{} — so these are counted apart, not as plain false calls.\n",
                text(style, &req, 100),
                name(style, &srv),
                name(style, &tool)
            ));
        }
        out.push_str(&format!("{}\n", shares_line(style, s)));
        if !s.by_server.is_empty() {
            out.push_str(if md {
                "\n**Tasks taken by other servers**\n\n"
            } else {
                "\ntasks taken by other servers:\n"
            });
            out.push_str(&taken_table(style, s));
            out.push_str(if md {
                "\n<details><summary>Requests they took</summary>\n\n"
            } else {
                "requests they took:\n"
            });
            out.push_str(&examples(style, s));
            if md {
                out.push_str("\n</details>\n");
            }
        }
        out.push_str(if md {
            "\n**Your catalog alone vs in the belt**\n\n"
        } else {
            "\nalone vs in the belt:\n"
        });
        out.push_str(&alone_block(style, run, s));
    }
    out
}

#[cfg(test)]
mod tests;

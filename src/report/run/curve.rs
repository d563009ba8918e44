//! The distractor curve in the run reports: the breaking point per model and draw and a
//! compact table (size → accuracy [95% CI] per draw) for the terminal, Markdown (report.md,
//! job summary, PR comment) and HTML (with the SVG chart).

use crate::record::RunFile;
use crate::report::chart::{Chart, Line, svg};
use crate::report::escape::esc;
use crate::report::markdown::{code, escape_cell};
use crate::report::terminal::plain;
use crate::score::Rate;
use crate::score::curve::{Curve, Series};

/// What the curve's points measure, named from its models (a run file of an older toolgate
/// recorded "tool accuracy" for a search too).
fn metric(c: &Curve) -> &'static str {
    crate::record::metric::name_of_all(c.series.iter().map(|s| s.model.as_str()))
}

fn short(r: &Rate) -> String {
    if r.n == 0 {
        return "—".into();
    }
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        r.value * 100.0,
        r.lo * 100.0,
        r.hi * 100.0
    )
}

/// The models of the curve, each with its series (one per draw), in order.
fn by_model(c: &Curve) -> Vec<(&str, Vec<&Series>)> {
    let mut out: Vec<(&str, Vec<&Series>)> = Vec::new();
    for s in &c.series {
        match out.iter_mut().find(|(m, _)| *m == s.model) {
            Some((_, v)) => v.push(s),
            None => out.push((&s.model, vec![s])),
        }
    }
    out
}

fn about(c: &Curve, run: &RunFile) -> String {
    let belt = run
        .belt
        .as_ref()
        .map(|b| format!("belt {}, ", b.spec))
        .unwrap_or_default();
    format!(
        "{} as the belt's tools join yours ({belt}{} tools available; random draw seed {}; {} trial per task). Breaking point: the first size significantly below no distractors (one-sided exact paired test on the same tasks, alpha {}).",
        metric(c),
        c.available,
        c.seed,
        c.trials,
        c.alpha
    )
}

fn cell(s: &Series, size: usize) -> String {
    s.points
        .iter()
        .find(|p| p.size == size)
        .map(|p| format!("{}{}", short(&p.accuracy), if p.below { " *" } else { "" }))
        .unwrap_or_default()
}

/// The terminal section ("" without a curve).
pub(crate) fn terminal(run: &RunFile) -> String {
    let Some(c) = &run.curve else {
        return String::new();
    };
    let mut out = format!("\ndistractor curve: {}\n", plain(&about(c, run)));
    for (model, series) in by_model(c) {
        out.push_str(&format!("\n== {} — distractor curve\n", plain(model)));
        for s in &series {
            out.push_str(&format!(
                "breaking point ({}){}{}\n",
                s.draw.label(),
                " ".repeat(14usize.saturating_sub(s.draw.label().len())),
                c.breaking_text(s)
            ));
        }
        out.push_str(&format!("{:>8}", "tools"));
        for s in &series {
            out.push_str(&format!("  {:<26}", s.draw.label()));
        }
        out.push('\n');
        for &size in &c.sizes {
            out.push_str(&format!("{size:>8}"));
            for s in &series {
                out.push_str(&format!("  {:<26}", cell(s, size)));
            }
            out.push('\n');
        }
    }
    out.push_str("* significantly below 0 distractors\n");
    for n in &c.notes {
        out.push_str(&format!("note: {}\n", plain(n)));
    }
    out
}

/// The Markdown section ("" without a curve).
pub(crate) fn markdown(run: &RunFile) -> String {
    let Some(c) = &run.curve else {
        return String::new();
    };
    let mut out = format!(
        "\n### Distractor curve\n\n{}\n",
        escape_cell(&about(c, run))
    );
    for (model, series) in by_model(c) {
        out.push_str(&format!("\n{}: ", code(model)));
        let parts: Vec<String> = series
            .iter()
            .map(|s| {
                format!(
                    "breaking point ({}) **{}**",
                    s.draw.label(),
                    c.breaking_text(s)
                )
            })
            .collect();
        out.push_str(&parts.join(" · "));
        out.push_str("\n\n| distractor tools |");
        for s in &series {
            out.push_str(&format!(" {} |", s.draw.label()));
        }
        out.push_str("\n|---:|");
        out.push_str(&"---|".repeat(series.len()));
        out.push('\n');
        for &size in &c.sizes {
            out.push_str(&format!("| {size} |"));
            for s in &series {
                out.push_str(&format!(" {} |", cell(s, size)));
            }
            out.push('\n');
        }
    }
    out.push_str("\n\\* significantly below 0 distractors\n");
    for n in &c.notes {
        out.push_str(&format!("\n> note: {}\n", escape_cell(n)));
    }
    out
}

/// The chart of one model's series.
pub(crate) fn chart(c: &Curve, model: &str, series: &[&Series]) -> Chart {
    Chart {
        title: format!("{model}: {} vs distractor tools", metric(c)),
        x_label: "distractor tools from the belt".into(),
        y_label: format!("{} (95% CI)", metric(c)),
        x_ticks: c.sizes.iter().map(|s| s.to_string()).collect(),
        lines: series
            .iter()
            .map(|s| Line {
                label: s.draw.label().into(),
                points: c
                    .sizes
                    .iter()
                    .map(|size| {
                        s.points
                            .iter()
                            .find(|p| p.size == *size && p.accuracy.n > 0)
                            .map(|p| (p.accuracy.value, p.accuracy.lo, p.accuracy.hi))
                    })
                    .collect(),
                mark: s.breaking_point.and_then(|b| {
                    let i = c.sizes.iter().position(|x| *x == b)?;
                    Some((i, format!("{} breaks at {b}", s.draw.label())))
                }),
            })
            .collect(),
    }
}

/// The HTML section with a chart per model ("" without a curve).
pub(crate) fn html(run: &RunFile) -> String {
    let Some(c) = &run.curve else {
        return String::new();
    };
    let mut out = format!(
        "<h2>Distractor curve</h2><p class=muted>{}</p>",
        esc(&about(c, run))
    );
    for (model, series) in by_model(c) {
        out.push_str(&format!("<h3>Model <code>{}</code></h3><ul>", esc(model)));
        for s in &series {
            out.push_str(&format!(
                "<li>Breaking point ({}): <strong>{}</strong></li>",
                esc(s.draw.label()),
                esc(&c.breaking_text(s))
            ));
        }
        out.push_str("</ul><figure class=curve>");
        out.push_str(&svg(&chart(c, model, &series)));
        out.push_str("</figure><table><thead><tr><th>distractor tools</th>");
        for s in &series {
            out.push_str(&format!("<th>{}</th>", esc(s.draw.label())));
        }
        out.push_str("</tr></thead><tbody>");
        for &size in &c.sizes {
            out.push_str(&format!("<tr><td class=num>{size}</td>"));
            for s in &series {
                out.push_str(&format!("<td class=num>{}</td>", esc(&cell(s, size))));
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table><p class=muted>* significantly below 0 distractors</p>");
    }
    for n in &c.notes {
        out.push_str(&format!("<p class=muted>note: {}</p>", esc(n)));
    }
    out
}

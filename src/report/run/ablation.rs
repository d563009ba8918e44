//! The ablation check in the run reports: per model, tool accuracy on the full catalog, without
//! descriptions and with neutral names, each delta with its one-sided exact paired p, and the
//! warning when the suite does not measure the descriptions; for the terminal, Markdown
//! (report.md, job summary, PR comment) and HTML.

use crate::record::RunFile;
use crate::report::escape::esc;
use crate::report::markdown::{code, escape_cell};
use crate::report::terminal::plain;
use crate::score::ablation::{Ablation, Arm, ArmResult};
use crate::score::curve::p_text;

fn about(a: &Ablation) -> String {
    let metric = crate::record::metric::name_of_all(a.results.iter().map(|r| r.model.as_str()));
    let mut metric = metric.to_string();
    if let Some(c) = metric.get_mut(0..1) {
        c.make_ascii_uppercase();
    }
    format!(
        "{metric} on the same tasks with every description removed (names and schema shapes only) and with every tool renamed `tool_01`, `tool_02`, …, each paired with the full catalog (one-sided exact test, alpha {}). A suite that measures descriptions scores lower without them.",
        a.alpha
    )
}

/// `x` in toolgate's own (already escaped) words as `<code>x</code>`.
fn code_spans(escaped: &str) -> String {
    let mut out = String::new();
    for (i, part) in escaped.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{part}</code>"));
        } else {
            out.push_str(part);
        }
    }
    out
}

fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

/// `-31.2 pts (p < 0.001)`, with a mark when the drop is significant.
fn delta(r: &ArmResult) -> String {
    let p = p_text(r.p);
    format!(
        "{:+.1} pts (p {}{}){}",
        r.delta_pts,
        if p.starts_with('<') { "" } else { "= " },
        p,
        if r.drops { " *" } else { "" }
    )
}

/// Each model with its two arms, in order.
fn by_model(a: &Ablation) -> Vec<(&str, Option<&ArmResult>, Option<&ArmResult>)> {
    let mut out: Vec<(&str, Option<&ArmResult>, Option<&ArmResult>)> = Vec::new();
    for r in &a.results {
        let i = match out.iter().position(|(m, _, _)| *m == r.model) {
            Some(i) => i,
            None => {
                out.push((&r.model, None, None));
                out.len() - 1
            }
        };
        match r.arm {
            Arm::NoDescriptions => out[i].1 = Some(r),
            Arm::NeutralNames => out[i].2 = Some(r),
        }
    }
    out
}

fn full(a: Option<&ArmResult>, b: Option<&ArmResult>) -> String {
    a.or(b).map(|r| pct(r.full.value)).unwrap_or_default()
}

fn arm(r: Option<&ArmResult>) -> String {
    r.map(|r| format!("{} {}", pct(r.accuracy.value), delta(r)))
        .unwrap_or_else(|| "—".into())
}

/// The terminal section ("" without a check).
pub(crate) fn terminal(run: &RunFile) -> String {
    let Some(a) = &run.ablation else {
        return String::new();
    };
    let mut out = format!("\nablation: {}\n", plain(&about(a)));
    for (model, nd, nn) in by_model(a) {
        out.push_str(&format!(
            "{:<24} full {:<8} without descriptions {:<34} neutral names {}\n",
            plain(model),
            full(nd, nn),
            arm(nd),
            arm(nn)
        ));
    }
    out.push_str("* significant drop\n");
    for r in a.blind_to_descriptions() {
        out.push_str(&format!("warning: {}\n", plain(&Ablation::blind_text(r))));
    }
    for n in &a.notes {
        out.push_str(&format!("note: {}\n", plain(n)));
    }
    out
}

/// The Markdown section ("" without a check).
pub(crate) fn markdown(run: &RunFile) -> String {
    let Some(a) = &run.ablation else {
        return String::new();
    };
    let mut out = format!(
        "\n### What the suite measures (ablation)\n\n{}\n\n| model | full catalog | without descriptions | with neutral names |\n|---|---:|---:|---:|\n",
        // toolgate's own words and a number: Markdown as written, so `tool_01` shows as code.
        about(a)
    );
    for (model, nd, nn) in by_model(a) {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            code(model),
            full(nd, nn),
            escape_cell(&arm(nd)),
            escape_cell(&arm(nn))
        ));
    }
    out.push_str("\n\\* significant drop\n\n");
    for r in a.blind_to_descriptions() {
        out.push_str(&format!(
            "\n> [!WARNING]\n> {}\n",
            escape_cell(&Ablation::blind_text(r))
        ));
    }
    for n in &a.notes {
        out.push_str(&format!("\n> note: {}\n", escape_cell(n)));
    }
    out
}

/// The HTML section ("" without a check).
pub(crate) fn html(run: &RunFile) -> String {
    let Some(a) = &run.ablation else {
        return String::new();
    };
    let mut out = format!(
        "<h2>What the suite measures (ablation)</h2><p class=muted>{}</p><table><thead><tr><th>model</th><th>full catalog</th><th>without descriptions</th><th>with neutral names</th></tr></thead><tbody>",
        code_spans(&esc(&about(a)))
    );
    for (model, nd, nn) in by_model(a) {
        out.push_str(&format!(
            "<tr><td><code>{}</code></td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td></tr>",
            esc(model),
            esc(&full(nd, nn)),
            esc(&arm(nd)),
            esc(&arm(nn))
        ));
    }
    out.push_str("</tbody></table><p class=muted>* significant drop</p>");
    for r in a.blind_to_descriptions() {
        out.push_str(&format!(
            "<p class=warn><strong>Warning:</strong> {}</p>",
            esc(&Ablation::blind_text(r))
        ));
    }
    for n in &a.notes {
        out.push_str(&format!("<p class=muted>note: {}</p>", esc(n)));
    }
    out
}

//! The contract tests' report: a terminal table and a Markdown section (job summary, PR
//! comment, report.md). Server text (tool names, the replies quoted in a detail) is escaped for
//! each sink.

use super::markdown::{code, escape_cell};
use super::style::{Palette, Tone};
use super::table::{Align, Style, Table};
use super::terminal::plain;
use crate::record::contract::{ContractReport, Effects, Verdict};

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Pass => "pass",
        Verdict::Warn => "warn",
        Verdict::Fail => "FAIL",
    }
}

/// One sentence: what was called and how it went.
pub(crate) fn headline(r: &ContractReport) -> String {
    let s = &r.summary;
    format!(
        "contract tests: {} call(s) on {} tool(s): {} passed, {} warned, {} failed; {} tool(s) not called{}",
        s.calls,
        r.tools.len() - s.tools_skipped,
        s.passed,
        s.warned,
        s.failed,
        s.tools_skipped,
        if r.allow_writes {
            " (--allow-writes: tools that may write were called too)"
        } else {
            " (only read-only tools are called without --allow-writes)"
        }
    )
}

/// The terminal report.
pub(crate) fn terminal(r: &ContractReport, palette: Palette) -> String {
    let mut t = Table::new(
        &["tool", "call", "answer", "verdict", "ms", "detail"],
        &[
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Right,
            Align::Left,
        ],
    );
    for tool in &r.tools {
        if let Some(why) = &tool.skipped
            && tool.probes.is_empty()
        {
            t.row(vec![
                plain(&tool.tool),
                "-".into(),
                "-".into(),
                "skipped".into(),
                String::new(),
                plain(why),
            ]);
        }
        for p in &tool.probes {
            t.row(vec![
                plain(&tool.tool),
                p.kind.label().into(),
                p.answer.label().into(),
                verdict_word(p.verdict).into(),
                p.elapsed_ms.to_string(),
                plain(&p.detail),
            ]);
        }
    }
    let mut out = format!(
        "{}  protocol {}\n\n{}",
        plain(&r.server),
        r.protocol_version.as_deref().unwrap_or("?"),
        t.render(Style::Terminal)
    );
    for n in &r.notes {
        out.push_str(&format!("note: {}\n", plain(n)));
    }
    let tone = if r.summary.failed > 0 {
        Tone::Fail
    } else {
        Tone::Pass
    };
    out.push_str(&format!("\n{}\n", palette.paint(tone, &headline(r))));
    out
}

/// The Markdown section.
pub(crate) fn markdown(r: &ContractReport) -> String {
    // The headline is numbers and our own words: no server text.
    let mut out = format!("### Contract tests\n\n{}\n\n", headline(r));
    let mut t = Table::new(
        &["Tool", "Call", "Verdict", "Detail"],
        &[Align::Left, Align::Left, Align::Left, Align::Left],
    );
    for tool in &r.tools {
        if tool.probes.is_empty() {
            let why = tool.skipped.as_deref().unwrap_or("not called");
            // Skipped read-only tools are worth a row; tools skipped for writing are counted.
            if tool.effects == Effects::ReadOnly || r.allow_writes {
                t.row(vec![
                    code(&tool.tool),
                    "—".into(),
                    "skipped".into(),
                    escape_cell(why),
                ]);
            }
            continue;
        }
        for p in &tool.probes {
            let mark = match p.verdict {
                Verdict::Pass => "✅ pass",
                Verdict::Warn => "⚠️ warn",
                Verdict::Fail => "❌ fail",
            };
            t.row(vec![
                code(&tool.tool),
                p.kind.label().into(),
                mark.into(),
                escape_cell(&p.detail),
            ]);
        }
    }
    if !t.rows.is_empty() {
        out.push_str(&t.render(Style::Markdown));
        out.push('\n');
    }
    for n in &r.notes {
        out.push_str(&format!("- {}\n", escape_cell(n)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::contract::{Answer, Probe, ProbeKind, ToolContract};

    fn report() -> ContractReport {
        let mut r = ContractReport {
            server: "srv".into(),
            tools: vec![
                ToolContract {
                    tool: "evil|`name`<b>".into(),
                    effects: Effects::ReadOnly,
                    skipped: None,
                    probes: vec![Probe {
                        kind: ProbeKind::WrongType,
                        arguments: serde_json::json!({}),
                        answer: Answer::IsError,
                        verdict: Verdict::Pass,
                        detail: "isError: «see [x](http://evil) @team \u{1b}[31m»".into(),
                        elapsed_ms: 3,
                    }],
                },
                ToolContract {
                    tool: "write".into(),
                    effects: Effects::MayWrite,
                    skipped: Some("may write".into()),
                    probes: vec![],
                },
            ],
            ..Default::default()
        };
        r.summarise();
        r
    }

    #[test]
    fn server_text_is_inert_in_markdown_and_the_terminal() {
        let r = report();
        let md = markdown(&r);
        // The name is a code span (HTML inside one is shown, not rendered).
        assert!(md.contains("`` evil\\|`name`<b> ``"), "{md}");
        assert!(!md.contains("](http"), "{md}");
        assert!(!md.contains("@team"), "{md}");
        assert!(!md.contains('\u{1b}'), "{md}");
        assert!(md.contains("1 passed, 0 warned, 0 failed; 1 tool(s) not called"));
        let term = terminal(&r, Palette::PLAIN);
        assert!(!term.contains('\u{1b}'), "{term}");
        assert!(term.contains("skipped"), "{term}");
    }
}

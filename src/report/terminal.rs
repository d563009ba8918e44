//! Plain-text tables for a terminal.

use super::LintReport;
use super::style::Palette;
use crate::catalog::Catalog;
use crate::lint::Severity;

/// Text from a server or provider made safe for a terminal: control characters (escape
/// sequences, carriage returns, bells) and invisible format characters are shown escaped.
pub(crate) fn plain(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() && c != '\n' && c != '\t'
            || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
        {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    out
}

/// Pads or cuts `s` to `w` characters.
pub(crate) fn cell(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n > w {
        format!(
            "{}…",
            s.chars().take(w.saturating_sub(1)).collect::<String>()
        )
    } else {
        format!("{s}{}", " ".repeat(w - n))
    }
}

/// Short flags for the annotation hints a tool sets: RO read-only, D destructive,
/// I idempotent, W open-world; `!` prefix for an explicit false.
pub(crate) fn hint_flags(tool: &crate::catalog::Tool) -> String {
    let mut out = Vec::new();
    for (key, flag) in [
        ("readOnlyHint", "RO"),
        ("destructiveHint", "D"),
        ("idempotentHint", "I"),
        ("openWorldHint", "W"),
    ] {
        match tool.hint(key) {
            Some(true) => out.push(flag.to_string()),
            Some(false) => out.push(format!("!{flag}")),
            None => {}
        }
    }
    if out.is_empty() {
        "-".into()
    } else {
        out.join(" ")
    }
}

/// What the hint flags mean, under the tool table.
pub(crate) const HINT_LEGEND: &str = "hints: RO read-only · D destructive · I idempotent · W open world · !X explicitly not X · - none set (MCP's defaults then: may write, may destroy, not idempotent, open world)";

/// A description's first sentence (or its start), on one line, for a table.
pub(crate) fn first_sentence(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = one_line
        .char_indices()
        .find(|(i, c)| {
            matches!(c, '.' | '!' | '?')
                && one_line[i + c.len_utf8()..]
                    .chars()
                    .next()
                    .is_none_or(char::is_whitespace)
        })
        .map(|(i, c)| i + c.len_utf8());
    plain(&one_line[..end.unwrap_or(one_line.len())])
}

/// The tool table of `toolgate inspect`: each tool's parameters, hints, token cost and the
/// first sentence of its description (what a reader checks first), then the hints' legend.
pub(crate) fn tools_table(catalog: &Catalog, tokens: &[(usize, bool)]) -> String {
    let mut out = String::new();
    let name_w = catalog
        .tools
        .iter()
        .map(|t| plain(t.name()).chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 40);
    out.push_str(&format!(
        "{}  {:>6}  {:>8}  {}  {:>7}  {}\n",
        cell("tool", name_w),
        "params",
        "required",
        cell("hints", 14),
        "tokens",
        "description"
    ));
    for (t, (n, exact)) in catalog.tools.iter().zip(tokens) {
        let tok = if *exact {
            n.to_string()
        } else {
            format!("≈{n}")
        };
        let description = match t.description() {
            Some(d) if !d.trim().is_empty() => cell(&first_sentence(d), 72),
            _ => "(no description)".into(),
        };
        out.push_str(&format!(
            "{}  {:>6}  {:>8}  {}  {:>7}  {}\n",
            cell(&plain(t.name()), name_w),
            t.params().len(),
            t.required().len(),
            cell(&hint_flags(t), 14),
            tok,
            description.trim_end()
        ));
    }
    out.push_str(&format!("\n{HINT_LEGEND}\n"));
    out
}

/// The findings and the summary line; severities coloured when the process's palette is on.
/// Info findings are folded to one line per rule unless `every`.
pub(crate) fn lint(report: &LintReport, every: bool) -> String {
    lint_in(report, super::style::palette(), every)
}

/// One rule's folded info findings: how many, in which tools, and the first one's message.
#[derive(Default)]
struct Folded<'a> {
    findings: usize,
    tools: std::collections::BTreeSet<&'a str>,
    first: Option<String>,
}

/// Tools a folded line names before "…".
const FOLDED_TOOLS_SHOWN: usize = 3;

fn lint_in(report: &LintReport, p: Palette, every: bool) -> String {
    let mut out = String::new();
    let mut folded: std::collections::BTreeMap<(&str, &str), Folded> = Default::default();
    // One line per finding; each rule's fix once, after the findings, with its count (a rule
    // that fires on forty parameters does not repeat its advice forty times).
    // A rule whose findings each carry their own fix ("declare \"enum\": [...]") keeps it
    // under the finding.
    let mut helps: std::collections::BTreeMap<&str, std::collections::BTreeSet<&str>> =
        Default::default();
    for f in &report.findings {
        helps.entry(&f.code).or_default().insert(&f.help);
    }
    let shared = |code: &str| helps.get(code).is_none_or(|h| h.len() == 1);
    let mut by_rule: std::collections::BTreeMap<(&str, &str), (usize, &str)> = Default::default();
    // One problem in many tools (a shared definition) is one line naming them.
    let all: Vec<&crate::report::ReportFinding> = report.findings.iter().collect();
    for shown in crate::lint::report::grouped(&all) {
        let f = shown.first;
        if !every && f.severity == Severity::Info {
            let e = folded.entry((&f.code, &f.slug)).or_default();
            e.findings += 1;
            e.tools.extend(shown.tools.iter().copied());
            e.first.get_or_insert_with(|| shown.message.clone());
            if shared(&f.code) {
                by_rule.entry((&f.code, &f.slug)).or_insert((0, &f.help)).0 += shown.tools.len();
            }
            continue;
        }
        let tool = match shown.tools.len() {
            1 => f.tool.clone(),
            n => Some(format!(
                "{n} tools, first {}",
                f.tool.as_deref().unwrap_or("catalog")
            )),
        };
        let at = match (&tool, &f.file, f.line) {
            (Some(t), Some(file), Some(line)) => format!("{t} ({file}:{line})"),
            (Some(t), _, _) => t.clone(),
            (None, Some(file), Some(line)) => format!("catalog ({file}:{line})"),
            (None, _, _) => "catalog".into(),
        };
        // Tool names and messages quote the server: escape before anything is painted.
        out.push_str(&format!(
            "{} {} {}  {}: {}\n",
            p.severity(f.severity, &format!("{:<7}", f.severity.as_str())),
            f.code,
            f.slug,
            plain(&at),
            plain(&shown.message)
        ));
        if shared(&f.code) {
            by_rule.entry((&f.code, &f.slug)).or_insert((0, &f.help)).0 += shown.tools.len();
        } else {
            out.push_str(&format!("        fix: {}\n", plain(&f.help)));
        }
    }
    for ((code, slug), e) in &folded {
        let names: Vec<String> = e
            .tools
            .iter()
            .take(FOLDED_TOOLS_SHOWN)
            .map(|t| plain(t))
            .collect();
        let more = if e.tools.len() > FOLDED_TOOLS_SHOWN {
            ", …"
        } else {
            ""
        };
        let where_ = match e.tools.len() {
            0 => "the catalog".to_string(),
            1 => format!("1 tool ({}{more})", names.join(", ")),
            n => format!("{n} tools ({}{more})", names.join(", ")),
        };
        out.push_str(&format!(
            "{} {code} {slug}  {} finding(s) in {where_}, e.g.: {}\n",
            p.severity(Severity::Info, &format!("{:<7}", Severity::Info.as_str())),
            e.findings,
            plain(e.first.as_deref().unwrap_or_default())
        ));
    }
    if !folded.is_empty() {
        out.push_str("(info findings are folded to one line per rule: `toolgate lint --all-findings` lists each)\n");
    }
    for ((code, slug), (n, help)) in &by_rule {
        out.push_str(&format!("fix {code} {slug} ({n}): {}\n", plain(help)));
    }
    let s = &report.summary;
    let count = |n: usize, sev: Severity, word: &str| {
        let text = format!("{n} {word}");
        if n == 0 { text } else { p.severity(sev, &text) }
    };
    out.push_str(&format!(
        "{} tools, {} tokens ({}); {}, {}, {}\n",
        report.tool_count,
        report.total_tokens,
        report.tokenizer,
        count(s.errors, Severity::Error, "error(s)"),
        count(s.warnings, Severity::Warning, "warning(s)"),
        count(s.infos, Severity::Info, "info")
    ));
    if s.accepted > 0 {
        out.push_str(&format!(
            "{} accepted in [[lint.accept]] (not counted above, never failing):
",
            s.accepted
        ));
        for a in report.accepted.iter().take(ACCEPTED_SHOWN) {
            let f = &a.finding;
            out.push_str(&format!(
                "  {} {} {}: {} (reason: {})\n",
                f.code,
                f.severity.as_str(),
                plain(f.tool.as_deref().unwrap_or("catalog")),
                plain(&f.message),
                plain(&a.reason)
            ));
        }
        if report.accepted.len() > ACCEPTED_SHOWN {
            out.push_str(&format!(
                "  …and {} more (every one is in the JSON and SARIF reports)\n",
                report.accepted.len() - ACCEPTED_SHOWN
            ));
        }
    }
    out
}

/// How many accepted findings the terminal lists.
const ACCEPTED_SHOWN: usize = 10;

#[cfg(test)]
mod tests {
    #[test]
    fn info_findings_fold_to_one_line_per_rule_unless_every_one_is_asked() {
        use crate::lint::Severity;
        use crate::report::{LintReport, ReportFinding};
        let finding = |tool: &str, code: &str, severity: Severity| ReportFinding {
            code: code.into(),
            slug: "slug".into(),
            severity,
            tool: Some(tool.into()),
            pointer: format!("/{tool}/{code}"),
            message: format!("about {tool}\u{1b}[31m"),
            help: "fix it".into(),
            docs_url: String::new(),
            file: None,
            line: None,
            related: vec![],
            pair: None,
            group: None,
        };
        let mut report = LintReport {
            schema_version: String::new(),
            toolgate_version: String::new(),
            source: String::new(),
            catalog_sha256: String::new(),
            tool_count: 5,
            tokenizer: String::new(),
            total_tokens: 0,
            summary: Default::default(),
            findings: vec![],
            accepted: vec![],
        };
        for t in ["a", "b", "c", "d", "e"] {
            report.findings.push(finding(t, "TG007", Severity::Info));
        }
        report
            .findings
            .push(finding("a", "TG004", Severity::Warning));
        let p = super::Palette::PLAIN;
        let folded = super::lint_in(&report, p, false);
        let info: Vec<&str> = folded.lines().filter(|l| l.starts_with("info")).collect();
        assert_eq!(info.len(), 1, "{folded}");
        assert!(
            info[0].contains("5 finding(s) in 5 tools (a, b, c, …)"),
            "{folded}"
        );
        assert!(
            !folded.contains('\u{1b}'),
            "server text is escaped: {folded}"
        );
        assert!(folded.contains("warning TG004"), "{folded}");
        assert!(folded.contains("--all-findings"), "{folded}");
        // The rule's fix still counts every tool once.
        assert!(folded.contains("fix TG007 slug (5)"), "{folded}");
        let every = super::lint_in(&report, p, true);
        assert_eq!(
            every.lines().filter(|l| l.starts_with("info")).count(),
            5,
            "{every}"
        );
        assert!(!every.contains("--all-findings"), "{every}");
    }

    #[test]
    fn first_sentences_stop_at_the_sentence_not_at_a_dot_in_a_word() {
        assert_eq!(
            super::first_sentence("Reads v1.2 files.  Use it when\nyou need one."),
            "Reads v1.2 files."
        );
        assert_eq!(super::first_sentence("No stop here"), "No stop here");
        assert_eq!(
            super::first_sentence("Bell \u{7} here. Next."),
            "Bell \\u{7} here."
        );
    }
}

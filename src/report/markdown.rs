//! Markdown for job summaries, PR comments and files.

use super::LintReport;

/// Text from a server, a provider or a user, made inert for Markdown (a PR comment, a job
/// summary, report.md): one line, no table breaks, no HTML, no live links, images or
/// autolinks, no emphasis, and no @-mentions that would notify people. Every renderer of
/// server-controlled text uses this (or [`code`]).
pub(crate) fn escape_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            // A word joiner after `@` keeps GitHub from turning `@name` into a mention.
            '@' => out.push_str("@\u{2060}"),
            '|' | '[' | ']' | '(' | ')' | '!' | '*' | '_' | '`' | '~' | '#' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ':' if chars.peek() == Some(&'/') => {
                // `http://…` would autolink: a word joiner breaks the scheme.
                out.push_str(":\u{2060}");
            }
            '.' if out.ends_with("www") => out.push_str(".\u{2060}"),
            // Terminal escapes and other controls (Markdown printed to a terminal, a log).
            c if c.is_control() => out.push_str(&format!("\\\\x{:02x}", u32::from(c))),
            _ => out.push(c),
        }
    }
    out
}

/// A message of ours that quotes names in backticks (a lint finding, a gate reason): the
/// quoted parts become code spans and the rest inert text, so a server-controlled name stays
/// inert even when it holds backticks itself.
pub(crate) fn message(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    let paired = parts.len() % 2 == 1;
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        let last_unpaired = !paired && i == parts.len() - 1;
        if i % 2 == 1 && !last_unpaired {
            out.push_str(&code(part));
        } else {
            if last_unpaired {
                out.push_str("\\`");
            }
            out.push_str(&escape_cell(part));
        }
    }
    out
}

/// Text as inline code: a fence longer than any backtick run inside, pipes escaped for table
/// cells, one line. Nothing inside a code span is a link, mention or image.
pub(crate) fn code(s: &str) -> String {
    let s = visible_controls(&s.replace('|', "\\|").replace(['\n', '\r'], " "));
    let fence = "`".repeat(longest_backtick_run(&s) + 1);
    if s.starts_with('`') || s.ends_with('`') || fence.len() > 1 {
        format!("{fence} {s} {fence}")
    } else {
        format!("{fence}{s}{fence}")
    }
}

/// Control characters but newline and tab shown as `\xNN`, so no terminal escape survives;
/// other characters a reader cannot see (bidirectional overrides, zero-width characters; the
/// lock diff's list) shown as `\u{…}`, so a name cannot be made to read as another.
fn visible_controls(s: &str) -> String {
    let control = |c: char| c.is_control() && c != '\n' && c != '\t';
    let hidden = |c: char| crate::catalog::lock::invisible_name(c).is_some();
    if !s.chars().any(|c| control(c) || hidden(c)) {
        return s.to_string();
    }
    s.chars()
        .map(|c| {
            if control(c) {
                format!("\\x{:02x}", u32::from(c))
            } else if hidden(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn longest_backtick_run(text: &str) -> usize {
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// A fenced code block (`lang` may be empty) whose fence outlasts any backtick run inside.
pub(crate) fn fenced(text: &str, lang: &str) -> String {
    let text = &visible_controls(text);
    let fence = "`".repeat(longest_backtick_run(text).max(2) + 1);
    format!("{fence}{lang}\n{}\n{fence}\n", text.trim_end())
}

pub(crate) fn lint(report: &LintReport) -> String {
    let s = &report.summary;
    let mut out = format!(
        "### toolgate lint\n\n{}: {} tools, {} tokens ({}). **{}** error(s), **{}** warning(s), {} info.\n\n",
        code(&report.source),
        report.tool_count,
        report.total_tokens,
        report.tokenizer,
        s.errors,
        s.warnings,
        s.infos
    );
    accepted_rows(report, &mut out);
    if report.findings.is_empty() {
        out.push_str("No findings.\n");
        return out;
    }
    out.push_str("| severity | rule | tool | finding | fix |\n|---|---|---|---|---|\n");
    let all: Vec<&crate::report::ReportFinding> = report.findings.iter().collect();
    for shown in crate::lint::report::grouped(&all) {
        let f = shown.first;
        out.push_str(&format!(
            "| {} | [{}]({}) {} | {} | {} | {} |\n",
            f.severity,
            f.code,
            f.docs_url,
            f.slug,
            match shown.tools.len() {
                1 => f
                    .tool
                    .as_deref()
                    .map(code)
                    .unwrap_or_else(|| "catalog".into()),
                n => format!("{n} tools"),
            },
            message(&shown.message),
            message(&f.help)
        ));
    }
    out
}

/// How many accepted findings a Markdown report lists.
const ACCEPTED_SHOWN: usize = 20;

/// The accepted findings, counted, then listed (folded) with their reasons.
pub(crate) fn accepted_rows(report: &LintReport, out: &mut String) {
    if report.accepted.is_empty() {
        return;
    }
    out.push_str(&format!(
        "<details><summary>{} finding(s) accepted in <code>[[lint.accept]]</code> (not counted above, never failing)</summary>\n\n| rule | tool | finding | reason |\n|---|---|---|---|\n",
        report.accepted.len()
    ));
    for a in report.accepted.iter().take(ACCEPTED_SHOWN) {
        let f = &a.finding;
        out.push_str(&format!(
            "| {} {} | {} | {} | {} |\n",
            f.code,
            f.severity,
            f.tool
                .as_deref()
                .map(code)
                .unwrap_or_else(|| "catalog".into()),
            message(&f.message),
            message(&a.reason)
        ));
    }
    if report.accepted.len() > ACCEPTED_SHOWN {
        out.push_str(&format!(
            "\n…and {} more (every one is in lint.json and lint.sarif).\n",
            report.accepted.len() - ACCEPTED_SHOWN
        ));
    }
    out.push_str("\n</details>\n\n");
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_name_cannot_be_made_to_read_as_another() {
        // "delete_file" written right-to-left after an override reads as another name.
        let spoof = super::code("read_\u{202E}elif_eteled\u{200B}");
        assert!(
            !spoof.contains('\u{202E}') && !spoof.contains('\u{200B}'),
            "{spoof}"
        );
        assert!(
            spoof.contains("\\u{202e}") && spoof.contains("\\u{200b}"),
            "{spoof}"
        );
        assert_eq!(super::code("plain_name"), "`plain_name`");
    }

    #[test]
    fn terminal_escapes_never_survive() {
        let hostile = "read\u{1b}[2J\u{1b}]8;;http://x\u{7}file\u{9b}31m";
        for out in [
            super::escape_cell(hostile),
            super::code(hostile),
            super::fenced(hostile, ""),
            super::message(&format!("tool `{hostile}` and {hostile}")),
        ] {
            assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
            assert!(out.contains("x1b"), "{out:?}");
        }
    }

    use super::*;

    #[test]
    fn server_text_cannot_become_markdown() {
        let hostile =
            "**[hi](http://a.b)** ![x](https://e.vil/?d={q}) @octocat <b>x</b> | www.e.vil `c`";
        let t = escape_cell(hostile);
        for live in [
            "](", "![", "**", "@octocat", "<b>", "http://", "https://", "www.e", " | ",
        ] {
            assert!(!t.contains(live), "{live} survived in {t}");
        }
        let c = code("a``b|c");
        assert!(
            c.starts_with("``` ") && c.ends_with(" ```") && c.contains("\\|"),
            "{c}"
        );
        assert_eq!(code("send_email"), "`send_email`");
        assert!(fenced("x ```` y", "diff").starts_with("`````diff\n"));
        assert_eq!(message("`a_b` needs `c`"), "`a_b` needs `c`");
        let m = message("`x` and `[y](http://e.vil)` and `@z` ` [w](http://q)");
        assert!(
            !m.contains("](http") || m.contains("`[y](http://e.vil)`"),
            "{m}"
        );
        assert!(!m.contains(" [w]("), "{m}");
    }
}

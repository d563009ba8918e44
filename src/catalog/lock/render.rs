//! Rendering a lock diff for a terminal or a PR comment: word-level text diffs, and every
//! invisible character escaped and named so a zero-width insertion cannot hide.

use serde_json::Value;

use super::LockDiff;
use super::changes::ChangeKind;
use crate::catalog::canonical::to_canonical_string;

/// A word-level diff of two texts: `[-removed-]{+added+}` marks, unchanged words as is.
pub(crate) fn word_diff(old: &str, new: &str) -> String {
    use similar::{ChangeTag, TextDiff};
    let diff = TextDiff::from_words(old, new);
    // Merge runs of the same kind so a rewritten sentence reads as one change.
    let mut runs: Vec<(ChangeTag, String)> = Vec::new();
    for change in diff.iter_all_changes() {
        match runs.last_mut() {
            Some((tag, text)) if *tag == change.tag() => text.push_str(change.value()),
            _ => runs.push((change.tag(), change.value().to_string())),
        }
    }
    let mut out = String::new();
    for (tag, v) in runs {
        match tag {
            ChangeTag::Equal => out.push_str(&v),
            ChangeTag::Delete => out.push_str(&format!("[-{v}-]")),
            ChangeTag::Insert => out.push_str(&format!("{{+{v}+}}")),
        }
    }
    out
}

fn short(v: &Value) -> String {
    let s = to_canonical_string(v);
    if s.chars().count() > 160 {
        format!("{}…", s.chars().take(160).collect::<String>())
    } else {
        s
    }
}

/// The name of a character a reader cannot see (zero-width, bidirectional controls, tags,
/// variation selectors, controls other than newline and tab), or `None`.
pub(crate) fn invisible_name(c: char) -> Option<&'static str> {
    Some(match c as u32 {
        0x09 | 0x0A => return None,
        0x00..=0x1F | 0x7F => "CONTROL CHARACTER",
        0x80..=0x9F => "C1 CONTROL CHARACTER",
        0xAD => "SOFT HYPHEN",
        0x034F => "COMBINING GRAPHEME JOINER",
        0x061C => "ARABIC LETTER MARK",
        0x115F | 0x1160 | 0x3164 | 0xFFA0 => "HANGUL FILLER",
        0x180E => "MONGOLIAN VOWEL SEPARATOR",
        0x200B => "ZERO WIDTH SPACE",
        0x200C => "ZERO WIDTH NON-JOINER",
        0x200D => "ZERO WIDTH JOINER",
        0x200E => "LEFT-TO-RIGHT MARK",
        0x200F => "RIGHT-TO-LEFT MARK",
        0x2028 => "LINE SEPARATOR",
        0x2029 => "PARAGRAPH SEPARATOR",
        0x202A => "LEFT-TO-RIGHT EMBEDDING",
        0x202B => "RIGHT-TO-LEFT EMBEDDING",
        0x202C => "POP DIRECTIONAL FORMATTING",
        0x202D => "LEFT-TO-RIGHT OVERRIDE",
        0x202E => "RIGHT-TO-LEFT OVERRIDE",
        0x2060 => "WORD JOINER",
        0x2061..=0x2064 => "INVISIBLE OPERATOR",
        0x2066 => "LEFT-TO-RIGHT ISOLATE",
        0x2067 => "RIGHT-TO-LEFT ISOLATE",
        0x2068 => "FIRST STRONG ISOLATE",
        0x2069 => "POP DIRECTIONAL ISOLATE",
        0x206A..=0x206F => "DEPRECATED FORMAT CHARACTER",
        0xFE00..=0xFE0F | 0xE0100..=0xE01EF => "VARIATION SELECTOR",
        0xFEFF => "ZERO WIDTH NO-BREAK SPACE (BOM)",
        0xFFF9..=0xFFFB => "INTERLINEAR ANNOTATION CHARACTER",
        0x1D173..=0x1D17A => "MUSICAL SYMBOL FORMAT CHARACTER",
        0xE0000..=0xE007F => "TAG CHARACTER",
        _ => return None,
    })
}

/// `text` with every invisible character written as `\u{XXXX}`, and the distinct
/// characters found (`U+200B ZERO WIDTH SPACE`), in order of first appearance.
pub(crate) fn escape_invisible(text: &str) -> (String, Vec<String>) {
    let mut out = String::with_capacity(text.len());
    let mut found: Vec<String> = Vec::new();
    for c in text.chars() {
        match invisible_name(c) {
            Some(name) => {
                out.push_str(&format!("\\u{{{:04X}}}", c as u32));
                let label = format!("U+{:04X} {name}", c as u32);
                if !found.contains(&label) {
                    found.push(label);
                }
            }
            None => out.push(c),
        }
    }
    (out, found)
}

/// Escapes invisible characters in `line` and, when there were any, names them on a line of
/// their own below it.
fn push_escaped(out: &mut String, line: &str) {
    let (shown, found) = escape_invisible(line);
    out.push_str(&shown);
    out.push('\n');
    if !found.is_empty() {
        const MAX: usize = 8;
        let more = found.len().saturating_sub(MAX);
        let mut names = found.into_iter().take(MAX).collect::<Vec<_>>().join(", ");
        if more > 0 {
            names.push_str(&format!(" and {more} more"));
        }
        out.push_str(&format!("      invisible characters: {names}\n"));
    }
}

/// The diff as text for a terminal or a PR comment. Invisible characters are shown escaped
/// (`\u{200B}`) and named, so a zero-width insertion cannot hide in the diff.
pub fn render(d: &LockDiff) -> String {
    let mut out = String::new();
    for n in &d.added {
        push_escaped(&mut out, &format!("+ added tool `{n}`"));
    }
    for n in &d.removed {
        push_escaped(&mut out, &format!("- removed tool `{n}`"));
    }
    for t in &d.changed {
        push_escaped(&mut out, &format!("~ changed tool `{}`", t.name));
        for c in &t.changes {
            let text_change = matches!((&c.before, &c.after), (Some(Value::String(a)), Some(Value::String(b)))
                if a.contains(' ') || b.contains(' ') || c.pointer.ends_with("/description") || c.pointer.ends_with("/title"));
            let line = match (c.change, &c.before, &c.after) {
                (ChangeKind::Changed, Some(Value::String(a)), Some(Value::String(b)))
                    if text_change =>
                {
                    format!("    {} text: {}", c.pointer, word_diff(a, b))
                }
                (ChangeKind::Changed, Some(a), Some(b)) => {
                    format!("    {}: {} → {}", c.pointer, short(a), short(b))
                }
                (ChangeKind::Added, _, Some(b)) => format!("    {} added: {}", c.pointer, short(b)),
                (ChangeKind::Removed, Some(a), _) => {
                    format!("    {} removed (was {})", c.pointer, short(a))
                }
                _ => continue,
            };
            push_escaped(&mut out, &line);
        }
    }
    if let Some((a, b)) = &d.instructions_changed {
        let what = if d.added.is_empty() && d.removed.is_empty() && d.changed.is_empty() {
            "~ server instructions changed (only they did; the tools match)"
        } else {
            "~ server instructions changed"
        };
        push_escaped(
            &mut out,
            &format!(
                "{what}: {}",
                word_diff(a.as_deref().unwrap_or(""), b.as_deref().unwrap_or(""))
            ),
        );
    }
    out
}

//! Message formatting for findings: tool names shown safely (invisible and look-alike
//! characters escaped), quotes, lists, numbers and plurals.

/// A character that renders as nothing: zero-width and format characters, bidirectional
/// controls, tags, variation selectors, and fillers and blanks.
pub(crate) fn is_hidden(c: char) -> bool {
    matches!(c as u32,
        0xAD | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x2069
        | 0xFEFF | 0xE0000..=0xE007F | 0xFE00..=0xFE0F | 0xE0100..=0xE01EF | 0x1D173..=0x1D17A
        // Fillers and blanks that render as nothing: combining grapheme joiner, Arabic letter
        // mark, Hangul fillers, Khmer inherent vowels, Braille blank, interlinear annotation.
        | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x3164 | 0xFFA0 | 0x2800
        | 0xFFF9..=0xFFFB)
}

/// A tool name as a message shows it: invisible and control characters escaped (`\u{200b}`).
pub(crate) fn shown_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_control() || is_hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Two different tool names as a message shows them side by side: when they differ only in
/// non-ASCII characters (`search` / `sеarch` with a Cyrillic `е`), those are escaped too, so
/// the reader sees where they differ.
pub(crate) fn shown_pair(a: &str, b: &str) -> (String, String) {
    let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let confusable = a != b
        && ca.len() == cb.len()
        && ca
            .iter()
            .zip(&cb)
            .all(|(x, y)| x == y || !x.is_ascii() || !y.is_ascii());
    let show = |name: &str| {
        if !confusable {
            return shown_name(name);
        }
        name.chars()
            .map(|c| {
                if c.is_ascii() && !c.is_ascii_control() {
                    c.to_string()
                } else {
                    format!("\\u{{{:x}}}", c as u32)
                }
            })
            .collect()
    };
    (show(a), show(b))
}

/// `text` on one line (whitespace collapsed), cut to `max` characters with `…`.
pub(crate) fn quote(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut cut: String = one_line.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `a`, `b` and `c` → "`a`, `b`, `c`".
pub(crate) fn ticked<S: AsRef<str>>(names: &[S]) -> String {
    names
        .iter()
        .map(|n| format!("`{}`", n.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `12345` → `12,345`.
pub(crate) fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `s` when `n` is not 1.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

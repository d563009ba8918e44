//! How TG018 reads the sentence around an order: the tool the text belongs to (its name and
//! parameters, which guidance may name), the tool an order names, and a sentence that
//! describes an option rather than giving an order.

use std::sync::LazyLock;

use crate::text::pattern::Regex;

use crate::text;

/// What the text belongs to: a tool's name and its own parameters' names, so guidance about
/// the tool itself or its own parameters is not read as an order about another tool.
#[derive(Clone, Copy)]
pub(super) struct Own<'a> {
    pub name: &'a str,
    pub params: &'a [String],
}

impl Own<'_> {
    /// True when `target` (a name as written: `x`, `` `x` ``, `x tool`) is this tool, one of
    /// its parameters, or "this"/"it".
    pub(super) fn is_self(&self, target: &str) -> bool {
        let bare = target
            .trim()
            .trim_end_matches("tools")
            .trim_end_matches("tool")
            .trim()
            .trim_matches('`')
            .trim();
        let lower = bare.to_lowercase();
        ["this", "it", "that", "the", "this one", "me", "here", ""].contains(&lower.as_str())
            || self.name.eq_ignore_ascii_case(bare)
            || text::name_words(self.name) == text::name_words(bare)
            || self.params.iter().any(|p| p.eq_ignore_ascii_case(bare))
    }
}

/// The tool an "order to call another tool" names: the last word run of the match.
pub(super) fn called_target(m: &str) -> &str {
    let m = m.trim_end();
    let cut = m
        .trim_end_matches("tools")
        .trim_end_matches("tool")
        .trim_end();
    let start = cut.rfind(|c: char| c.is_whitespace()).map_or(0, |i| i + 1);
    &cut[start..]
}

/// A sentence that describes an option rather than giving an order: "Whether to forward
/// credentials such as cookies", "If true, include the session token".
static OPTION_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(whether(\s+or\s+not)?(\s+to)?|if\s+(true|false|set|enabled|disabled)|when\s+(true|false|set|enabled)|set\s+(this\s+)?to\s+(true|false)|(enables?|disables?|allows?|controls?)\s+(whether|forwarding|sending|passing|including))\b",
    )
    .unwrap()
});

/// The sentence around `start..end`.
pub(super) fn sentence_of(text: &str, start: usize, end: usize) -> &str {
    let from = text[..start].rfind(['.', ';', '\n']).map_or(0, |i| i + 1);
    let to = text[end..]
        .find(['.', ';', '\n'])
        .map_or(text.len(), |i| end + i);
    &text[from..to]
}

/// The match at `start` sits in a sentence framed as an option.
pub(super) fn framed_as_option(text: &str, start: usize) -> bool {
    let from = text[..start].rfind(['.', ';', '\n']).map_or(0, |i| i + 1);
    OPTION_FRAME.is_match(&text[from..start])
}

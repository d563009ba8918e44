//! o200k_base's pre-tokenizer: the text is cut into pieces (words with their leading space,
//! numbers of up to three digits, punctuation runs, whitespace) before byte-pair merging.
//!
//! tiktoken's pattern has a negative look-ahead (`\s+(?!\S)`), which regex-automata lacks; as
//! in GitHub's bpe-openai (MIT), it is emulated by a second pattern `\s+\s` whose last
//! character is dropped from the match. Compiled once, on the first count.

use std::sync::LazyLock;

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};

/// The patterns, and whether each ends with one look-ahead character to drop.
fn patterns() -> (String, [bool; 3]) {
    let words = [
        "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        "\\p{N}{1,3}",
        " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
        "\\s*[\\r\\n]+",
        "\\s+$",
    ]
    .join("|");
    (words, [false, true, false])
}

static SPLITTER: LazyLock<Option<(Regex, [bool; 3])>> = LazyLock::new(|| {
    let (first, lookahead) = patterns();
    let re = Regex::new_many(&[first.as_str(), "\\s+\\s", "\\s+"]).ok()?;
    Some((re, lookahead))
});

/// Calls `piece` with each piece of `text`, in order; `false` when the pattern is unavailable.
pub(super) fn each_piece(text: &str, mut piece: impl FnMut(&str)) -> bool {
    let Some((re, lookahead)) = SPLITTER.as_ref() else {
        return false;
    };
    let mut last = 0;
    while last < text.len() {
        let input = Input::new(&text[last..]).anchored(Anchored::Yes);
        let Some(m) = re.find(input) else { break };
        let mut end = last + m.range().end;
        if lookahead.get(m.pattern().as_usize()) == Some(&true) {
            end -= text[last..end]
                .chars()
                .next_back()
                .map_or(0, char::len_utf8);
        }
        if end <= last {
            break;
        }
        piece(&text[last..end]);
        last = end;
    }
    true
}

//! Text analysis shared by the stages (lint rules, the BM25 and embedding routers, task
//! generation and validation, scoring, the distractor curve): word and name tokenising, stop words and stemming. Synonym
//! folding, tool roles and the IDF-weighted similarity index used to find look-alike tools
//! without comparing every pair live in the submodules, re-exported here.

mod job;
pub(crate) mod pattern;
mod role;
mod similarity;
mod synonyms;

pub(crate) use job::job_twins;
pub(crate) use role::{Role, distinct_jobs, restates_besides, role};
pub(crate) use similarity::{
    SimilarPair, boilerplate, lookalike_doc_of, similar_pairs_with, similarity_doc_of,
};
pub use similarity::{similar_pairs, similarity_doc};
pub(crate) use synonyms::{concept, verb_class_of};

const STOP: &[&str] = &[
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "by",
    "can",
    "for",
    "from",
    "has",
    "have",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "of",
    "on",
    "or",
    "that",
    "the",
    "their",
    "them",
    "this",
    "to",
    "was",
    "will",
    "with",
    "you",
    "your",
    "all",
    "any",
    "each",
    "which",
    "when",
    "use",
    "used",
    "using",
    "tool",
    "returns",
    "return",
    "given",
    "specified",
    "provided",
    "s",
];

pub(crate) fn is_stop(w: &str) -> bool {
    STOP.contains(&w)
}

/// Lower-case alphanumeric words of a text.
pub(crate) fn words(text: &str) -> Vec<String> {
    words_iter(text).collect()
}

/// [`words`], one at a time (for callers that stop early).
pub(crate) fn words_iter(text: &str) -> impl Iterator<Item = String> + '_ {
    raw_words(text).map(|w| w.to_lowercase())
}

/// How many words [`words`] finds, without building them.
pub(crate) fn word_count(text: &str) -> usize {
    raw_words(text).count()
}

fn raw_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// The English Snowball (Porter2) stem: "files"/"file", "reading"/"read", "attendees"/"attende".
/// Stems are remembered per thread (catalogs repeat their words; the memo is bounded).
pub(crate) fn stem(w: &str) -> String {
    static STEMMER: std::sync::LazyLock<rust_stemmers::Stemmer> = std::sync::LazyLock::new(|| {
        rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English)
    });
    thread_local! {
        static MEMO: std::cell::RefCell<std::collections::HashMap<String, String>> =
            std::cell::RefCell::new(std::collections::HashMap::new());
    }
    const MEMO_MAX: usize = 200_000;
    MEMO.with_borrow_mut(|memo| {
        if let Some(s) = memo.get(w) {
            return s.clone();
        }
        let s = STEMMER.stem(w).into_owned();
        if memo.len() >= MEMO_MAX {
            memo.clear();
        }
        if w.len() <= 64 {
            memo.insert(w.to_string(), s.clone());
        }
        s
    })
}

/// Content words (stop words dropped, stemmed).
pub(crate) fn content_words(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| !is_stop(w))
        .map(|w| stem(&w))
        .collect()
}

/// Splits a tool or parameter name on `_ - . /`, spaces and camelCase: `getUserByID` →
/// `get user by id`.
pub(crate) fn name_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let boundary = c.is_uppercase()
            && !cur.is_empty()
            && (chars[i - 1].is_lowercase()
                || chars[i - 1].is_ascii_digit()
                || chars.get(i + 1).is_some_and(|n| n.is_lowercase()));
        if boundary {
            out.push(std::mem::take(&mut cur));
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// True when `text` mentions `name` as a whole word (or its space-separated form).
pub(crate) fn mentions(text: &str, name: &str) -> bool {
    mentions_lower(&text.to_lowercase(), name)
}

/// [`mentions`] over a text already lower-cased (callers that ask many times keep it).
pub(crate) fn mentions_lower(lower: &str, name: &str) -> bool {
    let n = name.to_lowercase();
    has_whole(lower, &n)
        || (n.contains(['_', '-']) && has_whole(lower, &name_words(name).join(" ")))
}

/// `needle` occurs in `lower` with no word character (letter, digit, `_`, `-`) either side.
fn has_whole(lower: &str, needle: &str) -> bool {
    !needle.is_empty()
        && lower.match_indices(needle).any(|(i, _)| {
            let before = lower[..i].chars().next_back();
            let after = lower[i + needle.len()..].chars().next();
            let edge =
                |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
            edge(before) && edge(after)
        })
}

/// True when `text` names `name` as written once the leading words it shares with `own` (a
/// server prefix) are dropped: "calling upload_attachment" in `confluence_upload_attachments`
/// names `confluence_upload_attachment`. At least two words must remain, and only the
/// identifier form counts ("upload attachment" in prose does not).
pub(crate) fn mentions_unprefixed(text: &str, name: &str, own: &str) -> bool {
    let seps = ['_', '-', '.'];
    let (ns, os): (Vec<&str>, Vec<&str>) = (name.split(seps).collect(), own.split(seps).collect());
    let shared = ns
        .iter()
        .zip(&os)
        .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
        .count();
    // Keep two words at least: `confluence_upload_attachment` next to
    // `confluence_upload_attachments` shares `upload` too, yet is named `upload_attachment`.
    let shared = shared.min(ns.len().saturating_sub(2));
    if shared == 0 {
        return false;
    }
    let offset: usize = ns[..shared].iter().map(|w| w.len() + 1).sum();
    name.get(offset..)
        .is_some_and(|rest| has_whole(&text.to_lowercase(), &rest.to_lowercase()))
}

/// The first `max` items joined by ", ", with "and N more" for the rest.
pub(crate) fn list_some(items: &[String], max: usize) -> String {
    let shown = items
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    match items.len().saturating_sub(max) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// At most `max` characters of `s`, with `…` when cut.
pub(crate) fn clip(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips_by_characters() {
        assert_eq!(clip("héllo", 3), "hél…");
        assert_eq!(clip("héllo", 5), "héllo");
    }

    #[test]
    fn splits_names() {
        assert_eq!(name_words("getUserByID"), vec!["get", "user", "by", "id"]);
        assert_eq!(
            name_words("read_text-file.v2"),
            vec!["read", "text", "file", "v2"]
        );
        assert_eq!(name_words("HTTPServer"), vec!["http", "server"]);
    }

    #[test]
    fn mentions_whole_names_only() {
        assert!(mentions("Use read_text_file instead.", "read_text_file"));
        assert!(!mentions("Use read_text_file instead.", "read_text"));
        assert!(mentions("prefer the search nodes tool", "search_nodes"));
        let own = "confluence_upload_attachments";
        let desc = "More efficient than calling upload_attachment multiple times.";
        assert!(mentions_unprefixed(
            desc,
            "confluence_upload_attachment",
            own
        ));
        assert!(!mentions_unprefixed(
            "Upload attachment to a page.",
            "confluence_upload_attachment",
            own
        ));
        assert!(!mentions_unprefixed(
            "See attachment.",
            "confluence_attachment",
            "confluence_page"
        ));
        assert!(!mentions_unprefixed(
            desc,
            "upload_attachment_x",
            "read_file"
        ));
    }
}

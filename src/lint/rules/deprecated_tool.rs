//! ## What it checks
//! A tool says it is deprecated: the word "deprecated" in its title or description (unless the
//! sentence is about a parameter), wording that calls it legacy or obsolete ("Legacy
//! endpoint …", "this tool is obsolete"), "superseded by X" or "in favour of X" where X is a
//! tool of the catalog, or `deprecated: true` in its annotations or `_meta`. A tool whose name
//! says it looks at deprecated things (`list_deprecated_skus`) is deprecated only by a flag.
//!
//! ## Why it matters
//! A deprecated tool still sits in the model's tool list, costs tokens on every request and
//! competes with its replacement. Models do not reliably honour "DEPRECATED" in a description:
//! they pick whichever tool matches the request best, so the old one keeps being called, often
//! with the replacement's arguments.
//!
//! ## Example
//! ```json
//! {"name": "read_file", "description": "Read a file as text. DEPRECATED: Use read_text_file instead."}
//! ```
//!
//! ## How to fix
//! Stop listing the tool (keep accepting calls to it for old clients if needed), or hide it
//! behind a configuration flag. If it must stay listed, say plainly which tool replaces it.

use std::sync::LazyLock;

use crate::text::pattern::Regex;
use serde_json::Value;

use super::common::quote;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::text;

pub(crate) const RULE: Rule = Rule {
    code: "TG014",
    slug: "deprecated-tool",
    // Info: right 1 time in 2 on the held-out corpus of real servers (fixtures/lint-heldout); a deprecated tool beside its named replacement is TG032, an error.
    severity: Severity::Info,
    summary: "A deprecated tool is still listed.",
    doc: rule_doc!("deprecated_tool"),
    check,
    scope: Scope::Catalog,
};

static DEPRECATED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(not\s+|non-)?deprecated\b").unwrap());

/// How a description names the tool that replaces it: "use X instead" or a plain "use X"
/// (groups 1 and 5, which alone are ordinary guidance: "for images use read_media_file
/// instead"; they name a replacement only beside a deprecation), or "superseded by X",
/// "replaced by X", "in favour of X", "migrate to X" (groups 2–4, which say the tool itself
/// is replaced).
static REPLACEMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:(?:use|see|call|prefer|try)\s+(?:the\s+)?`?([A-Za-z0-9_.-]+)`?(?:\s+tool)?\s+instead\b|(?:superseded|replaced|obsoleted)\s+by\s+(?:the\s+)?`?([A-Za-z0-9_.-]+)`?|in\s+favou?r\s+of\s+(?:the\s+)?`?([A-Za-z0-9_.-]+)`?|(?:migrate|switch|move)\s+to\s+(?:the\s+)?`?([A-Za-z0-9_.-]+)`?|(?:use|call|prefer|see)\s+(?:the\s+)?`?([A-Za-z0-9_.-]+)`?)",
    )
    .unwrap()
});

/// Words that say something is old, for a plain "use X" to name a replacement near them.
static OLD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(deprecated|legacy|obsolete|superseded|no longer)\b").unwrap()
});

/// The sentence around byte `at` of `text`, with the one before it.
fn near(text: &str, at: usize) -> &str {
    let ends = ['.', '\n', '!', '?', ';'];
    let this = text[..at].rfind(ends).unwrap_or(0);
    let before = text[..this].rfind(ends).map_or(0, |p| p + 1);
    let end = text[at..].find(ends).map_or(text.len(), |p| at + p);
    &text[before..end]
}

/// The tool of `catalog` that `tool`'s description names as its replacement, and whether the
/// wording itself says the tool is replaced ("superseded by X") rather than only pointing
/// elsewhere ("use X instead").
pub(super) fn replacement<'c>(
    tool: &crate::catalog::Tool,
    catalog: &'c crate::catalog::Catalog,
) -> Option<(&'c str, bool)> {
    let d = tool.description()?;
    for c in REPLACEMENT.captures_iter(d).take(16) {
        for (g, replaced) in [(1, false), (2, true), (3, true), (4, true), (5, false)] {
            let Some(m) = c.get(g) else { continue };
            // A plain "use X" is guidance ("use update_packages to upgrade them") unless the
            // sentence, or the one before it, says something is old.
            if g == 5 && !OLD.is_match(near(d, m.start())) {
                continue;
            }
            let name = m.as_str().trim_end_matches(['.', ',', ':', ';']);
            if name == tool.name() {
                continue;
            }
            if let Some(t) = catalog.tool(name) {
                return Some((t.name(), replaced));
            }
        }
    }
    None
}

/// Words showing that a sentence is about a parameter, not the tool.
const PARAM_WORDS: &[&str] = &[
    "parameter",
    "parameters",
    "param",
    "argument",
    "arguments",
    "field",
    "fields",
    "option",
    "property",
    "flag",
];

/// Words showing that a sentence is about the whole server or package.
const SERVER_WORDS: &[&str] = &["server", "package", "plugin", "extension", "integration"];

/// True when "deprecated" at `[s, e)` says something IS deprecated ("DEPRECATED: …",
/// "this tool is deprecated", "deprecated in favour of …"), not when it qualifies a noun
/// ("lists deprecated API versions").
fn predicative(text_: &str, s: usize, e: usize, sentence_start: usize) -> bool {
    let before = text::words(&text_[sentence_start..s]);
    let after = text_[e..].trim_start();
    let next_word = text::words(after).into_iter().next();
    before.is_empty()
        || before.last().is_some_and(|w| {
            [
                "is", "are", "was", "been", "now", "being", "be", "tool", "endpoint", "function",
                "method",
            ]
            .contains(&w.as_str())
        })
        || after.is_empty()
        || after.starts_with([':', ')', ',', ';', '.', '!', '-', '—', '–', ']'])
        || next_word.is_some_and(|w| {
            ["in", "and", "use", "since", "as", "please", "will", "for"].contains(&w.as_str())
        })
}

/// The sentence of `text` saying the tool is deprecated, if any.
fn deprecated_sentence<'a>(text_: &'a str, params: &[&str]) -> Option<&'a str> {
    // Bounded: a hostile description repeating the word costs at most this many sentences.
    for m in DEPRECATED.captures_iter(text_).take(16) {
        if m.get(1).is_some() {
            continue;
        }
        let Some(whole) = m.get(0) else { continue };
        let start = text_[..whole.start()]
            .rfind(['.', '\n', '!', '?', ';'])
            .map_or(0, |p| p + 1);
        let end = text_[whole.end()..]
            .find(['.', '\n', '!', '?', ';'])
            .map_or(text_.len(), |p| whole.end() + p);
        let sentence = &text_[start..end];
        if !predicative(text_, whole.start(), whole.end(), start) {
            continue;
        }
        let words = text::words(sentence);
        let about_param = words.iter().any(|w| PARAM_WORDS.contains(&w.as_str()))
            || params
                .iter()
                .any(|p| p.len() >= 3 && text::mentions(sentence, p));
        // "This MCP server (@x/server) is deprecated": the whole server, not this tool (the
        // notice is repeated in every tool; there is no replacement to list next to it).
        let about_server = words.iter().any(|w| SERVER_WORDS.contains(&w.as_str()));
        if !about_param && !about_server {
            return Some(sentence.trim());
        }
    }
    None
}

/// Wording that says the tool itself is old without the word "deprecated": "Legacy endpoint",
/// "this tool is obsolete".
static LEGACY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\W*(legacy|obsolete|outdated)\s+(endpoint|tool|api|version|method|function|operation)\b|\b(this|the)\s+(tool|endpoint|function|method|operation)\s+is\s+(now\s+)?(legacy|obsolete|outdated|superseded)\b",
    )
    .unwrap()
});

/// A tool whose name says it looks at deprecated things (`list_deprecated_skus`): its text
/// talks about deprecation without being deprecated.
fn about_deprecated_things(tool: &crate::catalog::Tool) -> bool {
    let words = text::name_words(tool.name());
    words
        .first()
        .is_some_and(|w| super::common::LOOKING_WORDS.contains(&w.as_str()))
        && words.iter().any(|w| {
            [
                "deprecated",
                "legacy",
                "obsolete",
                "deprecation",
                "deprecations",
            ]
            .contains(&w.as_str())
        })
}

/// The sentence of a description saying the tool is legacy or superseded by a tool of the
/// catalog ("Legacy endpoint, superseded by pick_order").
fn legacy_sentence<'a>(
    tool: &crate::catalog::Tool,
    d: &'a str,
    catalog: Option<&crate::catalog::Catalog>,
) -> Option<&'a str> {
    let ends = ['.', '\n', '!', '?', ';'];
    for sentence in d.split_inclusive(ends).take(64) {
        let words = text::words(sentence);
        if words.iter().any(|w| SERVER_WORDS.contains(&w.as_str())) {
            continue;
        }
        let superseded = catalog.is_some_and(|c| {
            SUPERSEDED_BY.captures_iter(sentence).take(4).any(|m| {
                m.get(1).is_some_and(|n| {
                    let n = n.as_str().trim_end_matches(['.', ',', ':', ';']);
                    n != tool.name() && c.tool(n).is_some()
                })
            })
        });
        if LEGACY.is_match(sentence.trim_start()) || superseded {
            return Some(sentence.trim().trim_end_matches(ends));
        }
    }
    None
}

/// "superseded by X", "replaced by X", "in favour of X": group 1 is X.
static SUPERSEDED_BY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:(?:superseded|replaced|obsoleted)\s+by|in\s+favou?r\s+of)\s+(?:the\s+)?`?([A-Za-z0-9_.-]+)`?")
        .unwrap()
});

/// Where and how `tool` says it is deprecated: (JSON pointer, what it says).
pub(super) fn deprecation(tool: &crate::catalog::Tool) -> Option<(&'static str, String)> {
    deprecation_in(tool, None)
}

/// [`deprecation`], also reading "superseded by X" when X is a tool of `catalog`.
pub(super) fn deprecation_in(
    tool: &crate::catalog::Tool,
    catalog: Option<&crate::catalog::Catalog>,
) -> Option<(&'static str, String)> {
    let params: Vec<&str> = tool.params().into_iter().map(|(n, _)| n).collect();
    let flagged = |v: Option<&Value>| v.and_then(Value::as_bool) == Some(true);
    let meta = tool.raw.get("_meta");
    let looks_at_them = about_deprecated_things(tool);
    if looks_at_them {
        // Only an explicit flag says such a tool is itself deprecated.
    } else if let Some(s) = tool.title().and_then(|t| deprecated_sentence(t, &params)) {
        return Some(("/title", format!("its title says \"{}\"", quote(s, 80))));
    } else if let Some(s) = tool
        .description()
        .and_then(|d| deprecated_sentence(d, &params).or_else(|| legacy_sentence(tool, d, catalog)))
    {
        return Some((
            "/description",
            format!("its description says \"{}\"", quote(s, 80)),
        ));
    }
    if flagged(tool.annotations().and_then(|a| a.get("deprecated"))) {
        Some((
            "/annotations/deprecated",
            "its annotations set `deprecated: true`".to_string(),
        ))
    } else if flagged(meta.and_then(|m| m.get("deprecated"))) {
        Some((
            "/_meta/deprecated",
            "its `_meta` sets `deprecated: true`".to_string(),
        ))
    } else {
        None
    }
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        let hit = deprecation_in(tool, Some(cx.catalog));
        let Some((ptr, why)) = hit else { continue };
        let replacement = replacement(tool, cx.catalog).map(|(r, _)| r);
        let message = match replacement {
            Some(r) => format!(
                "`{}` is deprecated ({why}) but still listed next to its replacement `{r}`",
                tool.name()
            ),
            None => format!("`{}` is deprecated ({why}) but still listed", tool.name()),
        };
        out.push(cx.finding(
            &RULE,
            Some(i),
            ptr,
            message,
            "Stop listing the deprecated tool (or hide it behind a flag) so models only see its replacement.",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    /// Issue 40: a tool about deprecated things is not deprecated; "Legacy endpoint …
    /// superseded by X" is.
    #[test]
    fn about_deprecated_things_is_quiet_and_legacy_wording_fires() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "list_deprecated_skus", "description": "Lists SKUs that are deprecated. Deprecated SKUs can no longer be ordered."}),
                json!({"name": "pick_items", "description": "Legacy endpoint for picking items; superseded by pick_order."}),
                json!({"name": "pick_order", "description": "Picks every item of an order."}),
                json!({"name": "replace_text", "description": "Each match of `pattern` is replaced by the replacement text."}),
            ],
        );
        let names: Vec<_> = out.iter().filter_map(|f| f.tool.as_deref()).collect();
        assert_eq!(names, ["pick_items"], "{out:#?}");
        assert!(
            out[0].message.contains("`pick_order`"),
            "{}",
            out[0].message
        );
    }

    #[test]
    fn fires_on_deprecated_tools() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "read_file", "title": "Read File (Deprecated)",
                       "description": "Read a file as text. DEPRECATED: Use read_text_file instead."}),
                json!({"name": "read_text_file", "description": "Read a file as text."}),
                json!({"name": "old", "description": "Old thing.", "annotations": {"deprecated": true}}),
            ],
        );
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(
            out[0].message.contains("`read_text_file`"),
            "{}",
            out[0].message
        );
        assert_eq!(out[1].pointer, "/annotations/deprecated");
    }

    #[test]
    fn quiet_when_the_whole_server_is_deprecated() {
        let out = lint_tools(
            &RULE,
            vec![json!({"name": "get_logs",
                "description": "Get build logs.\n\nNOTE: This CircleCI MCP server (@circleci/mcp-server-circleci) is deprecated and no longer receives feature work."})],
        );
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn quiet_when_only_a_parameter_is_deprecated() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "search", "description": "Search issues. The `sort` parameter is deprecated.",
                        "inputSchema": {"type": "object", "properties": {"sort": {"type": "string"}}}}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

//! ## What it checks
//! Two tools whose descriptions and names are so alike (IDF-weighted word overlap at or above
//! `lookalike_threshold`, 0.5 by default) that a model cannot tell which one to call. When
//! one description at least names the other tool, the finding is only informational.
//!
//! ## Why it matters
//! A model picks a tool by matching the user's request against each description. When two
//! descriptions say nearly the same thing, the request matches both equally; the model picks
//! one more or less at random, and a host that routes or filters tools by similarity may drop
//! the right one. Every look-alike pair is a coin flip on every call.
//!
//! ## Example
//! ```json
//! {"tools": [
//!   {"name": "read_file", "description": "Read the complete contents of a file as text."},
//!   {"name": "read_text_file", "description": "Read the complete contents of a file from disk as text."}]}
//! ```
//!
//! ## How to fix
//! Merge the tools if they do the same job. Otherwise make each description say what sets it
//! apart and when to use it instead of the other: `"Read a text file. For images or audio use
//! read_media_file instead."`.

use std::collections::HashSet;

use crate::catalog::Tool;
use crate::lint::{Context, Finding, Rule, Severity, rule_doc, text};

pub(crate) const RULE: Rule = Rule {
    code: "TG005",
    slug: "look-alike-tools",
    severity: Severity::Warning,
    summary: "Two tools are described so alike that a model cannot tell them apart.",
    doc: rule_doc!("look_alike_tools"),
    check,
};

/// The stemmed terms the similarity index compares: description content words and name words.
/// (word as written, its stemmed verb-class form) for the description and name of a tool.
fn terms(tool: &Tool) -> Vec<(String, String)> {
    let mut words = text::words(tool.description().unwrap_or(""));
    words.extend(text::name_words(tool.name()));
    words
        .into_iter()
        .filter(|w| !text::is_stop(w))
        .map(|w| {
            let key = text::verb_class(&text::stem(&w)).to_string();
            (w, key)
        })
        .collect()
}

/// Terms the two tools share, in `a`'s order, without repeats; at most `max`.
fn shared(a: &Tool, b: &Tool, max: usize) -> Vec<String> {
    let other: HashSet<String> = terms(b).into_iter().map(|(_, k)| k).collect();
    let mut seen = HashSet::new();
    terms(a)
        .into_iter()
        .filter(|(_, k)| other.contains(k) && seen.insert(k.clone()))
        .map(|(w, _)| w)
        .take(max)
        .collect()
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for pair in cx.similar() {
        let (Some(a), Some(b)) = (cx.catalog.tools.get(pair.a), cx.catalog.tools.get(pair.b))
        else {
            continue;
        };
        let (da, db) = (a.description().unwrap_or(""), b.description().unwrap_or(""));
        let named = text::mentions(da, b.name()) || text::mentions(db, a.name());
        let words = shared(a, b, 8);
        let words = if words.is_empty() {
            "none".to_string()
        } else {
            words.join(", ")
        };
        let mut message = format!(
            "`{}` looks like `{}` (similarity {:.2}; shared words: {words})",
            b.name(),
            a.name(),
            pair.score
        );
        if named {
            message
                .push_str("; one description names the other tool, which helps the model choose");
        }
        let mut f = cx.finding(
            &RULE,
            Some(pair.b),
            "/description",
            message,
            "Make each description say what sets the tool apart and when to use it instead of the other, or merge the two tools.",
        );
        if named {
            f.severity = Severity::Info;
        }
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    fn catalog(second: &str) -> Vec<serde_json::Value> {
        vec![
            json!({"name": "read_file", "description": "Read the complete contents of a file as text"}),
            json!({"name": "read_text_file", "description": second}),
            json!({"name": "send_email", "description": "Send an email message to a recipient"}),
        ]
    }

    #[test]
    fn fires_on_look_alikes_and_softens_when_one_names_the_other() {
        let out = lint_tools(
            &RULE,
            catalog("Read the complete contents of a file from disk as text"),
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Warning);
        assert_eq!(out[0].tool.as_deref(), Some("read_text_file"));
        assert!(out[0].message.contains("read"), "{}", out[0].message);

        let out = lint_tools(
            &RULE,
            catalog(
                "Read the complete contents of a file from disk as text. Prefer it over read_file.",
            ),
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Info);
    }

    #[test]
    fn quiet_on_distinct_tools() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "send_email", "description": "Send an email message to a recipient"}),
                json!({"name": "get_weather", "description": "Current weather forecast for a city"}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

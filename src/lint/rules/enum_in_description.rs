//! ## What it checks
//! A string parameter (at any depth of `inputSchema`) without `enum`, `const`, `oneOf` or
//! `anyOf` whose description lists the values it accepts: "one of: json, csv, xml", "allowed
//! values are …", "must be either 'daily' or 'weekly'", "'asc' or 'desc'". Lists introduced
//! as examples ("e.g.", "such as", "like") are not reported.
//!
//! Informational by default: on the lint precision corpus (fixtures/lint-corpus) prose lists
//! that are not the closed set (conditional values, categories, another field's values) are
//! still too common to warn. Raise it with `[lint.rules.TG020] level = "warning"`.
//!
//! ## Why it matters
//! A model fills arguments from the schema first and reads descriptions loosely. With a plain
//! `"type": "string"` it will happily send `"ascending"`, `"DESC"` or `"newest"`; the call fails
//! or, worse, is silently treated as a default. An `enum` is shown to the model as the exact
//! choices, constrains structured-output decoding on hosts that support it, and lets the host
//! validate the argument before your server sees it.
//!
//! ## Example
//! ```json
//! {"name": "list_orders", "description": "List a customer's orders.",
//!  "inputSchema": {"type": "object", "properties": {
//!    "sort": {"type": "string", "description": "Sort order: 'asc' or 'desc'"}}}}
//! ```
//!
//! ## How to fix
//! Declare the values: `"sort": {"type": "string", "enum": ["asc", "desc"], "description":
//! "Sort order by creation date"}`, and keep the description for what they mean.

use std::sync::LazyLock;

use crate::text::pattern::Regex;
use serde_json::Value;

use super::common::{properties, quote};
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG020",
    slug: "enum-in-description",
    severity: Severity::Info,
    summary: "A parameter's allowed values are listed in prose instead of an enum.",
    doc: rule_doc!("enum_in_description"),
    check,
    scope: Scope::Catalog,
};

/// One quoted single-token value.
const Q: &str = r#"['"`]([A-Za-z0-9_.:+-]{1,40})['"`]"#;

static QUOTED: LazyLock<Regex> = LazyLock::new(|| Regex::new(Q).unwrap());
/// Two or more quoted values joined by commas, slashes, bars or "or".
static QUOTED_LIST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"{Q}(?:\s*(?:,|/|\|)?\s*(?:\bor\b)?\s*{Q})+")).unwrap());
/// "one of: …", "allowed values are …" and the rest of the sentence.
static ONE_OF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:one\s+of|(?:allowed|valid|possible|supported|accepted)\s+values(?:\s+(?:are|include))?)\s*[:\-]?\s*([^\n]+)").unwrap()
});
/// "must be (either) X or Y". Values are ASCII words, as in [`Q`] (an ASCII `\w` also keeps
/// the compiled pattern small).
static MUST_BE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b(?:must|should)\s+be\s+(?:either\s+)?['"`]?((?-u:\w)+)['"`]?\s+or\s+['"`]?((?-u:\w)+)['"`]?"#,
    )
    .unwrap()
});
/// "either 'X' or 'Y'", "can be 'X' or 'Y'".
static EITHER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\b(?:either|can\s+be)\s+['"`]((?-u:\w)+)['"`]\s+or\s+['"`]((?-u:\w)+)['"`]"#)
        .unwrap()
});
/// Sentences that give examples, not the full set of values.
static EXAMPLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(eg|ie|for\s+example|for\s+instance|such\s+as|like|examples?)\b").unwrap()
});
/// A description that says its list is not the whole set.
static NOT_EXHAUSTIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(not\s+(an\s+)?exhaustive|non-exhaustive|(common|typical|popular)\s+values|bad\s*\(|avoid\s+vague)").unwrap()
});
/// An innermost JSON object or array written in prose (at most [`MAX_SNIPPET`] characters: the
/// bound is checked in code, which keeps the compiled pattern small).
static JSON_SNIPPET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\{[^{}]*\}|\[[^\[\]]*\]").unwrap());
const MAX_SNIPPET: usize = 402;
static SENTENCE_END: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[.;!?]\s+|\n").unwrap());
static TOKEN: LazyLock<Regex> = LazyLock::new(|| Regex::new("^[A-Za-z0-9_.:+-]{1,40}$").unwrap());
static LIST_SEP: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i),|\bor\b|\|").unwrap());

/// Compiles this rule's patterns ahead of use ([`super::warm_up`]).
pub(super) fn warm() {
    for re in [
        &QUOTED,
        &QUOTED_LIST,
        &ONE_OF,
        &MUST_BE,
        &EITHER,
        &EXAMPLE,
        &SENTENCE_END,
        &NOT_EXHAUSTIVE,
        &JSON_SNIPPET,
        &TOKEN,
        &LIST_SEP,
    ] {
        LazyLock::force(re);
    }
}

/// Words that describe a value rather than being one ("must be absolute or relative").
const NOT_VALUES: &[&str] = &[
    "a",
    "an",
    "the",
    "any",
    "some",
    "one",
    "more",
    "less",
    "empty",
    "null",
    "blank",
    "none",
    "omitted",
    "provided",
    "set",
    "specified",
    "valid",
    "absolute",
    "relative",
    "positive",
    "negative",
    "unique",
];

fn plain(vals: &[String]) -> bool {
    vals.iter()
        .all(|v| !NOT_VALUES.contains(&v.to_lowercase().as_str()))
}

/// The values a description lists as the only allowed ones (at least two), if it does.
fn listed_values(desc: &str) -> Option<Vec<String>> {
    if NOT_EXHAUSTIVE.is_match(desc) {
        return None;
    }
    // Quoted strings inside JSON snippets are keys and sample data, not the allowed values.
    let mut desc = desc.to_string();
    for _ in 0..8 {
        let next = JSON_SNIPPET
            .replace_all(&desc, |c: &crate::text::pattern::Captures| {
                if c[0].chars().count() <= MAX_SNIPPET {
                    " ".to_string()
                } else {
                    c[0].to_string()
                }
            })
            .into_owned();
        if next == desc {
            break;
        }
        desc = next;
    }
    let norm = desc
        .replace("e.g.", "eg")
        .replace("E.g.", "eg")
        .replace("i.e.", "ie");
    for sentence in SENTENCE_END.split(&norm) {
        if EXAMPLE.is_match(sentence) {
            continue;
        }
        if let Some(c) = ONE_OF.captures(sentence)
            && let Some(rest) = c.get(1)
        {
            let rest = rest.as_str();
            let rest = rest.split_once(':').map_or(rest, |(_, after)| after);
            let mut vals: Vec<String> = QUOTED
                .captures_iter(rest)
                .filter_map(|c| c.get(1))
                .map(|m| m.as_str().to_string())
                .collect();
            if vals.len() < 2 {
                vals = LIST_SEP
                    .split(rest)
                    .map(|w| w.trim().trim_matches(['\'', '"', '`', '.']).to_string())
                    .filter(|w| TOKEN.is_match(w))
                    .collect();
                if !plain(&vals) {
                    vals.clear();
                }
            }
            if vals.len() >= 2 {
                return Some(vals);
            }
        }
        if let Some(m) = QUOTED_LIST.find(sentence) {
            let vals: Vec<String> = QUOTED
                .captures_iter(m.as_str())
                .filter_map(|c| c.get(1))
                .map(|m| m.as_str().to_string())
                .collect();
            if vals.len() >= 2 {
                return Some(vals);
            }
        }
        if let Some(c) = EITHER
            .captures(sentence)
            .or_else(|| MUST_BE.captures(sentence))
        {
            let vals: Vec<String> = [c.get(1), c.get(2)]
                .into_iter()
                .flatten()
                .map(|m| m.as_str().to_string())
                .collect();
            if vals.len() == 2 && plain(&vals) {
                return Some(vals);
            }
        }
    }
    None
}

/// A string-typed schema whose values are not already constrained.
fn unconstrained_string(schema: &Value) -> bool {
    let is_string = match schema.get("type") {
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "string"),
        _ => false,
    };
    is_string
        && !["enum", "const", "oneOf", "anyOf"]
            .iter()
            .any(|k| schema.get(*k).is_some())
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        let Some(root) = tool.input_schema() else {
            continue;
        };
        let props = properties(root, "/inputSchema");
        let names: std::collections::HashSet<&str> = props.iter().map(|p| p.name).collect();
        for prop in &props {
            if !unconstrained_string(prop.schema) {
                continue;
            }
            let Some(desc) = prop.schema.get("description").and_then(Value::as_str) else {
                continue;
            };
            let Some(mut vals) = listed_values(desc) else {
                continue;
            };
            // "Either 'content' or 'content_file' must be provided" names parameters.
            if vals.iter().any(|v| names.contains(v.as_str())) {
                continue;
            }
            let mut seen = std::collections::HashSet::new();
            vals.retain(|v| seen.insert(v.clone()));
            vals.truncate(12);
            let as_enum = serde_json::to_string(&vals).unwrap_or_default();
            out.push(cx.finding(
                &RULE,
                Some(i),
                &format!("{}/description", prop.pointer),
                format!(
                    "`{}` parameter `{}` is a free string, but its description lists the allowed values {}: \"{}\"",
                    tool.name(),
                    prop.name,
                    vals.iter().map(|v| format!("'{v}'")).collect::<Vec<_>>().join(", "),
                    quote(desc, 80)
                ),
                &format!("Declare the values in the schema: \"enum\": {as_enum}."),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_on_values_listed_in_prose() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "list_orders", "inputSchema": {"type": "object", "properties": {
                "sort": {"type": "string", "description": "Sort order: 'asc' or 'desc'"},
                "format": {"type": "string", "description": "Output format, one of: json, csv, xml."}}}}),
            ],
        );
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(
            out[0].help.contains(r#""enum": ["asc","desc"]"#),
            "{}",
            out[0].help
        );
        assert!(out[1].message.contains("'csv'"), "{}", out[1].message);
    }

    #[test]
    fn quiet_on_json_samples_parameter_names_and_open_lists() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "create_page", "inputSchema": {"type": "object", "properties": {
                "content": {"type": "string", "description": "Body. Either 'content' or 'content_file' must be provided."},
                "content_file": {"type": "string", "description": "A file with the body."},
                "fields": {"type": "string", "description": "JSON object, e.g. {\"labels\": [\"frontend\", \"urgent\"]}. Keys: {\"priority\": \"high\"}"},
                "sql": {"type": "string", "description": "Log source, one of: edge, postgres, auth, but this list is not exhaustive."}}}}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn quiet_on_enums_examples_and_prose() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "list_directory_with_sizes", "inputSchema": {"type": "object", "properties": {
                "sortBy": {"type": "string", "enum": ["name", "size"], "description": "Sort entries by name or size"},
                "lang": {"type": "string", "description": "Language code, e.g. 'en' or 'fr'"},
                "path": {"type": "string", "description": "Path, must be absolute or relative to the root"}}}}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

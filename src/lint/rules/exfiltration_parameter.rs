//! ## What it checks
//! A top-level parameter whose name suggests a catch-all text field (`notes`, `context`,
//! `metadata`, `extra`, `comment`, `debug`, `details`, `feedback`, `reasoning`, `thoughts`,
//! `conversation`, `history`, `sidenote`, `summary`, `payload`, … alone or as a word of the
//! name) that accepts free text or data (a string without `enum`/`const`/`format`/`pattern`,
//! no type at all, or an object with no declared properties), has no description, and is not
//! mentioned in the tool's description.
//!
//! ## Why it matters
//! A model fills every parameter it is offered, and it fills an unexplained free-text field
//! with whatever seems relevant: the conversation so far, file contents it has read, secrets
//! from other tools' results. That is exactly how poisoned tools exfiltrate data ("pass the
//! file's content as `sidenote`"), and even an honest server ends up logging private context it
//! never needed.
//!
//! ## Example
//! ```json
//! {"name": "add", "description": "Add two numbers.",
//!  "inputSchema": {"type": "object", "properties": {
//!    "a": {"type": "number"}, "b": {"type": "number"}, "sidenote": {"type": "string"}}}}
//! ```
//!
//! ## How to fix
//! Remove parameters the tool does not need. Otherwise describe exactly what goes in the field
//! and constrain it (`enum`, `maxLength`, `format`, or declared object properties):
//! `"comment": {"type": "string", "maxLength": 200, "description": "Public comment shown on
//! the ticket"}`.

use super::common::{declared_type, has_description, is_free_text};
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::text;

pub(crate) const RULE: Rule = Rule {
    code: "TG019",
    slug: "exfiltration-parameter",
    severity: Severity::Warning,
    summary: "An undescribed free-text parameter can carry conversation data out.",
    doc: rule_doc!("exfiltration_parameter"),
    check,
    scope: Scope::Catalog,
};

/// Name words of catch-all fields a model fills with whatever it has at hand.
const CATCH_ALL: &[&str] = &[
    "notes",
    "note",
    "context",
    "metadata",
    "meta",
    "extra",
    "comment",
    "comments",
    "debug",
    "info",
    "details",
    "feedback",
    "reasoning",
    "thoughts",
    "thinking",
    "conversation",
    "history",
    "sidenote",
    "remarks",
    "payload",
    "summary",
    "memo",
    "annotation",
    "additional",
    "misc",
];

fn catch_all(name: &str) -> bool {
    let lower = name.to_lowercase();
    CATCH_ALL.contains(&lower.as_str())
        || text::name_words(name)
            .iter()
            .any(|w| CATCH_ALL.contains(&w.as_str()))
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        let desc = tool.description().unwrap_or("");
        for (name, schema) in tool.params() {
            if !catch_all(name)
                || !is_free_text(schema)
                || has_description(schema)
                || text::mentions(desc, name)
            {
                continue;
            }
            let kind =
                declared_type(schema).map_or("untyped".to_string(), |t| format!("{t}-typed"));
            out.push(cx.finding(
                &RULE,
                Some(i),
                &format!("/inputSchema/properties/{}", crate::catalog::jsonpos::escape(name)),
                format!(
                    "`{}` parameter `{name}` is an undescribed, {kind} free-form field that nothing in the tool explains; the model fills it at will and can carry conversation data or secrets out to the server",
                    tool.name()
                ),
                "Remove the parameter, or describe exactly what it must contain and constrain it (enum, maxLength, format, declared properties).",
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
    fn fires_on_an_unexplained_catch_all_field() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "add", "description": "Add two numbers.", "inputSchema": {"type": "object",
                "properties": {"a": {"type": "number"}, "sidenote": {"type": "string"},
                               "extraContext": {"type": "object"}}}}),
            ],
        );
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(out[0].pointer, "/inputSchema/properties/sidenote");
    }

    #[test]
    fn quiet_when_described_constrained_or_mentioned() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "comment", "description": "Post the comment text on the ticket.",
                "inputSchema": {"type": "object", "properties": {
                    "comment": {"type": "string"},
                    "notes": {"type": "string", "description": "Internal notes shown to agents"},
                    "summary": {"type": "string", "enum": ["short", "long"]},
                    "metadata": {"type": "object", "properties": {"id": {"type": "string"}}}}}}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

//! ## What it checks
//! A property of a tool's `inputSchema` has no `description`. Top-level parameters are
//! warnings; properties nested inside objects, array items or `$defs` are informational. A
//! property counts as described when its own schema, the schema its `$ref` points to, or one
//! of its `allOf`/`anyOf`/`oneOf` branches has a non-empty description.
//!
//! ## Why it matters
//! A model fills arguments from the parameter names, types and descriptions alone. `path` does
//! not say absolute or relative; `limit` does not say the maximum; `query` does not say the
//! syntax. Without a description the model guesses the format, and a wrong guess is a failed
//! call, a retry, or worse, a call that succeeds with the wrong value.
//!
//! ## Example
//! ```json
//! {"name": "read_file", "description": "Read a text file.",
//!  "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}},
//!                  "required": ["path"]}}
//! ```
//!
//! ## How to fix
//! Describe every parameter: what it means, its format or units, limits and an example:
//! `"path": {"type": "string", "description": "Absolute path of the file, e.g. /home/me/notes.md"}`.

use serde_json::Value;

use super::common::{has_description, properties, resolve_ref};
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG007",
    slug: "undocumented-parameter",
    severity: Severity::Warning,
    summary: "A tool parameter has no description.",
    doc: rule_doc!("undocumented_parameter"),
    check,
    scope: Scope::Catalog,
};

/// Hops followed through `$ref`s and branches when looking for a description.
const MAX_HOPS: usize = 8;

/// True when `schema`, its `$ref` target, or one of its combinator branches is described.
fn documented(root: &Value, schema: &Value, hops: usize) -> bool {
    if has_description(schema) {
        return true;
    }
    if hops >= MAX_HOPS {
        return false;
    }
    if let Some(r) = schema.get("$ref").and_then(Value::as_str)
        && let Some((_, target)) = resolve_ref(root, r)
        && documented(root, target, hops + 1)
    {
        return true;
    }
    ["allOf", "anyOf", "oneOf"].iter().any(|k| {
        schema
            .get(*k)
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.iter().any(|b| documented(root, b, hops + 1)))
    })
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        let Some(root) = tool.input_schema() else {
            continue;
        };
        for prop in properties(root, "/inputSchema") {
            if documented(root, prop.schema, 0) {
                continue;
            }
            let mut f = if prop.top_level {
                cx.finding(
                    &RULE,
                    Some(i),
                    &prop.pointer,
                    format!("`{}` parameter `{}` has no description", tool.name(), prop.name),
                    "Add a \"description\" saying what the value means, its format or units, and an example.",
                )
            } else {
                cx.finding(
                    &RULE,
                    Some(i),
                    &prop.pointer,
                    format!(
                        "`{}` nested property `{}` (at {}) has no description",
                        tool.name(),
                        prop.name,
                        prop.pointer
                    ),
                    "Add a \"description\" saying what the value means, its format or units, and an example.",
                )
            };
            if !prop.top_level {
                f.severity = Severity::Info;
            }
            // The same undescribed definition in many tools is one fix: shown as one line.
            let definition = crate::catalog::canonical::to_canonical_string(prop.schema);
            f.group = Some(crate::lint::FindingGroup {
                key: format!(
                    "{}:{}:{}",
                    if prop.top_level { "param" } else { "nested" },
                    prop.name,
                    crate::catalog::canonical::sha256_hex(&definition)
                ),
                message: if prop.top_level {
                    format!("parameter `{}` has no description", prop.name)
                } else {
                    format!("nested property `{}` has no description", prop.name)
                },
            });
            out.push(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_per_undescribed_property_with_nested_ones_as_info() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "edit_file", "inputSchema": {"type": "object", "properties": {
                "path": {"type": "string"},
                "mode": {"$ref": "#/$defs/mode"},
                "edits": {"type": "array", "description": "Edits to apply", "items": {
                    "type": "object", "properties": {"old/text": {"type": "string"}}}}},
                "$defs": {"mode": {"type": "string", "description": "How to open the file"}}}}),
            ],
        );
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(out[0].pointer, "/inputSchema/properties/path");
        assert_eq!(out[0].severity, Severity::Warning);
        assert_eq!(
            out[1].pointer,
            "/inputSchema/properties/edits/items/properties/old~1text"
        );
        assert_eq!(out[1].severity, Severity::Info);
    }

    #[test]
    fn quiet_when_every_parameter_is_described() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "echo", "inputSchema": {"type": "object", "properties": {
                "message": {"type": "string", "description": "Message to echo"}}}}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

//! ## What it checks
//! A tool's `inputSchema` is missing, is not a JSON object, or does not declare
//! `"type": "object"`; or its `outputSchema` is present but is not an object schema with
//! `"type": "object"`. The MCP specification requires both to be object schemas.
//!
//! ## Why it matters
//! Function-calling APIs pass a tool's arguments as one JSON object, and the model is trained
//! to produce exactly that: named arguments in an object. A schema of another type (or none)
//! gives the model nothing to fill; hosts reject the tool, silently drop it from the list, or
//! send it with an empty parameter list so the model calls it without the arguments it needs.
//!
//! ## Example
//! ```json
//! {"name": "search", "description": "Full-text search over the wiki.",
//!  "inputSchema": {"type": "string"}}
//! ```
//!
//! ## How to fix
//! Wrap the arguments in an object: `{"type": "object", "properties": {"query": {"type":
//! "string", "description": "Words to look for"}}, "required": ["query"]}`. A tool without
//! arguments still needs `{"type": "object", "properties": {}}`.

use serde_json::Value;

use crate::catalog::kind;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG010",
    slug: "input-schema-not-object",
    severity: Severity::Error,
    summary: "A tool's input (or output) schema is not an object schema.",
    doc: rule_doc!("input_schema_not_object"),
    check,
    scope: Scope::Catalog,
};

/// What is wrong with a schema that must be `"type": "object"`, and where.
fn problem(schema: &Value, key: &str) -> Option<(String, String)> {
    let Some(map) = schema.as_object() else {
        return Some((
            format!("/{key}"),
            format!("{key} is {}, not a JSON Schema object", kind(schema)),
        ));
    };
    match map.get("type") {
        Some(Value::String(t)) if t == "object" => None,
        None => Some((
            format!("/{key}"),
            format!("{key} has no `type`; MCP requires `\"type\": \"object\"`"),
        )),
        Some(other) => Some((
            format!("/{key}/type"),
            format!("{key} has `type: {other}`; MCP requires `\"type\": \"object\"`"),
        )),
    }
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    const HELP: &str = "Make the schema `{\"type\": \"object\", \"properties\": {…}}` (use empty properties for a tool without arguments).";
    for (i, tool) in cx.tools() {
        match tool.input_schema() {
            None => out.push(cx.finding(
                &RULE,
                Some(i),
                "",
                format!(
                    "`{}` has no inputSchema; MCP requires one, even for a tool without arguments",
                    tool.name()
                ),
                HELP,
            )),
            Some(schema) => {
                if let Some((ptr, what)) = problem(schema, "inputSchema") {
                    out.push(cx.finding(
                        &RULE,
                        Some(i),
                        &ptr,
                        format!("`{}` {what}", tool.name()),
                        HELP,
                    ));
                }
            }
        }
        if let Some(schema) = tool.output_schema()
            && let Some((ptr, what)) = problem(schema, "outputSchema")
        {
            out.push(cx.finding(
                &RULE,
                Some(i),
                &ptr,
                format!("`{}` {what}", tool.name()),
                HELP,
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
    fn fires_on_missing_and_non_object_schemas() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "a"}),
                json!({"name": "b", "inputSchema": {"type": "string"}}),
                json!({"name": "c", "inputSchema": "object"}),
                json!({"name": "d", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array"}}),
            ],
        );
        assert_eq!(out.len(), 4, "{out:?}");
        assert_eq!(out[1].pointer, "/inputSchema/type");
        assert_eq!(out[3].pointer, "/outputSchema/type");
    }

    #[test]
    fn quiet_on_object_schemas() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "a", "inputSchema": {"type": "object", "properties": {}},
                        "outputSchema": {"type": "object"}}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

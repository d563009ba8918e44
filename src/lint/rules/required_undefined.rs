//! ## What it checks
//! An object schema in a tool's `inputSchema` lists a name in `required` that its `properties`
//! do not define (properties of `allOf`/`anyOf`/`oneOf` branches count as defined), or has a
//! `required` that is not an array of strings (for example the draft-03 style
//! `"required": true` inside a property).
//!
//! ## Why it matters
//! A model learns which arguments exist from `properties`. A required name that is not there is
//! an argument the model was never told about: it cannot know its type or meaning, so it either
//! leaves it out (and the call fails validation) or invents a value. Many hosts also reject or
//! rewrite such schemas, and strict function-calling modes refuse them outright.
//!
//! ## Example
//! ```json
//! {"name": "create_issue", "description": "Create an issue in a repository.",
//!  "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}},
//!                  "required": ["title", "repo"]}}
//! ```
//!
//! ## How to fix
//! Define every required name under `properties`, with a type and a description, or remove it
//! from `required`. Put `required` on the object, as an array: `"required": ["title"]`.

use serde_json::{Map, Value};

use super::common::{quote, subschemas};
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG008",
    slug: "required-undefined",
    severity: Severity::Error,
    summary: "A required parameter is not defined in the schema.",
    doc: rule_doc!("required_undefined"),
    check,
    scope: Scope::Catalog,
};

/// True when `name` is a property of `node` or of one of its combinator branches.
fn defines(node: &Map<String, Value>, name: &str) -> bool {
    let own = |m: &Map<String, Value>| {
        m.get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.contains_key(name))
    };
    own(node)
        || ["allOf", "anyOf", "oneOf"].iter().any(|k| {
            node.get(*k)
                .and_then(Value::as_array)
                .is_some_and(|bs| bs.iter().filter_map(Value::as_object).any(&own))
        })
}

/// Whether missing names should be checked in this schema: it declares properties (itself or
/// in branches), or it is the tool's root schema and allows no other properties implicitly.
fn checks_names(node: &Map<String, Value>, is_root: bool) -> bool {
    let declares = |m: &Map<String, Value>| m.get("properties").is_some_and(Value::is_object);
    if declares(node) {
        return true;
    }
    let in_branches = ["allOf", "anyOf", "oneOf"].iter().any(|k| {
        node.get(*k)
            .and_then(Value::as_array)
            .is_some_and(|bs| bs.iter().filter_map(Value::as_object).any(&declares))
    });
    in_branches
        || ((is_root || node.get("type").and_then(Value::as_str) == Some("object"))
            && !node.contains_key("patternProperties")
            && !node
                .get("additionalProperties")
                .is_some_and(Value::is_object))
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    const HELP: &str = "Define the name under `properties` (with a type and description) or remove it from `required`.";
    for (i, tool) in cx.tools() {
        let Some(root) = tool.input_schema() else {
            continue;
        };
        for (ptr, node) in subschemas(root, "/inputSchema") {
            let Some(map) = node.as_object() else {
                continue;
            };
            let Some(required) = map.get("required") else {
                continue;
            };
            let at = format!("{ptr}/required");
            let where_ = if ptr == "/inputSchema" {
                String::new()
            } else {
                format!(" (in {ptr})")
            };
            let Some(names) = required.as_array() else {
                out.push(cx.finding(
                    &RULE,
                    Some(i),
                    &at,
                    format!(
                        "`{}` has `required: {}`{where_}; it must be an array of property names on the enclosing object",
                        tool.name(),
                        quote(&required.to_string(), 40)
                    ),
                    "Replace it with `\"required\": [\"name\", …]` on the object that declares the properties.",
                ));
                continue;
            };
            let is_root = ptr == "/inputSchema";
            for (k, item) in names.iter().enumerate() {
                let Some(name) = item.as_str() else {
                    out.push(cx.finding(
                        &RULE,
                        Some(i),
                        &format!("{at}/{k}"),
                        format!(
                            "`{}` lists {} in `required`{where_}, which is not a property name",
                            tool.name(),
                            quote(&item.to_string(), 40)
                        ),
                        "List property names (strings) in `required`.",
                    ));
                    continue;
                };
                if checks_names(map, is_root) && !defines(map, name) {
                    out.push(cx.finding(
                        &RULE,
                        Some(i),
                        &format!("{at}/{k}"),
                        format!(
                            "`{}` requires `{name}`{where_}, but the schema defines no property `{name}`",
                            tool.name()
                        ),
                        HELP,
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_on_undefined_and_malformed_required() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "create_issue", "inputSchema": {"type": "object",
                "properties": {"title": {"type": "string"},
                               "labels": {"type": "string", "required": true}},
                "required": ["title", "repo"]}}),
            ],
        );
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(
            out.iter()
                .any(|f| f.pointer == "/inputSchema/required/1" && f.message.contains("`repo`"))
        );
        assert!(
            out.iter()
                .any(|f| f.pointer == "/inputSchema/properties/labels/required")
        );
    }

    #[test]
    fn quiet_on_consistent_schemas() {
        let out = lint_tools(
            &RULE,
            vec![json!({"name": "edit", "inputSchema": {"type": "object",
                "properties": {"path": {"type": "string"}, "edits": {"type": "array", "items": {
                    "type": "object", "properties": {"old": {"type": "string"}}, "required": ["old"]}}},
                "allOf": [{"properties": {"mode": {"type": "string"}}}],
                "required": ["path", "edits", "mode"]}})],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

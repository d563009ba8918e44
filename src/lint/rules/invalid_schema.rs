//! ## What it checks
//! A tool's `inputSchema` (or `outputSchema`) is not a valid JSON Schema: it fails validation
//! against its metaschema (the draft named by `$schema`, or 2020-12 when there is none), e.g.
//! `"type": "str"`, `"required": "path"`, `"minimum": "1"`; or a `pattern` (or a
//! `patternProperties` key) is not a regular expression that JSON Schema's ECMA-262 dialect
//! accepts (`"pattern": "[a-z"`). A `$schema` naming a metaschema
//! toolgate does not know is reported as a warning (it is never fetched) and the schema is then
//! checked against 2020-12.
//!
//! ## Why it matters
//! Hosts turn the input schema into the function definition the model sees, and validate the
//! model's arguments against it. An invalid schema is dropped, rejected with the whole tool
//! list (OpenAI and Anthropic refuse malformed parameter schemas), or passed on half-read, so
//! the model fills arguments from a definition that does not mean what the author intended.
//!
//! ## Example
//! ```json
//! {"name": "get_page", "description": "Fetch one page of results.",
//!  "inputSchema": {"type": "object", "properties": {"page": {"type": "int", "minimum": "1"}}}}
//! ```
//!
//! ## How to fix
//! Use JSON Schema keywords with their proper value types: `"type": "integer"`,
//! `"minimum": 1`. Generate the schema from typed code (Zod, Pydantic, schemars) rather than
//! writing it by hand, and validate it in CI.

use serde_json::Value;

use super::common::{join, quote, subschemas};
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG009",
    slug: "invalid-schema",
    severity: Severity::Error,
    summary: "A tool's input or output schema is not valid JSON Schema.",
    doc: rule_doc!("invalid_schema"),
    check,
    scope: Scope::Catalog,
};

/// Validates `schema` against its metaschema; the error text and instance path on failure.
/// Never panics, whatever the schema holds.
fn meta_validate(schema: &Value) -> Result<(), (String, String)> {
    let run = std::panic::AssertUnwindSafe(|| {
        jsonschema::meta::validate(schema)
            .map_err(|e| (e.to_string(), e.instance_path().to_string()))
    });
    match std::panic::catch_unwind(run) {
        Ok(result) => result,
        Err(_) => Err((
            "the metaschema validator could not process this schema".into(),
            String::new(),
        )),
    }
}

/// True when `pattern` compiles as a JSON Schema (ECMA-262) regular expression, as the
/// validator hosts use would compile it. Never panics.
fn regex_compiles(pattern: &str) -> bool {
    let schema = serde_json::json!({"pattern": pattern});
    let run = std::panic::AssertUnwindSafe(|| jsonschema::validator_for(&schema).is_ok());
    std::panic::catch_unwind(run).unwrap_or(false)
}

/// Every `pattern` and `patternProperties` key in `schema` that does not compile, with its
/// pointer.
fn bad_patterns<'a>(schema: &'a Value, base: &str) -> Vec<(String, &'a str)> {
    let mut out = Vec::new();
    for (ptr, node) in subschemas(schema, base) {
        if let Some(p) = node.get("pattern").and_then(Value::as_str)
            && !regex_compiles(p)
        {
            out.push((join(&ptr, "pattern"), p));
        }
        if let Some(m) = node.get("patternProperties").and_then(Value::as_object) {
            for key in m.keys() {
                if !regex_compiles(key) {
                    out.push((join(&join(&ptr, "patternProperties"), key), key.as_str()));
                }
            }
        }
    }
    out
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        for key in ["inputSchema", "outputSchema"] {
            // Non-object schemas are TG010's business.
            let Some(schema) = tool.raw.get(key).filter(|s| s.is_object()) else {
                continue;
            };
            let mut checked = std::borrow::Cow::Borrowed(schema);
            if let Some(uri) = schema.get("$schema").and_then(Value::as_str)
                && jsonschema::Draft::from_schema_uri(uri) == jsonschema::Draft::Unknown
            {
                let mut f = cx.finding(
                    &RULE,
                    Some(i),
                    &format!("/{key}/$schema"),
                    format!(
                        "`{}` {key} names the metaschema `{}`, which toolgate does not know and never fetches; it was checked as draft 2020-12",
                        tool.name(),
                        quote(uri, 80)
                    ),
                    "Use a standard `$schema` (https://json-schema.org/draft/2020-12/schema or draft-07) or drop it.",
                );
                f.severity = Severity::Warning;
                out.push(f);
                let mut copy = schema.clone();
                if let Some(m) = copy.as_object_mut() {
                    m.remove("$schema");
                }
                checked = std::borrow::Cow::Owned(copy);
            }
            for (ptr, pattern) in bad_patterns(schema, &format!("/{key}")) {
                out.push(cx.finding(
                        &RULE,
                        Some(i),
                        &ptr,
                        format!(
                            "`{}` {key} has a pattern that a JSON Schema validator cannot compile as a regular expression (`{}`); validators reject the schema or every value",
                            tool.name(),
                            quote(pattern, 80)
                        ),
                        "Fix the regular expression (JSON Schema uses ECMA-262 syntax): close brackets and groups, escape literal metacharacters.",
                ));
            }
            if let Err((error, path)) = meta_validate(&checked) {
                let at = if path.is_empty() {
                    String::new()
                } else {
                    format!(" at `{path}`")
                };
                out.push(cx.finding(
                    &RULE,
                    Some(i),
                    &format!("/{key}{path}"),
                    format!(
                        "`{}` {key} is not a valid JSON Schema{at}: {}",
                        tool.name(),
                        quote(&error, 160)
                    ),
                    "Fix the keyword so it follows JSON Schema (e.g. `\"type\": \"integer\"`, numeric `minimum`), ideally by generating the schema from typed code.",
                ));
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
    fn fires_on_a_bad_keyword_value() {
        let out = lint_tools(
            &RULE,
            vec![json!({"name": "get_page", "inputSchema": {"type": "object",
                "properties": {"page": {"type": "int"}}}})],
        );
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].pointer.starts_with("/inputSchema/properties/page"),
            "{}",
            out[0].pointer
        );
    }

    #[test]
    fn fires_on_patterns_that_do_not_compile() {
        let out = lint_tools(
            &RULE,
            vec![json!({"name": "find", "inputSchema": {"type": "object",
                "properties": {
                    "a": {"type": "string", "pattern": "[a-z"},
                    "b": {"type": "string", "pattern": "^(?=x)\\d+$"},
                    "c": {"type": "string", "pattern": "^[A-Z]{2}-\\d{4}$"},
                    "d": {"type": "object", "patternProperties": {"(unclosed": {}, "^x-": {}}},
                    "e": {"type": "string", "pattern": "a{2,1}"}}}})],
        );
        let ptrs: Vec<_> = out.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(
            ptrs,
            [
                "/inputSchema/properties/a/pattern",
                "/inputSchema/properties/d/patternProperties/(unclosed",
                "/inputSchema/properties/e/pattern",
            ],
            "{out:#?}"
        );
    }

    #[test]
    fn quiet_on_valid_schemas_and_warns_on_unknown_metaschema() {
        let out = lint_tools(
            &RULE,
            vec![json!({"name": "echo", "inputSchema": {
                "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                "properties": {"message": {"type": "string"}}, "required": ["message"]},
                "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}})],
        );
        assert!(out.is_empty(), "{out:?}");
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "x", "inputSchema": {"$schema": "https://example.com/my-meta",
                "type": "object"}}),
            ],
        );
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].severity, Severity::Warning);
    }
}

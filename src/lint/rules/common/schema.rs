//! Walking JSON Schemas the way the rules read them: every subschema and property with its
//! JSON pointer, declared types, free-text parameters, and every text of a tool a model reads.

use serde_json::{Map, Value};

use crate::catalog::Tool;
use crate::catalog::jsonpos::escape;

/// Deeper schemas than this are not walked (hostile input; serde_json caps nesting anyway).
const MAX_DEPTH: usize = 96;

/// Keywords whose value is a single subschema.
const SCHEMA_KEYS: &[&str] = &[
    "additionalProperties",
    "items",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];

/// Keywords whose value is an array of subschemas (`items` in its old tuple form).
const SCHEMA_ARRAY_KEYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Keywords whose value maps names to subschemas.
const SCHEMA_MAP_KEYS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// `base` + `/` + the RFC 6901-escaped `token`.
pub(crate) fn join(base: &str, token: &str) -> String {
    format!("{base}/{}", escape(token))
}

/// Every object subschema of `schema` (itself included), with its JSON pointer (`base` for
/// `schema` itself), in document order. Walks the schema keywords only (`properties`,
/// `items`, `anyOf`, `$defs`, …), so a property *named* `$ref` or `description` is never
/// mistaken for a keyword. Boolean schemas are skipped.
pub(crate) fn subschemas<'a>(schema: &'a Value, base: &str) -> Vec<(String, &'a Value)> {
    let mut out = Vec::new();
    walk(schema, base.to_string(), 0, &mut out);
    out
}

fn walk<'a>(v: &'a Value, ptr: String, depth: usize, out: &mut Vec<(String, &'a Value)>) {
    let Some(map) = v.as_object() else { return };
    if depth > MAX_DEPTH {
        return;
    }
    out.push((ptr.clone(), v));
    for (key, child) in map {
        let k = key.as_str();
        if SCHEMA_MAP_KEYS.contains(&k) {
            if let Some(m) = child.as_object() {
                let at = join(&ptr, k);
                for (name, sub) in m {
                    walk(sub, join(&at, name), depth + 1, out);
                }
            }
        } else if SCHEMA_ARRAY_KEYS.contains(&k)
            && let Some(arr) = child.as_array()
        {
            for (i, sub) in arr.iter().enumerate() {
                walk(sub, format!("{}/{i}", join(&ptr, k)), depth + 1, out);
            }
        } else if SCHEMA_KEYS.contains(&k) {
            walk(child, join(&ptr, k), depth + 1, out);
        }
    }
}

/// One property declared under some `properties` keyword of a schema.
pub(crate) struct Property<'a> {
    /// Pointer to the property's schema, e.g. `/inputSchema/properties/notes`.
    pub pointer: String,
    pub name: &'a str,
    pub schema: &'a Value,
    /// Declared directly under the root schema's `properties` (an argument of the tool).
    pub top_level: bool,
}

/// Every property of `schema` at any depth (nested objects, array items, `$defs`, branches).
pub(crate) fn properties<'a>(schema: &'a Value, base: &str) -> Vec<Property<'a>> {
    let mut out = Vec::new();
    for (ptr, node) in subschemas(schema, base) {
        let Some(props) = node.get("properties").and_then(Value::as_object) else {
            continue;
        };
        let top_level = ptr == base;
        let at = join(&ptr, "properties");
        for (name, sub) in props {
            out.push(Property {
                pointer: join(&at, name),
                name: name.as_str(),
                schema: sub,
                top_level,
            });
        }
    }
    out
}

/// True when the schema carries a non-empty `description` string.
pub(crate) fn has_description(schema: &Value) -> bool {
    schema
        .get("description")
        .and_then(Value::as_str)
        .is_some_and(|d| !d.trim().is_empty())
}

/// True when a parameter schema accepts arbitrary text or data the model makes up: a string
/// with no `enum`/`const`/`format`/`pattern`, no type at all, or an object with no declared
/// properties that is not closed.
pub(crate) fn is_free_text(schema: &Value) -> bool {
    let Some(m) = schema.as_object() else {
        return schema == &Value::Bool(true);
    };
    if ["enum", "const", "format", "pattern"]
        .iter()
        .any(|k| m.contains_key(*k))
    {
        return false;
    }
    let open_object = || !has_declared_properties(m);
    match m.get("type") {
        None => ![
            "properties",
            "items",
            "anyOf",
            "oneOf",
            "allOf",
            "$ref",
            "not",
        ]
        .iter()
        .any(|k| m.contains_key(*k)),
        Some(Value::String(t)) => t == "string" || (t == "object" && open_object()),
        Some(Value::Array(ts)) => {
            ts.iter().any(|t| t == "string") || (ts.iter().any(|t| t == "object") && open_object())
        }
        _ => false,
    }
}

fn has_declared_properties(m: &Map<String, Value>) -> bool {
    m.get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty())
        || m.get("additionalProperties") == Some(&Value::Bool(false))
}

/// The JSON type name(s) a schema declares, e.g. `string` or `string|null`.
pub(crate) fn declared_type(schema: &Value) -> Option<String> {
    match schema.get("type")? {
        Value::String(t) => Some(t.clone()),
        Value::Array(ts) => Some(
            ts.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("|"),
        ),
        _ => None,
    }
}

/// Every text of a tool a model reads, with its JSON pointer: the title, the description, and
/// inside `inputSchema` and `outputSchema` each `title`, `description`, `$comment`, string
/// `const` and `default`, and every string member of `enum` and `examples`.
pub(crate) fn tool_texts(tool: &Tool) -> Vec<(String, &str)> {
    let mut texts: Vec<(String, &str)> = Vec::new();
    if let Some(t) = tool.title() {
        texts.push(("/title".into(), t));
    }
    if let Some(d) = tool.description() {
        texts.push(("/description".into(), d));
    }
    for key in ["inputSchema", "outputSchema"] {
        let Some(schema) = tool.raw.get(key) else {
            continue;
        };
        for (ptr, node) in subschemas(schema, &format!("/{key}")) {
            for field in ["title", "description", "$comment", "const", "default"] {
                if let Some(s) = node.get(field).and_then(Value::as_str) {
                    texts.push((format!("{ptr}/{field}"), s));
                }
            }
            // Values the model reads as much as prose: an order can sit in an enum member,
            // a default or an example as well as in a description.
            for field in ["enum", "examples"] {
                let Some(items) = node.get(field).and_then(Value::as_array) else {
                    continue;
                };
                for (k, item) in items.iter().enumerate() {
                    if let Some(s) = item.as_str() {
                        texts.push((format!("{ptr}/{field}/{k}"), s));
                    }
                }
            }
        }
    }
    texts
}

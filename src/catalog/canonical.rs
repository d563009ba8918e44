//! The canonical form of what a model reads (tool name, title, description, input and output
//! schemas, annotations; the server's instructions), and its sha256 hashes.
//!
//! Canonical JSON here means: object keys sorted by their UTF-8 bytes at every depth, no
//! insignificant whitespace, strings and numbers as serde_json writes them. Fields a model
//! never sees (`_meta`, `icons`, `execution`) are not part of the hash.

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::{Catalog, Tool};

/// The fields of a tool definition that reach the model.
pub const MODEL_FIELDS: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
];

/// Returns `v` with every object's keys sorted.
pub fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                out.insert(k.clone(), sorted(&m[k]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// Compact canonical JSON text of `v`.
/// The first 12 characters of a hash, for display (the whole string if shorter or not ASCII
/// at that point: hashes read from files are never trusted to be well formed).
pub fn short_hash(s: &str) -> &str {
    s.get(..12).unwrap_or(s)
}

pub fn to_canonical_string(v: &Value) -> String {
    serde_json::to_string(&sorted(v)).unwrap_or_default()
}

pub fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The part of a tool a model reads, keys sorted.
pub fn model_view(tool: &Tool) -> Value {
    let mut m = Map::new();
    for f in MODEL_FIELDS {
        if let Some(v) = tool.raw.get(*f) {
            m.insert((*f).to_string(), v.clone());
        }
    }
    sorted(&Value::Object(m))
}

pub fn tool_hash(tool: &Tool) -> String {
    sha256_hex(&to_canonical_string(&model_view(tool)))
}

/// Model views sorted by name (then by content, so duplicates order deterministically).
pub fn sorted_views(catalog: &Catalog) -> Vec<Value> {
    let mut views: Vec<(String, String, Value)> = catalog
        .tools
        .iter()
        .map(|t| {
            let v = model_view(t);
            (t.name().to_string(), to_canonical_string(&v), v)
        })
        .collect();
    views.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    views.into_iter().map(|(_, _, v)| v).collect()
}

/// Hash of the whole catalog: instructions plus every tool's model view, sorted by name.
pub fn catalog_hash(catalog: &Catalog) -> String {
    let whole = json!({
        "instructions": catalog.instructions,
        "tools": sorted_views(catalog),
    });
    sha256_hex(&to_canonical_string(&whole))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(v: Value) -> Tool {
        Tool::from_value(v, "t").unwrap()
    }

    #[test]
    fn key_order_and_ignored_fields_do_not_change_the_hash() {
        let a = tool(
            json!({"name": "x", "description": "d", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}),
        );
        let b = tool(
            json!({"inputSchema": {"properties": {"a": {"type": "string"}}, "type": "object"}, "description": "d", "name": "x", "_meta": {"k": 1}, "execution": {"taskSupport": "optional"}}),
        );
        assert_eq!(tool_hash(&a), tool_hash(&b));
    }

    #[test]
    fn any_model_visible_change_changes_the_hash() {
        let a = tool(json!({"name": "x", "description": "d"}));
        let b = tool(json!({"name": "x", "description": "d "}));
        let c =
            tool(json!({"name": "x", "description": "d", "annotations": {"readOnlyHint": true}}));
        assert_ne!(tool_hash(&a), tool_hash(&b));
        assert_ne!(tool_hash(&a), tool_hash(&c));
    }

    #[test]
    fn catalog_hash_ignores_tool_order_but_not_instructions() {
        let t1 = tool(json!({"name": "a"}));
        let t2 = tool(json!({"name": "b"}));
        let c1 = Catalog {
            tools: vec![t1.clone(), t2.clone()],
            ..Default::default()
        };
        let c2 = Catalog {
            tools: vec![t2, t1],
            ..Default::default()
        };
        assert_eq!(catalog_hash(&c1), catalog_hash(&c2));
        let c3 = Catalog {
            instructions: Some("hi".into()),
            ..c2
        };
        assert_ne!(catalog_hash(&c1), catalog_hash(&c3));
    }
}

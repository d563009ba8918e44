//! What a request must give a tool and what else it may: parameter names folded
//! (`filePath` ≈ `file_path`) with their types and shapes, to the depth that tells a string from
//! a list of objects.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::catalog::Tool;

/// How deep a parameter's shape is read.
const SHAPE_DEPTH: usize = 3;

/// A parameter's type and shape, to the depth that tells a string from a list of objects.
fn shape(v: &Value, depth: usize) -> String {
    let ty = match v.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => {
            let mut ts: Vec<&str> = ts
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect();
            ts.sort_unstable();
            ts.join("|")
        }
        _ if v.get("enum").is_some() => "string".into(),
        _ if v.get("properties").is_some() => "object".into(),
        _ => "any".into(),
    };
    let ty = if ty == "integer" { "number".into() } else { ty };
    if depth == 0 {
        return ty;
    }
    match ty.as_str() {
        "array" => format!(
            "array<{}>",
            v.get("items").map_or("any".into(), |i| shape(i, depth - 1))
        ),
        "object" => {
            let mut keys: Vec<String> = v
                .get("properties")
                .and_then(Value::as_object)
                .map(|m| m.keys().take(64).map(|k| fold(k)).collect())
                .unwrap_or_default();
            keys.sort_unstable();
            format!("object{{{}}}", keys.join(","))
        }
        _ => ty,
    }
}

/// A parameter name folded for comparison (`filePath` ≈ `file_path`).
fn fold(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// What a request must give a tool, and what else it may: folded name → shape.
#[derive(PartialEq, Eq)]
pub(super) struct Signature {
    pub(super) required: BTreeMap<String, String>,
    pub(super) optional: BTreeMap<String, String>,
}

impl Signature {
    pub(super) fn of(tool: &Tool) -> Self {
        let required: Vec<&str> = tool.required();
        let mut sig = Signature {
            required: BTreeMap::new(),
            optional: BTreeMap::new(),
        };
        for (name, schema) in tool.params().into_iter().take(256) {
            let entry = (fold(name), shape(schema, SHAPE_DEPTH));
            if required.contains(&name) {
                sig.required.insert(entry.0, entry.1);
            } else {
                sig.optional.insert(entry.0, entry.1);
            }
        }
        // A required name with no property still has to be given.
        for r in required {
            sig.required.entry(fold(r)).or_insert_with(|| "any".into());
        }
        sig
    }
}

//! The canonical form of what a model reads (tool name, title, description, input and output
//! schemas, annotations; the server's instructions), and its sha256 hashes.
//!
//! Canonical JSON here means: object keys sorted by their UTF-8 bytes at every depth, no
//! insignificant whitespace, strings and numbers as serde_json writes them. Fields a model
//! never sees (`_meta`, `icons`, `execution`) are not part of the hash.
//!
//! Canonical version 2 (locks with `lock_version: 2`) also sorts every `required` list of
//! names inside `inputSchema` and `outputSchema`: it is a set, so reordering it is not a
//! change. Version 1 (older locks) kept the server's order; a lock is verified with the
//! version it was written with, and compared with the current one.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::{Catalog, Tool};
#[cfg(test)]
use crate::json::canonical_sha256;
pub(crate) use crate::json::{
    HashWriter, sha256_hex, short_hash, sorted, to_canonical_string, write_sorted_of,
};

/// The fields of a tool definition that reach the model.
pub(crate) const MODEL_FIELDS: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
];

/// The canonical form this toolgate writes (see the module doc).
pub(crate) const CANONICAL_VERSION: u32 = 2;

/// Sorts every `required` array of strings in a schema, at every depth.
fn sort_required(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    Value::Array(a) if k == "required" && a.iter().all(Value::is_string) => {
                        a.sort_by(|p, q| p.as_str().cmp(&q.as_str()));
                    }
                    _ => sort_required(x),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(sort_required),
        _ => {}
    }
}

/// A definition (the model-visible fields of a tool) in canonical form `version`, keys sorted.
/// Fields outside [`MODEL_FIELDS`] are dropped.
pub(crate) fn canonical_definition(def: &Map<String, Value>, version: u32) -> Value {
    let mut m = Map::new();
    for f in MODEL_FIELDS {
        if let Some(v) = def.get(*f) {
            let mut v = v.clone();
            if version >= 2 && (*f == "inputSchema" || *f == "outputSchema") {
                sort_required(&mut v);
            }
            m.insert((*f).to_string(), v);
        }
    }
    sorted(&Value::Object(m))
}

/// The part of a tool a model reads, in the current canonical form.
pub(crate) fn model_view(tool: &Tool) -> Value {
    canonical_definition(&tool.raw, CANONICAL_VERSION)
}

pub(crate) fn tool_hash(tool: &Tool) -> String {
    definition_hash(&tool.raw, CANONICAL_VERSION)
}

/// The sha256 of a definition under canonical form `version`.
pub(crate) fn definition_hash(def: &Map<String, Value>, version: u32) -> String {
    sha256_hex(&definition_text(def, version))
}

/// The catalog hash of `instructions` plus definitions under canonical form `version`: the
/// canonical text of `{"instructions": …, "tools": [definitions sorted by name, then text]}`,
/// written piece by piece (no copy of the definitions is built).
pub(crate) fn catalog_hash_of(
    instructions: Option<&str>,
    defs: &[&Map<String, Value>],
    version: u32,
) -> String {
    let mut views: Vec<(&str, String)> = defs
        .iter()
        .map(|d| {
            let name = d.get("name").and_then(Value::as_str).unwrap_or("");
            (name, definition_text(d, version))
        })
        .collect();
    views.sort_unstable();
    let mut h = Sha256::new();
    h.update(b"{\"instructions\":");
    h.update(
        serde_json::to_string(&instructions)
            .unwrap_or_default()
            .as_bytes(),
    );
    h.update(b",\"tools\":[");
    for (i, (_, text)) in views.iter().enumerate() {
        if i > 0 {
            h.update(b",");
        }
        h.update(text.as_bytes());
    }
    h.update(b"]}");
    hex::encode(h.finalize())
}

/// `to_canonical_string(&canonical_definition(def, version))`, written straight from `def`.
pub(crate) fn definition_text(def: &Map<String, Value>, version: u32) -> String {
    let mut fields: Vec<&str> = MODEL_FIELDS.to_vec();
    fields.sort_unstable();
    let mut out = Vec::new();
    out.push(b'{');
    let mut first = true;
    for f in fields {
        let Some(v) = def.get(f) else { continue };
        if !first {
            out.push(b',');
        }
        first = false;
        write_json(&mut out, f);
        out.push(b':');
        let schema = version >= 2 && (f == "inputSchema" || f == "outputSchema");
        write_canonical(&mut out, v, schema);
    }
    out.push(b'}');
    String::from_utf8(out).unwrap_or_default()
}

fn write_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    let _ = serde_json::to_writer(&mut *out, v);
}

/// Canonical JSON of `v` into `out`; in a schema, `required` lists of names come sorted.
fn write_canonical(out: &mut Vec<u8>, v: &Value, schema: bool) {
    match v {
        Value::Object(m) => {
            let mut members: Vec<(&String, &Value)> = m.iter().collect();
            members.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push(b'{');
            for (i, (k, x)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_json(out, k.as_str());
                out.push(b':');
                match x {
                    Value::Array(a)
                        if schema && k == "required" && a.iter().all(Value::is_string) =>
                    {
                        let mut names: Vec<&str> = a.iter().filter_map(Value::as_str).collect();
                        names.sort();
                        write_json(out, &names);
                    }
                    _ => write_canonical(out, x, schema),
                }
            }
            out.push(b'}');
        }
        Value::Array(a) => {
            out.push(b'[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(out, x, schema);
            }
            out.push(b']');
        }
        scalar => write_json(out, scalar),
    }
}

/// Model views sorted by name (then by content, so duplicates order deterministically).
pub(crate) fn sorted_views(catalog: &Catalog) -> Vec<Value> {
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
pub(crate) fn catalog_hash(catalog: &Catalog) -> String {
    let defs: Vec<&Map<String, Value>> = catalog.tools.iter().map(|t| &t.raw).collect();
    catalog_hash_of(catalog.instructions.as_deref(), &defs, CANONICAL_VERSION)
}

#[cfg(test)]
mod tests;

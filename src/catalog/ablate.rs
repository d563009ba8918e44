//! Ablated catalogs: the same tools with part of what the model reads taken away, so a suite
//! can be asked what it measures. [`without_descriptions`] keeps names and schema shapes but no
//! prose (tool descriptions, titles, schema `description`/`title`, server instructions);
//! [`neutral_names`] keeps the prose but renames every tool `tool_01`, `tool_02`, … in catalog
//! order. A suite that scores as well without descriptions does not measure them; one that
//! scores as well with neutral names does not depend on the names.

use serde_json::{Map, Value};

use super::{Catalog, Tool};

/// Schema nesting followed when stripping prose (deeper parts are kept as they are).
const MAX_DEPTH: usize = 64;

/// Removes `description` and `title` strings from a schema, except where they are property
/// names (inside `properties`, `patternProperties`, `$defs`, `definitions`, …).
fn strip_prose(v: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            for key in ["description", "title", "$comment", "examples"] {
                if key == "examples" || m.get(key).is_some_and(Value::is_string) {
                    m.remove(key);
                }
            }
            for (key, child) in m.iter_mut() {
                let named = matches!(
                    key.as_str(),
                    "properties"
                        | "patternProperties"
                        | "$defs"
                        | "definitions"
                        | "dependentSchemas"
                );
                match child {
                    Value::Object(inner) if named => {
                        for sub in inner.values_mut() {
                            strip_prose(sub, depth + 1);
                        }
                    }
                    _ => strip_prose(child, depth + 1),
                }
            }
        }
        Value::Array(a) => {
            for x in a {
                strip_prose(x, depth + 1);
            }
        }
        _ => {}
    }
}

fn rebuild(catalog: &Catalog, tools: Vec<Tool>, instructions: Option<String>) -> Catalog {
    Catalog {
        source: catalog.source.clone(),
        snapshot_path: catalog.snapshot_path.clone(),
        server: catalog.server.clone(),
        instructions,
        tools,
        notes: catalog.notes.clone(),
        relisting: None,
        list_hints: None,
        index: Default::default(),
        config_key: catalog.config_key.clone(),
    }
}

/// The catalog with names and schema shapes only: every description, title and example gone.
pub(crate) fn without_descriptions(catalog: &Catalog) -> Catalog {
    let tools = catalog
        .tools
        .iter()
        .map(|t| {
            let mut raw: Map<String, Value> = t.raw.clone();
            raw.remove("description");
            raw.remove("title");
            if let Some(Value::Object(a)) = raw.get_mut("annotations") {
                a.remove("title");
            }
            for key in ["inputSchema", "outputSchema"] {
                if let Some(s) = raw.get_mut(key) {
                    strip_prose(s, 0);
                }
            }
            Tool { raw }
        })
        .collect();
    rebuild(catalog, tools, None)
}

/// The neutral name of the tool at `index` (0-based) in a catalog of `len` tools.
pub(crate) fn neutral_name(index: usize, len: usize) -> String {
    let width = len.max(1).to_string().len().max(2);
    format!("tool_{:0width$}", index + 1)
}

/// The catalog with every tool renamed [`neutral_name`] (titles dropped too: they restate the
/// name), and the old name → new name map for the tasks.
pub(crate) fn neutral_names(
    catalog: &Catalog,
) -> (Catalog, std::collections::HashMap<String, String>) {
    let len = catalog.tools.len();
    let mut map = std::collections::HashMap::new();
    let tools = catalog
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut raw = t.raw.clone();
            let name = neutral_name(i, len);
            map.entry(t.name().to_string())
                .or_insert_with(|| name.clone());
            raw.insert("name".into(), Value::String(name));
            raw.remove("title");
            if let Some(Value::Object(a)) = raw.get_mut("annotations") {
                a.remove("title");
            }
            Tool { raw }
        })
        .collect();
    (rebuild(catalog, tools, catalog.instructions.clone()), map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn catalog() -> Catalog {
        let tool = json!({
            "name": "git_status", "title": "Status", "description": "Shows the working tree status",
            "annotations": {"title": "Git status", "readOnlyHint": true},
            "inputSchema": {"type": "object", "description": "args", "properties": {
                "description": {"type": "string", "description": "a field called description"},
                "title": {"type": "string", "title": "T", "examples": ["x"]},
                "repo_path": {"type": "string", "description": "the repo"}
            }, "required": ["description"]}
        });
        Catalog {
            instructions: Some("Use git_status first".into()),
            tools: vec![Tool::from_value(tool, "t").unwrap()],
            ..Default::default()
        }
    }

    #[test]
    fn without_descriptions_keeps_names_and_shapes_only() {
        let c = without_descriptions(&catalog());
        let t = &c.tools[0];
        assert_eq!(t.name(), "git_status");
        assert_eq!(t.description(), None);
        assert_eq!(t.title(), None);
        assert_eq!(c.instructions, None);
        assert_eq!(
            Value::Object(t.raw.clone()),
            json!({
                "name": "git_status",
                "annotations": {"readOnlyHint": true},
                "inputSchema": {"type": "object", "properties": {
                    "description": {"type": "string"},
                    "title": {"type": "string"},
                    "repo_path": {"type": "string"}
                }, "required": ["description"]}
            })
        );
    }

    #[test]
    fn neutral_names_keep_the_prose_and_map_the_names() {
        let (c, map) = neutral_names(&catalog());
        assert_eq!(c.tools[0].name(), "tool_01");
        assert_eq!(
            c.tools[0].description(),
            Some("Shows the working tree status")
        );
        assert_eq!(c.tools[0].title(), None);
        assert_eq!(map["git_status"], "tool_01");
        assert_eq!(c.tool("tool_01").map(Tool::name), Some("tool_01"));
        assert_eq!(neutral_name(99, 100), "tool_100");
        assert_eq!(neutral_name(0, 5), "tool_01");
    }
}

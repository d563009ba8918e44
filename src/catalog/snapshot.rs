//! Snapshot files: the `tools/list` result as the server sent it (`{"tools": [...]}`), all
//! pages merged, plus the server's `instructions` when it sent any. A `toolgate.lock` is also
//! accepted as input: its reviewed definitions are a catalog too.

use std::path::Path;

use anyhow::{Context, bail};
use serde_json::{Map, Value, json};

use super::{Catalog, ServerMeta, Tool, kind};

/// Reads a snapshot (or lock) file; errors name the file, line and field.
pub fn read(path: &Path) -> anyhow::Result<Catalog> {
    let shown = path.display().to_string();
    let text = crate::fsio::read_text(path).with_context(|| format!("could not read {shown}"))?;
    let mut catalog = parse(&text, &shown)?;
    catalog.snapshot_path = Some(path.to_path_buf());
    Ok(catalog)
}

/// Parses a snapshot (or lock) held in memory; `shown` names it in errors and becomes the
/// catalog's source.
pub(crate) fn parse(text: &str, shown: &str) -> anyhow::Result<Catalog> {
    let shown = shown.to_string();
    let value: Value = serde_json::from_str(text)
        .with_context(|| format!("{shown} is not valid JSON (line and column above)"))?;
    let Value::Object(top) = value else {
        bail!(
            "{shown}: expected an object with a `tools` array, found {}",
            kind(&value)
        );
    };
    let mut catalog = if top.contains_key("lock_version") {
        from_lock(&shown, top)?
    } else {
        from_snapshot(&shown, top)?
    };
    catalog.source = shown;
    Ok(catalog)
}

fn from_snapshot(shown: &str, mut top: Map<String, Value>) -> anyhow::Result<Catalog> {
    let tools = match top.remove("tools") {
        Some(Value::Array(a)) => a,
        Some(other) => bail!("{shown}: `tools` must be an array, found {}", kind(&other)),
        None => bail!("{shown}: no `tools` array (a snapshot is a tools/list result)"),
    };
    let tools = tools
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            Tool::from_value(t, &format!("{shown}: tools[{i}]")).map_err(anyhow::Error::msg)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let instructions = match top.remove("instructions") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(other) => bail!(
            "{shown}: `instructions` must be a string, found {}",
            kind(&other)
        ),
    };
    let server = top
        .remove("serverInfo")
        .map(|v| ServerMeta {
            name: v.get("name").and_then(Value::as_str).map(str::to_string),
            version: v.get("version").and_then(Value::as_str).map(str::to_string),
            title: v.get("title").and_then(Value::as_str).map(str::to_string),
            description: v
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
            protocol_version: None,
            era: None,
        })
        .unwrap_or_default();
    Ok(Catalog {
        tools,
        instructions,
        server,
        list_hints: super::ListHints::of(&top),
        ..Default::default()
    })
}

fn from_lock(shown: &str, top: Map<String, Value>) -> anyhow::Result<Catalog> {
    let lock: super::lock::LockFile = serde_json::from_value(Value::Object(top))
        .with_context(|| format!("{shown} is not a valid toolgate.lock"))?;
    lock.verify().map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
    let tools = lock
        .tools
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            Tool::from_value(t.definition, &format!("{shown}: tools[{i}].definition"))
                .map_err(anyhow::Error::msg)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Catalog {
        tools,
        instructions: lock.instructions.map(|i| i.text),
        ..Default::default()
    })
}

/// The snapshot JSON for a catalog: tools exactly as sent, plus instructions and serverInfo.
pub(crate) fn to_value(catalog: &Catalog) -> Value {
    let tools: Vec<Value> = catalog
        .tools
        .iter()
        .map(|t| Value::Object(t.raw.clone()))
        .collect();
    let mut top = Map::new();
    top.insert("tools".into(), Value::Array(tools));
    if let Some(i) = &catalog.instructions {
        top.insert("instructions".into(), json!(i));
    }
    // The list result's caching hints, where a tools/list result carries them.
    if let Some(h) = &catalog.list_hints {
        for (key, v) in [("ttlMs", &h.ttl_ms), ("cacheScope", &h.cache_scope)] {
            if let Some(v) = v {
                top.insert(key.into(), v.clone());
            }
        }
    }
    if catalog.server.name.is_some() {
        let mut info = json!({"name": catalog.server.name, "version": catalog.server.version});
        for (key, v) in [
            ("title", &catalog.server.title),
            ("description", &catalog.server.description),
        ] {
            if let (Some(v), Some(map)) = (v, info.as_object_mut()) {
                map.insert(key.into(), json!(v));
            }
        }
        top.insert("serverInfo".into(), info);
    }
    Value::Object(top)
}

pub(crate) fn write(path: &Path, catalog: &Catalog) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(&to_value(catalog))?;
    text.push('\n');
    crate::fsio::write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_tmp(text: &str) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), text).unwrap();
        f
    }

    #[test]
    fn errors_name_the_field() {
        let f = write_tmp(r#"{"tools": [{"name": "a"}, {"description": "no name"}]}"#);
        let e = format!("{:#}", read(f.path()).unwrap_err());
        assert!(e.contains("tools[1]"), "{e}");
        let f = write_tmp("{\"tools\": [\n{\"name\": }]}");
        let e = format!("{:#}", read(f.path()).unwrap_err());
        assert!(e.contains("line 2"), "{e}");
        let f = write_tmp(r#"{"tools": {}}"#);
        assert!(format!("{:#}", read(f.path()).unwrap_err()).contains("must be an array"));
    }

    #[test]
    fn round_trips_unknown_fields() {
        let f = write_tmp(
            r#"{"tools": [{"name": "a", "execution": {"taskSupport": "x"}}], "instructions": "hi"}"#,
        );
        let c = read(f.path()).unwrap();
        assert_eq!(c.instructions.as_deref(), Some("hi"));
        let v = to_value(&c);
        assert_eq!(v["tools"][0]["execution"]["taskSupport"], "x");
    }
    /// The server card (`serverInfo` title and description) survives a snapshot.
    #[test]
    fn the_server_card_is_kept_in_a_snapshot() {
        let text = r#"{"serverInfo": {"name": "n", "version": "1", "title": "T", "description": "D"},
            "tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#;
        let c = super::parse(text, "s").unwrap();
        assert_eq!(c.server.title.as_deref(), Some("T"));
        assert_eq!(c.server.description.as_deref(), Some("D"));
        let again = super::parse(&super::to_value(&c).to_string(), "s").unwrap();
        assert_eq!(again.server.description.as_deref(), Some("D"));
    }
}

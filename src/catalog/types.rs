//! What a catalog is: the tools a server lists (each as the model reads it), the server's
//! name, version and instructions, and how the list was read.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One tool, as the server sent it. `raw` is the untouched JSON object from `tools/list`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Tool {
    pub raw: Map<String, Value>,
}

impl Tool {
    /// Builds a tool from a raw JSON value; the caller names where it came from for errors.
    pub fn from_value(value: Value, at: &str) -> Result<Self, String> {
        match value {
            Value::Object(raw) => match raw.get("name") {
                Some(Value::String(_)) => Ok(Tool { raw }),
                Some(other) => Err(format!(
                    "{at}.name: expected a string, found {}",
                    kind(other)
                )),
                None => Err(format!("{at}: a tool without a `name` field")),
            },
            other => Err(format!(
                "{at}: expected a tool object, found {}",
                kind(&other)
            )),
        }
    }

    pub fn name(&self) -> &str {
        self.raw.get("name").and_then(Value::as_str).unwrap_or("")
    }

    pub fn title(&self) -> Option<&str> {
        self.raw.get("title").and_then(Value::as_str)
    }

    /// The description text, or `None` when missing or not a string.
    pub fn description(&self) -> Option<&str> {
        self.raw.get("description").and_then(Value::as_str)
    }

    pub fn input_schema(&self) -> Option<&Value> {
        self.raw.get("inputSchema")
    }

    pub fn output_schema(&self) -> Option<&Value> {
        self.raw.get("outputSchema")
    }

    pub fn annotations(&self) -> Option<&Map<String, Value>> {
        self.raw.get("annotations").and_then(Value::as_object)
    }

    /// A boolean annotation hint such as `destructiveHint`, if the server set it.
    pub fn hint(&self, key: &str) -> Option<bool> {
        self.annotations()
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
    }

    /// Top-level properties of the input schema, in the server's order.
    pub fn params(&self) -> Vec<(&str, &Value)> {
        self.input_schema()
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .map(|m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
            .unwrap_or_default()
    }

    /// Names listed in the input schema's top-level `required`.
    pub fn required(&self) -> Vec<&str> {
        self.input_schema()
            .and_then(|s| s.get("required"))
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }
}

/// Server identity and negotiated protocol, for the record (never part of the hash).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerMeta {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// `serverInfo.title` and `serverInfo.description`: with the name, the server card a hosted
    /// tool search reads first (`toolsearch-card`). Server text: bounded where it is read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// Which protocol era the server spoke, when it was not the `initialize` handshake (a
    /// 2026-07-28 server that rejects `initialize` is read with `server/discover`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub era: Option<String>,
}

/// Everything toolgate knows about one server's offer to a model.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Catalog {
    /// Where it came from, safe to print (no secrets).
    pub source: String,
    /// Path of the snapshot file when loaded from one (used to point findings at lines).
    #[serde(skip)]
    pub snapshot_path: Option<std::path::PathBuf>,
    pub server: ServerMeta,
    /// The server's `instructions` from `initialize`, exactly as sent.
    pub instructions: Option<String>,
    pub tools: Vec<Tool>,
    /// Things worth telling the user about the connection (skipped junk lines, pages read).
    pub notes: Vec<String>,
    /// A live server is listed twice in one session: what the second listing showed
    /// (2026-07-28: servers SHOULD list tools in a stable order). `None` for a snapshot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relisting: Option<Relisting>,
    /// The caching hints on the `tools/list` result (2026-07-28), as the server sent them on
    /// its first page; `None` when the result carried neither (or the catalog has no result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_hints: Option<ListHints>,
    /// Name → position, built on the first [`Catalog::tool`] lookup.
    #[serde(skip)]
    pub index: ToolIndex,
    /// The server's key in the MCP client config it was read from, if any.
    #[serde(skip)]
    pub config_key: Option<String>,
}

/// `ttlMs` and `cacheScope` of a list result, exactly as sent (any JSON: the lint rule says
/// what is wrong with them); never part of the hash.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ListHints {
    #[serde(rename = "ttlMs", default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<Value>,
    #[serde(
        rename = "cacheScope",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub cache_scope: Option<Value>,
    /// Pages of one listing whose hints differ from the first page's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differing_pages: Vec<usize>,
}

impl ListHints {
    /// The hints of one list result (a page, or a snapshot's top level); `None` when it
    /// carries neither.
    pub fn of(result: &Map<String, Value>) -> Option<Self> {
        let h = ListHints {
            ttl_ms: result.get("ttlMs").cloned(),
            cache_scope: result.get("cacheScope").cloned(),
            differing_pages: Vec::new(),
        };
        (h.ttl_ms.is_some() || h.cache_scope.is_some()).then_some(h)
    }

    /// The hints of a listing's pages: the first page's, with the pages that said otherwise.
    pub fn of_pages(pages: &[Value]) -> Option<Self> {
        let each: Vec<Option<ListHints>> = pages
            .iter()
            .map(|p| p.as_object().and_then(ListHints::of))
            .collect();
        let mut first = each.first().cloned().flatten()?;
        let same = |h: &Option<ListHints>| {
            h.as_ref()
                .is_some_and(|h| h.ttl_ms == first.ttl_ms && h.cache_scope == first.cache_scope)
        };
        let differing: Vec<usize> = (1..each.len())
            .filter(|&i| !same(&each[i]))
            .map(|i| i + 1)
            .collect();
        first.differing_pages = differing;
        Some(first)
    }
}

/// How a second `tools/list` in the same session compared with the first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relisting {
    /// The same tool names, in another order.
    pub order_changed: bool,
    /// Other tool names, or the same names with other definitions.
    pub tools_changed: bool,
}

impl Relisting {
    /// Compares two listings of one session.
    pub fn of(first: &[Tool], second: &[Tool]) -> Self {
        let names = |t: &[Tool]| t.iter().map(|x| x.name().to_string()).collect::<Vec<_>>();
        let (a, b) = (names(first), names(second));
        let mut sa = a.clone();
        let mut sb = b.clone();
        sa.sort();
        sb.sort();
        let same_set = sa == sb;
        let defs_changed = same_set && {
            fn by_name(t: &[Tool]) -> std::collections::BTreeMap<&str, &Map<String, Value>> {
                t.iter().map(|x| (x.name(), &x.raw)).collect()
            }
            by_name(first) != by_name(second)
        };
        Relisting {
            order_changed: same_set && a != b,
            tools_changed: !same_set || defs_changed,
        }
    }
}

/// A tool-name index over [`Catalog::tools`], built once on first use. It remembers how many
/// tools it indexed and checks every hit, so a catalog whose tools were replaced after a
/// lookup (tools added or removed: the count changed) falls back to a scan instead of answering
/// wrongly. Renaming tools in place after a lookup, keeping their count, is not seen: build a
/// new catalog for that (`improve` only edits descriptions).
#[derive(Clone, Debug, Default)]
pub struct ToolIndex(std::sync::OnceLock<(usize, std::collections::HashMap<String, usize>)>);

impl Catalog {
    /// The first tool called `name`: a map lookup, not a scan (called per task and per answer).
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        let (len, map) = self.index.0.get_or_init(|| {
            let mut map = std::collections::HashMap::with_capacity(self.tools.len());
            for (i, t) in self.tools.iter().enumerate() {
                map.entry(t.name().to_string()).or_insert(i);
            }
            (self.tools.len(), map)
        });
        if *len != self.tools.len() {
            return self.tools.iter().find(|t| t.name() == name);
        }
        match map.get(name).and_then(|i| self.tools.get(*i)) {
            Some(t) if t.name() == name => Some(t),
            Some(_) => self.tools.iter().find(|t| t.name() == name),
            None => None,
        }
    }
}

pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

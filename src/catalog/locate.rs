//! Points findings at lines of a JSON file the user has (the snapshot read, or the lock file),
//! for SARIF regions and workflow annotations.
//!
//! The file is checked to be JSON without building values, scanned once for where each tool
//! starts, and each finding's line is found by walking that one tool ([`jsonpos`]).

use std::collections::HashMap;
use std::path::Path;

use crate::catalog::jsonpos::{self, Node};

pub struct Locator {
    /// Path as printed in reports (relative as given).
    pub file: String,
    text: String,
    root: Node,
    /// Tool name → its definition in the file (the first of that name).
    by_name: HashMap<String, Node>,
    /// Tool position → its definition, for snapshot files (exact even with duplicate names).
    by_index: Vec<Node>,
}

impl Locator {
    /// Reads a snapshot or lock file; `None` when it is missing or not one of those.
    pub fn from_file(path: &Path) -> Option<Self> {
        let text = std::fs::read_to_string(path).ok()?;
        serde_json::from_str::<serde::de::IgnoredAny>(&text).ok()?;
        let root = jsonpos::root(&text);
        let tools = jsonpos::child(&text, root, "tools")?;
        if text.as_bytes().get(tools.offset) != Some(&b'[') {
            return None;
        }
        let is_lock = jsonpos::child(&text, root, "lock_version").is_some();
        let mut by_name = HashMap::new();
        let mut by_index = Vec::new();
        jsonpos::elements(&text, tools, |t| {
            let def = if is_lock {
                jsonpos::child(&text, t, "definition")
            } else {
                Some(t)
            };
            let name = def
                .and_then(|d| jsonpos::child(&text, d, "name"))
                .and_then(|n| jsonpos::string_at(&text, n));
            if let (Some(name), Some(def)) = (name, def) {
                by_name.entry(name).or_insert(def);
            }
            if !is_lock {
                by_index.push(t);
            }
            true
        });
        Some(Locator {
            file: path.display().to_string(),
            text,
            root,
            by_name,
            by_index,
        })
    }

    /// The line of a finding about `tool` (position `index` when known) at `pointer`.
    pub fn line(&self, tool: Option<&str>, index: Option<usize>, pointer: &str) -> Option<usize> {
        let base = match (index.and_then(|i| self.by_index.get(i)), tool) {
            (Some(p), Some(name)) if self.by_name.contains_key(name) => *p,
            (_, Some(name)) => *self.by_name.get(name)?,
            (_, None) if pointer == "/instructions" => {
                return Some(jsonpos::line_of(&self.text, self.root, pointer));
            }
            (_, None) => return Some(1),
        };
        Some(jsonpos::line_of(&self.text, base, pointer))
    }
}

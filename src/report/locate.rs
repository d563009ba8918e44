//! Points findings at lines of a JSON file the user has (the snapshot read, or the lock file),
//! for SARIF regions and workflow annotations.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use crate::catalog::jsonpos::{line_of, pointer_lines};

pub struct Locator {
    /// Path as printed in reports (relative as given).
    pub file: String,
    lines: HashMap<String, usize>,
    /// Tool name → pointer of its definition in the file.
    by_name: HashMap<String, String>,
    /// Tool position → pointer, for snapshot files (exact even with duplicate names).
    by_index: Vec<String>,
}

impl Locator {
    /// Reads a snapshot or lock file; `None` when it is missing or not one of those.
    pub fn from_file(path: &Path) -> Option<Self> {
        let text = std::fs::read_to_string(path).ok()?;
        let value: Value = serde_json::from_str(&text).ok()?;
        let tools = value.get("tools")?.as_array()?;
        let is_lock = value.get("lock_version").is_some();
        let mut by_name = HashMap::new();
        let mut by_index = Vec::new();
        for (i, t) in tools.iter().enumerate() {
            let (ptr, def) = if is_lock {
                (format!("/tools/{i}/definition"), t.get("definition"))
            } else {
                (format!("/tools/{i}"), Some(t))
            };
            if let Some(name) = def.and_then(|d| d.get("name")).and_then(Value::as_str) {
                by_name
                    .entry(name.to_string())
                    .or_insert_with(|| ptr.clone());
            }
            if !is_lock {
                by_index.push(ptr);
            }
        }
        Some(Locator {
            file: path.display().to_string(),
            lines: pointer_lines(&text),
            by_name,
            by_index,
        })
    }

    /// The line of a finding about `tool` (position `index` when known) at `pointer`.
    pub fn line(&self, tool: Option<&str>, index: Option<usize>, pointer: &str) -> Option<usize> {
        let base = match (index.and_then(|i| self.by_index.get(i)), tool) {
            (Some(p), Some(name)) if self.by_name.contains_key(name) => p.clone(),
            (_, Some(name)) => self.by_name.get(name)?.clone(),
            (_, None) if pointer == "/instructions" => "/instructions".to_string(),
            (_, None) => return Some(1),
        };
        let full = if tool.is_some() {
            format!("{base}{pointer}")
        } else {
            base
        };
        line_of(&self.lines, &full)
    }
}

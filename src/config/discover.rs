//! Finding the settings file: the nearest `toolgate.toml`, else a pyproject.toml with
//! `[tool.toolgate]`, from the current folder up to the repository's top.

use std::path::{Path, PathBuf};

use super::DEFAULT_CONFIG;

/// True when a pyproject.toml holds a `[tool.toolgate]` table.
fn has_toolgate_table(path: &Path) -> bool {
    let Ok(text) = crate::fsio::read_text(path) else {
        return false;
    };
    text.contains("tool.toolgate")
        && toml::from_str::<toml::Table>(&text)
            .ok()
            .is_some_and(|d| d.get("tool").and_then(|t| t.get("toolgate")).is_some())
}

/// The nearest settings file from `start` upward: `toolgate.toml`, else a pyproject.toml with
/// `[tool.toolgate]`, in each folder; never above the repository's top (the folder holding
/// `.git`), and only `start` itself outside a repository. Returned relative to `start`
/// (`toolgate.toml`, `../toolgate.toml`).
pub(crate) fn discover(start: &Path) -> Option<PathBuf> {
    let inside_repo = start.ancestors().any(|d| d.join(".git").exists());
    let mut rel = PathBuf::new();
    for dir in start.ancestors() {
        for name in [DEFAULT_CONFIG, "pyproject.toml"] {
            let p = dir.join(name);
            if p.is_file() && (name == DEFAULT_CONFIG || has_toolgate_table(&p)) {
                return Some(rel.join(name));
            }
        }
        if !inside_repo || dir.join(".git").exists() {
            return None;
        }
        rel.push("..");
    }
    None
}

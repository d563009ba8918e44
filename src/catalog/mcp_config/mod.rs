//! MCP client configs users already have: Claude Desktop (`claude_desktop_config.json`),
//! Claude Code (`.mcp.json`) and Cursor (`.cursor/mcp.json`), all `{"mcpServers": {…}}`, and
//! VS Code (`.vscode/mcp.json`, `{"servers": {…}, "inputs": […]}`). Pure: text in, servers out,
//! with `${…}` expanded (see [`expand`]); every error names the file and the field's JSON path.

mod entry;
pub(crate) mod expand;
mod types;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub(crate) use expand::{Lookup, Vars};

pub(crate) use types::{
    ConfigServer, MAX_FILE_BYTES, MAX_ITEMS, MAX_SERVERS, McpConfig, Transport, Unusable,
};

impl McpConfig {
    pub(crate) fn names(&self) -> Vec<&str> {
        self.servers.iter().map(|s| s.name.as_str()).collect()
    }

    /// Every entry (usable or not) when a command needs all of them, as a belt does: an error
    /// names each entry that cannot be started here, why, and the ways out.
    pub(crate) fn require_all(&self) -> Result<(), String> {
        if self.unusable.is_empty() {
            return Ok(());
        }
        let names: Vec<&str> = self.unusable.iter().map(|u| u.name.as_str()).collect();
        Err(format!(
            "{}: {} of {} servers cannot be started here ({}: an editor's prompt, an unset \
             variable or a field toolgate cannot read), and a belt reads every server; check any \
             other server alone by naming it, or mark these \"disabled\": true in a copy of the \
             file:\n  {}",
            self.path.display(),
            self.unusable.len(),
            self.unusable.len() + self.servers.len(),
            list(&names),
            self.unusable
                .iter()
                .map(|u| u.error.as_str())
                .collect::<Vec<_>>()
                .join("\n  ")
        ))
    }

    /// The entry called `name`, or an error: why it cannot be started here, or the names the
    /// file has.
    pub(crate) fn get(&self, name: &str) -> Result<&ConfigServer, String> {
        if let Some(u) = self.unusable.iter().find(|u| u.name == name) {
            return Err(u.error.clone());
        }
        self.servers.iter().find(|s| s.name == name).ok_or_else(|| {
            let also = if self.disabled.iter().any(|d| d == name) {
                " (it is marked \"disabled\": true)"
            } else {
                ""
            };
            format!(
                "{}: no server `{name}`{also}; the file names {}",
                self.path.display(),
                list(&self.names())
            )
        })
    }
}

/// `a`, `b`, `c` — or "no servers".
pub(crate) fn list(names: &[&str]) -> String {
    if names.is_empty() {
        return "no servers".into();
    }
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `${workspaceFolder}` of a config: the folder that holds `.vscode/` (or `.cursor/`),
/// else the config file's own folder.
pub(crate) fn workspace_of(path: &Path) -> PathBuf {
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let in_dot_dir = dir
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n == ".vscode" || n == ".cursor");
    let base = if in_dot_dir {
        dir.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        dir
    };
    if base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        base
    }
}

/// Reads and parses the config at `path` (bounded in size).
pub(crate) fn read(path: &Path, lookup: Lookup) -> Result<McpConfig, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("could not read {shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown} is not a file"));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{shown} is {} bytes; an MCP config is at most {MAX_FILE_BYTES} bytes",
            meta.len()
        ));
    }
    let text = crate::fsio::read_text(path).map_err(|e| format!("could not read {shown}: {e}"))?;
    let vars = Vars {
        lookup,
        workspace: workspace_of(path).display().to_string(),
    };
    parse(path, &text, &vars)
}

/// Parses a config's text; `path` is only named in errors and kept in the result.
pub(crate) fn parse(path: &Path, text: &str, vars: &Vars) -> Result<McpConfig, String> {
    let file = path.display().to_string();
    let fail = |msg: String| format!("{file}: {msg}");
    let root: Value = serde_json::from_str(text).map_err(|e| {
        fail(format!(
            "not valid JSON (line {}, column {}): {e}",
            e.line(),
            e.column()
        ))
    })?;
    let Value::Object(root) = root else {
        return Err(fail(format!(
            "expected a JSON object, found {}",
            super::kind(&root)
        )));
    };
    let key = match (root.get("mcpServers"), root.get("servers")) {
        (Some(_), _) => "mcpServers",
        (None, Some(_)) => "servers",
        (None, None) => {
            return Err(fail(
                "no `mcpServers` (Claude Desktop, Claude Code, Cursor) or `servers` (VS Code) object"
                    .into(),
            ));
        }
    };
    let Some(entries) = root.get(key).and_then(Value::as_object) else {
        return Err(fail(format!(
            "{key}: expected an object of servers, found {}",
            super::kind(&root[key])
        )));
    };
    if entries.len() > MAX_SERVERS {
        return Err(fail(format!(
            "{key}: {} servers; toolgate reads at most {MAX_SERVERS}",
            entries.len()
        )));
    }
    let mut servers = Vec::new();
    let mut disabled = Vec::new();
    let mut unusable = Vec::new();
    for (name, entry) in entries {
        let at = format!("{key}{}", entry::segment(name));
        check_name(name).map_err(|e| fail(format!("{at}: {e}")))?;
        let Value::Object(entry) = entry else {
            return Err(fail(format!(
                "{at}: expected a server object, found {}",
                super::kind(entry)
            )));
        };
        if entry.get("disabled").and_then(Value::as_bool) == Some(true) {
            disabled.push(name.clone());
            continue;
        }
        // One entry's fault (a prompt, an unset variable, a wrong field) is that entry's.
        match entry::server(entry, &at, vars) {
            Ok(transport) => servers.push(ConfigServer {
                name: name.clone(),
                transport,
            }),
            Err(e) => unusable.push(Unusable {
                name: name.clone(),
                error: fail(e),
            }),
        }
    }
    Ok(McpConfig {
        path: path.to_path_buf(),
        key,
        servers,
        disabled,
        unusable,
    })
}

/// Server names key tools as `server/tool` and are shown in every report.
fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("a server needs a non-empty name".into());
    }
    if name.chars().count() > 128 {
        return Err("a server name is at most 128 characters".into());
    }
    if name.contains('/') || name.chars().any(char::is_control) {
        return Err(
            "a server name may not contain `/` or control characters (tools are keyed `server/tool`)"
                .into(),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests;

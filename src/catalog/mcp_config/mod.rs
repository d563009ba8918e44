//! MCP client configs users already have: Claude Desktop (`claude_desktop_config.json`),
//! Claude Code (`.mcp.json`) and Cursor (`.cursor/mcp.json`), all `{"mcpServers": {…}}`, and
//! VS Code (`.vscode/mcp.json`, `{"servers": {…}, "inputs": […]}`). Pure: text in, servers out,
//! with `${…}` expanded (see [`expand`]); every error names the file and the field's JSON path.

mod entry;
pub mod expand;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use expand::{Lookup, Vars};

/// Largest config file read, in bytes (real ones are a few kilobytes).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Most servers one config may name.
pub const MAX_SERVERS: usize = 64;
/// Most arguments, environment variables or headers one server may have.
pub const MAX_ITEMS: usize = 1000;

/// One server entry of a config, with every `${…}` expanded.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigServer {
    /// The entry's key in the file.
    pub name: String,
    pub transport: Transport,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Transport {
    /// A local process spoken to over stdio, with the variables the config sets for it.
    Stdio {
        command: String,
        args: Vec<String>,
        env: Vec<(String, String)>,
        cwd: Option<PathBuf>,
    },
    /// A remote server over Streamable HTTP (`type: http`, or a `url` with no type).
    Http {
        url: String,
        headers: Vec<(String, String)>,
    },
    /// The deprecated HTTP+SSE transport (`type: sse`), which toolgate does not speak.
    Sse { url: String },
}

/// An entry that cannot be started outside its host: a VS Code `${input:…}` prompt, a variable
/// that is not set, a field of the wrong shape. It is kept with its error instead of failing
/// the file, so one editor-only server does not stop toolgate reading the others.
#[derive(Clone, Debug, PartialEq)]
pub struct Unusable {
    pub name: String,
    /// The whole error, naming the file and the field's JSON path.
    pub error: String,
}

/// A parsed config: its servers in file order (disabled ones left out).
#[derive(Clone, Debug, PartialEq)]
pub struct McpConfig {
    pub path: PathBuf,
    /// `mcpServers` or `servers`: where the entries were read.
    pub key: &'static str,
    pub servers: Vec<ConfigServer>,
    /// Entries marked `"disabled": true`, skipped.
    pub disabled: Vec<String>,
    /// Entries that cannot be started here, each with its reason.
    pub unusable: Vec<Unusable>,
}

impl McpConfig {
    pub fn names(&self) -> Vec<&str> {
        self.servers.iter().map(|s| s.name.as_str()).collect()
    }

    /// Every entry (usable or not) when a command needs all of them, as a belt does: an error
    /// names each entry that cannot be started here, why, and the ways out.
    pub fn require_all(&self) -> Result<(), String> {
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
    pub fn get(&self, name: &str) -> Result<&ConfigServer, String> {
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
pub fn list(names: &[&str]) -> String {
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
pub fn workspace_of(path: &Path) -> PathBuf {
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
pub fn read(path: &Path, lookup: Lookup) -> Result<McpConfig, String> {
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
pub fn parse(path: &Path, text: &str, vars: &Vars) -> Result<McpConfig, String> {
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

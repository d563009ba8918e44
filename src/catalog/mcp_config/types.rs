//! What an MCP client config holds once read: its servers (each with its transport), the
//! entries that cannot be started here, and the limits on reading one.

use std::path::PathBuf;

/// Largest config file read, in bytes (real ones are a few kilobytes).
pub(crate) const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Most servers one config may name.
pub(crate) const MAX_SERVERS: usize = 64;
/// Most arguments, environment variables or headers one server may have.
pub(crate) const MAX_ITEMS: usize = 1000;

/// One server entry of a config, with every `${…}` expanded.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ConfigServer {
    /// The entry's key in the file.
    pub name: String,
    pub transport: Transport,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Transport {
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
pub(crate) struct Unusable {
    pub name: String,
    /// The whole error, naming the file and the field's JSON path.
    pub error: String,
}

/// A parsed config: its servers in file order (disabled ones left out).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct McpConfig {
    pub path: PathBuf,
    /// `mcpServers` or `servers`: where the entries were read.
    pub key: &'static str,
    pub servers: Vec<ConfigServer>,
    /// Entries marked `"disabled": true`, skipped.
    pub disabled: Vec<String>,
    /// Entries that cannot be started here, each with its reason.
    pub unusable: Vec<Unusable>,
}

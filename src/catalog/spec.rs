//! A server as the user named it: a command line (stdio), an http(s) URL (Streamable HTTP)
//! or a snapshot file. Reading it from text is `super::source`'s.

use std::path::PathBuf;

/// A server as named on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum ServerSpec {
    /// A program and its arguments, spawned over stdio.
    Command { program: String, args: Vec<String> },
    /// A Streamable HTTP endpoint.
    Http { url: String },
    /// A saved `tools/list` result (`{"tools": [...]}`).
    Snapshot(PathBuf),
}

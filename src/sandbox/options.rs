//! The sandbox settings: how much a server is confined, what more it may read and write,
//! and what it is started with.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// How much the server is confined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum SandboxMode {
    /// No confinement beyond the stripped environment and the process group.
    Off,
    /// No privileges, no capabilities, another uid when root, writes only to a temp dir.
    #[default]
    Standard,
    /// Standard, and no network.
    Strict,
}

impl SandboxMode {
    pub fn as_str(self) -> &'static str {
        match self {
            SandboxMode::Off => "off",
            SandboxMode::Standard => "standard",
            SandboxMode::Strict => "strict",
        }
    }
}

/// The sandbox settings a connection carries.
#[derive(Clone, Debug, Default)]
pub struct SandboxOptions {
    pub mode: SandboxMode,
    /// The uid (and gid) the server runs as when toolgate is root; `None`: 65534 (nobody).
    pub uid: Option<u32>,
    /// More directories the server may write beneath (e.g. a `.venv` it creates).
    pub write: Vec<PathBuf>,
    /// More files or directories the server may read (beside the workspace, the system and
    /// its program's installation).
    pub read: Vec<PathBuf>,
}

/// What a server is started with: the sandbox reads its program, arguments and folder.
pub(crate) struct Launch<'a> {
    pub program: &'a str,
    pub args: &'a [String],
    /// Its working folder (toolgate's when `None`).
    pub cwd: Option<&'a std::path::Path>,
}

/// The uid a root toolgate gives the server unless told otherwise: `nobody`.
pub(crate) const DEFAULT_UID: u32 = 65534;

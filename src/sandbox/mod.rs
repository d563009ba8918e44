//! The sandbox a stdio server runs in: the server under test is untrusted pull-request code,
//! so it gets less than toolgate has.
//!
//! What each platform gets (`--sandbox`, `[connect] sandbox`, `TOOLGATE_SANDBOX`):
//!
//! | | `off` | `standard` (default) | `strict` |
//! |---|---|---|---|
//! | every platform | credentials stripped from the environment, own process group | same | same |
//! | Linux | — | `no_new_privs`; every capability dropped (bounding, inheritable, ambient, permitted, effective: no `CAP_SYS_PTRACE`); uid/gid 65534 when toolgate runs as root; Landlock: writes only beneath a private temporary directory (`HOME` and `TMPDIR` point there) and each `--sandbox-write` directory, no signals to processes outside the sandbox | and no network: a new network namespace (root, or where user namespaces are allowed), Landlock TCP/UDP rules and abstract-socket scoping on kernels that have them |
//! | Linux, nothing outlives toolgate | — | the server is the first process of a PID namespace of its own, under a warden that ends it when toolgate ends by any route, SIGKILL included (`warden`); the kernel then ends all it started (root, or where user namespaces are allowed) | same |
//! | macOS, Windows | — | nothing more | refused: no OS sandbox is implemented there |
//!
//! toolgate itself is non-dumpable and keeps its credentials out of its environment
//! (`crate::secrets`), so `/proc/<toolgate>/{environ,mem}` give nothing to a process without
//! `CAP_SYS_PTRACE`; the uid change also keeps the server out of other root processes'
//! `/proc` entries (a parent shell's environment) and root-only files.

#[cfg(target_os = "linux")]
mod kernel;
#[cfg(target_os = "linux")]
mod landlock;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
mod programs;
#[cfg(target_os = "linux")]
mod reads;
pub mod reaper;
#[cfg(target_os = "linux")]
mod seccomp;
#[cfg(target_os = "linux")]
mod statement;
#[cfg(target_os = "linux")]
mod uid;
#[cfg(target_os = "linux")]
pub mod warden;

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
pub struct Launch<'a> {
    pub program: &'a str,
    pub args: &'a [String],
    /// Its working folder (toolgate's when `None`).
    pub cwd: Option<&'a std::path::Path>,
}

/// The uid a root toolgate gives the server unless told otherwise: `nobody`.
pub const DEFAULT_UID: u32 = 65534;

/// A sandbox set up for one server process: its private directory (removed when this is
/// dropped), the variables it sets, and what it applies.
pub struct Prepared {
    /// The server's private, writable directory (`HOME`, `TMPDIR`).
    pub dir: Option<tempfile::TempDir>,
    /// Variables to set in the server's environment.
    pub env: Vec<(String, String)>,
    /// What the sandbox does, in words, for error messages and `-v`.
    pub statement: String,
    /// The uid the server runs as, when it differs from toolgate's.
    pub uid: Option<u32>,
    #[cfg(target_os = "linux")]
    pub(crate) plan: Option<linux::Plan>,
}

impl Prepared {
    fn none(statement: &str) -> Self {
        Prepared {
            dir: None,
            env: Vec::new(),
            statement: statement.to_string(),
            uid: None,
            #[cfg(target_os = "linux")]
            plan: None,
        }
    }

    /// Applies the sandbox to the command that starts the server: the environment, and on
    /// Linux the confinement done in the child between fork and exec.
    pub fn apply(&mut self, cmd: &mut tokio::process::Command) {
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        #[cfg(target_os = "linux")]
        if let Some(plan) = self.plan.take() {
            linux::install(cmd, plan);
        }
    }

    /// A hint for a server that failed to start or exited early inside the sandbox.
    pub fn failure_hint(&self) -> String {
        if self.plan_applied() {
            // (The sentence names the read rules too: --sandbox-read opens one more path.)
            let uid = self
                .uid
                .map(|u| format!(" as uid {u} (toolgate runs as root)"))
                .unwrap_or_default();
            format!(
                " The server ran in toolgate's sandbox{uid}: {}. If it needs to write a \
                 directory, name it with --sandbox-write DIR; if it must read one outside the \
                 workspace and its program's installation, --sandbox-read PATH; if that uid \
                 may not read its files, make them readable or set --sandbox-uid; --sandbox \
                 off runs it unconfined.",
                self.statement
            )
        } else {
            String::new()
        }
    }

    fn plan_applied(&self) -> bool {
        self.dir.is_some()
    }
}

/// The file `program` names, found on PATH as `execvp` would (relative to `cwd`).
pub fn resolve_program(program: &str, cwd: Option<&std::path::Path>) -> Option<PathBuf> {
    let cwd = cwd
        .map(std::path::Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok())?;
    #[cfg(target_os = "linux")]
    {
        programs::which(program, &cwd)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (program, cwd);
        None
    }
}

/// Sets up the sandbox for one server process.
pub fn prepare(opts: &SandboxOptions, launch: &Launch) -> anyhow::Result<Prepared> {
    if opts.mode == SandboxMode::Off {
        return Ok(Prepared::none("off"));
    }
    #[cfg(target_os = "linux")]
    {
        let launch = reads::Launch {
            program: launch.program,
            args: launch.args,
            cwd: launch.cwd,
        };
        linux::prepare(opts, &launch)
    }
    #[cfg(not(target_os = "linux"))]
    {
        if opts.mode == SandboxMode::Strict {
            anyhow::bail!(
                "--sandbox strict is only implemented on Linux; on this platform the server \
                 runs with a stripped environment in its own process group (--sandbox standard)"
            );
        }
        Ok(Prepared::none(
            "environment stripped, own process group (no OS sandbox on this platform)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_applies_nothing() {
        let p = prepare(
            &SandboxOptions {
                mode: SandboxMode::Off,
                ..Default::default()
            },
            &Launch {
                program: "true",
                args: &[],
                cwd: None,
            },
        )
        .unwrap();
        assert!(p.env.is_empty() && p.dir.is_none());
        assert_eq!(p.failure_hint(), "");
    }

    #[test]
    fn modes_read_as_written() {
        for m in [SandboxMode::Off, SandboxMode::Standard, SandboxMode::Strict] {
            let v: SandboxMode = serde_json::from_value(serde_json::json!(m.as_str())).unwrap();
            assert_eq!(v, m);
        }
    }
}

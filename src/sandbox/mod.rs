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
mod confine;
#[cfg(target_os = "linux")]
mod kernel;
#[cfg(target_os = "linux")]
mod landlock;
#[cfg(target_os = "linux")]
mod linux;
mod options;
mod prepared;
#[cfg(target_os = "linux")]
mod programs;
#[cfg(target_os = "linux")]
mod reads;
pub(crate) mod reaper;
#[cfg(target_os = "linux")]
mod seccomp;
#[cfg(target_os = "linux")]
mod statement;
#[cfg(target_os = "linux")]
mod uid;
#[cfg(target_os = "linux")]
pub(crate) mod warden;

use std::path::PathBuf;

pub use options::SandboxMode;
pub(crate) use options::{DEFAULT_UID, Launch, SandboxOptions};
pub(crate) use prepared::Prepared;

/// The file `program` names, found on PATH as `execvp` would (relative to `cwd`).
pub(crate) fn resolve_program(program: &str, cwd: Option<&std::path::Path>) -> Option<PathBuf> {
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
pub(crate) fn prepare(opts: &SandboxOptions, launch: &Launch) -> anyhow::Result<Prepared> {
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
        confine::prepare(opts, &launch)
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

//! Setting up the Linux sandbox for one server process: its private directory and uid, the
//! paths it may write and read, the Landlock ruleset and seccomp filters, and the statement
//! of what it applies; the child side is `super::linux`'s.

use std::path::PathBuf;

use anyhow::Context;

use super::landlock::{landlock_abi, ruleset};
use super::linux::Plan;
use super::statement::statement;
use super::warden::Warden;
use super::{DEFAULT_UID, Prepared, SandboxMode, SandboxOptions};

pub(super) fn prepare(
    opts: &SandboxOptions,
    launch: &super::reads::Launch,
) -> anyhow::Result<Prepared> {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let uid = root
        .then(|| opts.uid.unwrap_or(DEFAULT_UID))
        .filter(|u| *u != 0);
    let dir = tempfile::Builder::new()
        .prefix("toolgate-sandbox-")
        .tempdir()
        .context("could not create the server's sandbox directory")?;
    if let Some(u) = uid {
        std::os::unix::fs::chown(dir.path(), Some(u), Some(u))
            .with_context(|| format!("could not hand {} to uid {u}", dir.path().display()))?;
    }
    let strict = opts.mode == SandboxMode::Strict;
    let abi = landlock_abi();
    let mut writable = vec![dir.path().to_path_buf()];
    for w in &opts.write {
        let full = std::path::absolute(w).unwrap_or_else(|_| w.clone());
        if !full.exists() {
            anyhow::bail!("--sandbox-write {}: no such directory", w.display());
        }
        if let Some(u) = uid {
            super::uid::warn_unwritable(&full, u);
        }
        writable.push(full);
    }
    if strict && abi < 4 && !root && !super::kernel::userns_possible() {
        anyhow::bail!(
            "--sandbox strict cannot cut the network here: no user namespaces for a network \
             namespace, and Landlock ABI {abi} has no network rules (4 or later needed)"
        );
    }
    let extra: Vec<PathBuf> = opts
        .read
        .iter()
        .map(|r| std::path::absolute(r).unwrap_or_else(|_| r.clone()))
        .collect();
    for (flag, r) in opts.read.iter().zip(&extra) {
        if !r.exists() {
            anyhow::bail!(
                "--sandbox-read {}: no such file or directory",
                flag.display()
            );
        }
    }
    let reads = super::reads::plan(launch, &extra);
    let ruleset = if abi > 0 {
        Some(ruleset(&writable, &reads, strict).context("could not build the Landlock ruleset")?)
    } else {
        None
    };
    // A root toolgate runs the server as another uid, which cannot enter a toolchain under
    // root's 0700 home (pyenv, nvm, asdf): it keeps CAP_DAC_READ_SEARCH, and Landlock's read
    // rules (which apply whatever the capabilities) decide what it reads. Without Landlock it
    // gets no capability and reads what that uid may.
    let read_cap = uid.is_some() && ruleset.is_some();
    let warden = Warden::new();
    // The server keeps toolgate's uid: toolgate is not root, or was told --sandbox-uid 0.
    let shares_uid = uid.is_none();
    let seccomp = super::seccomp::prepare(read_cap, shares_uid)?;
    if seccomp.is_none() && abi < 9 && strict {
        anyhow::bail!(
            "--sandbox strict cannot close UNIX sockets here: this kernel filters no system \
             calls (seccomp) and its Landlock (ABI {abi}) governs UNIX sockets only from ABI 9"
        );
    }
    let mut statement = statement(opts.mode, uid, abi, &writable, root);
    if read_cap {
        statement = statement.replacen(
            "no capabilities",
            "no capability but CAP_DAC_READ_SEARCH (its reads are Landlock's to decide)",
            1,
        );
    }
    statement.push_str(if abi > 0 {
        ", reads only system folders, the workspace without git's configuration, its program's installation and what its arguments name"
    } else {
        ", reads not limited"
    });
    statement.push_str(match (&seccomp, shares_uid) {
        (Some(_), _) => ", no UNIX sockets, no io_uring",
        (None, _) if abi >= 9 => ", no UNIX sockets outside its directories (Landlock)",
        (None, _) => ", UNIX sockets not closed (this kernel has no seccomp)",
    });
    if warden.is_some() {
        statement.push_str(if root {
            ", ended with toolgate (a PID namespace of its own)"
        } else {
            ", ended with toolgate (a subreaping warden)"
        });
    }
    let home = dir.path().display().to_string();
    let mut env = vec![("HOME".into(), home.clone()), ("TMPDIR".into(), home)];
    if uid.is_some() {
        env.extend(super::uid::git_trusts_any_owner());
    }
    Ok(Prepared {
        env,
        statement,
        uid,
        plan: Some(Plan {
            root,
            uid,
            strict,
            net_by_landlock: abi >= 4,
            last_cap: super::kernel::last_cap(),
            ruleset,
            warden,
            seccomp,
            read_cap,
        }),
        dir: Some(dir),
    })
}

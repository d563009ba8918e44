//! Claiming a run directory (an atomic `create_dir`, so two runs started in the same second
//! never share one) and locking it while a process writes to it.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::options::EvalOptions;
use crate::record::files::{RUN_FILE, RUN_LOCK};

fn slug(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    out.trim_matches('-').to_string()
}

/// A new, empty run directory: `--out`, or `runs/<time>-<label>` claimed atomically (a second
/// run started in the same second gets `-2`, `-3`, …).
pub(super) fn claim_dir(opts: &EvalOptions) -> anyhow::Result<PathBuf> {
    if let Some(out) = &opts.out {
        if out.join(RUN_FILE).exists() {
            bail!(
                "{} already holds a run: pass --resume {} to continue it, or another --out",
                out.display(),
                out.display()
            );
        }
        std::fs::create_dir_all(out)
            .with_context(|| format!("could not create {}", out.display()))?;
        return Ok(out.clone());
    }
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        .to_string()
        .replace([':', '-'], "")
        .replace('T', "-")
        .trim_end_matches('Z')
        .to_string();
    let label = opts
        .label
        .clone()
        .unwrap_or_else(|| crate::models::spec::join(&opts.models, "+"));
    let base = format!("{stamp}-{}", slug(&label));
    std::fs::create_dir_all("runs").context("could not create runs/")?;
    for i in 1..1000 {
        let name = if i == 1 {
            base.clone()
        } else {
            format!("{base}-{i}")
        };
        let dir = Path::new("runs").join(name);
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("could not create {}", dir.display())),
        }
    }
    bail!("could not find a free run directory name under runs/ for {base}")
}

/// An exclusive lock on a run directory, held while this process writes to it.
pub(super) struct DirLock(#[allow(dead_code)] std::fs::File);

impl DirLock {
    pub(super) fn take(dir: &Path) -> anyhow::Result<Self> {
        let path = dir.join(RUN_LOCK);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("could not open {}", path.display()))?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: flock on a file descriptor this function owns; released when it closes.
            let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if rc != 0 {
                bail!(
                    "{} is in use by another toolgate process: wait for it to finish (two runs writing one directory would repeat decisions)",
                    dir.display()
                );
            }
        }
        Ok(DirLock(file))
    }
}

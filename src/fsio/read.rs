//! Reading input files (locks, task files, baselines, snapshots, configs, replay logs) that a
//! user — or a pull request — supplies, as hostile bytes:
//!
//! - only a regular file is read: a FIFO, a device (`/dev/zero`), a socket or a folder is
//!   refused, checked on the open handle (opened non-blocking, so a FIFO cannot hang the open);
//! - at most [`MAX_INPUT`] bytes (a file that grows while read is refused too);
//! - a path inside the workspace (the current folder, or `GITHUB_WORKSPACE`) that resolves,
//!   through a symbolic link, to a file outside it is refused: a committed
//!   `toolgate.lock -> ~/.ssh/id_rsa` would otherwise be read and quoted in a diff;
//! - a file pinned with [`pin_reviewed`] (read and hashed before any server starts) must still
//!   have the same bytes whenever it is read later: a server that rewrote the lock or the task
//!   file before toolgate read it is caught, naming the file.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};

use sha2::{Digest, Sha256};

/// The largest input file read (1 GiB).
pub(crate) const MAX_INPUT: u64 = 1 << 30;

/// What a reviewed path held when toolgate first looked: a file's hash, or nothing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pin {
    Absent,
    File([u8; 32]),
}

/// Pins keyed by the path as written (made absolute, not resolved): a lock swapped for a
/// symbolic link to another file is the same key with other bytes.
static PINNED: LazyLock<Mutex<HashMap<PathBuf, Pin>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The permission bits of each pinned file and of the GitHub command files (`$GITHUB_ENV`,
/// `$GITHUB_OUTPUT`, …) when first looked at: a server that keeps toolgate's uid may chmod
/// what toolgate owns, which no sandbox rule can refuse without breaking npm and uv.
static MODES: LazyLock<Mutex<HashMap<PathBuf, u32>>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// The runner's command files a step writes to.
const COMMAND_FILES: &[&str] = &[
    "GITHUB_ENV",
    "GITHUB_OUTPUT",
    "GITHUB_PATH",
    "GITHUB_STATE",
    "GITHUB_STEP_SUMMARY",
];

#[cfg(unix)]
fn mode_of(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::symlink_metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn mode_of(_path: &Path) -> Option<u32> {
    None
}

fn pin_mode(path: &Path) {
    if let (Some(mode), Ok(mut modes)) = (mode_of(path), MODES.lock()) {
        modes.entry(lexical(path)).or_insert(mode);
    }
}

/// Checks the modes recorded by [`pin_mode`]: one that changed is put back (toolgate owns the
/// file) and refused, naming the file.
fn verify_modes() -> anyhow::Result<()> {
    let modes: Vec<(PathBuf, u32)> = match MODES.lock() {
        Ok(m) => m.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        Err(_) => return Ok(()),
    };
    for (path, before) in modes {
        let Some(now) = mode_of(&path) else {
            continue;
        };
        if now != before {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(before));
            }
            anyhow::bail!(
                "{}: its permissions changed from {before:04o} to {now:04o} while the server ran (put back): something changed it; refused",
                path.display()
            );
        }
    }
    Ok(())
}

fn refuse(what: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, what)
}

fn workspace() -> Option<PathBuf> {
    std::env::var_os("GITHUB_WORKSPACE")
        .filter(|w| !w.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .and_then(|w| std::fs::canonicalize(w).ok())
}

/// The path as written, made absolute, `.` and `..` applied by name (without resolving links).
pub(crate) fn lexical(path: &Path) -> PathBuf {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|c| c.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Refuses a path in the workspace that a symbolic link takes outside it. `real` is where the
/// open handle points (so a link swapped in between a check and the open cannot pass).
fn check_links(path: &Path, real: &Path) -> std::io::Result<()> {
    let Some(ws) = workspace() else {
        return Ok(());
    };
    let written = lexical(path);
    // The workspace as the user may spell it (not resolved) and resolved.
    let as_given = std::env::var_os("GITHUB_WORKSPACE")
        .filter(|w| !w.is_empty())
        .map(|w| lexical(Path::new(&w)))
        .or_else(|| std::env::current_dir().ok());
    let inside_as_written =
        written.starts_with(&ws) || as_given.is_some_and(|g| written.starts_with(g));
    if inside_as_written && !real.starts_with(&ws) {
        return Err(refuse(format!(
            "it is a symbolic link to {}, outside the workspace {}: refused",
            real.display(),
            ws.display()
        )));
    }
    Ok(())
}

/// The file an open handle reads (Linux: `/proc/self/fd/N`), else the path resolved.
fn real_path(f: &std::fs::File, path: &Path) -> std::io::Result<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(p) = std::fs::read_link(format!("/proc/self/fd/{}", f.as_raw_fd())) {
            return Ok(p);
        }
    }
    let _ = f;
    std::fs::canonicalize(path)
}

fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO's open would wait for a writer: non-blocking, then refused below.
        o.custom_flags(libc::O_NONBLOCK);
    }
    let f = o.open(path)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a folder"
        } else {
            "not a regular file (a FIFO, a device or a socket)"
        };
        return Err(refuse(format!("it is {kind}: refused")));
    }
    if meta.len() > MAX_INPUT {
        return Err(refuse(format!(
            "it is {} bytes, more than the {MAX_INPUT} toolgate reads: refused",
            meta.len()
        )));
    }
    Ok(f)
}

fn read_bytes(path: &Path) -> std::io::Result<(PathBuf, Vec<u8>)> {
    let f = open_regular(path)?;
    let real = real_path(&f, path)?;
    check_links(path, &real)?;
    let mut bytes = Vec::new();
    f.take(MAX_INPUT + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(refuse(format!(
            "it grew past the {MAX_INPUT} bytes toolgate reads: refused"
        )));
    }
    Ok((real, bytes))
}

/// Reads an input file as UTF-8 text, with the checks above. The error says why (the caller
/// names the file).
pub(crate) fn read_text(path: &Path) -> std::io::Result<String> {
    if pinned(path) == Some(Pin::Absent) {
        if std::fs::symlink_metadata(path).is_err() {
            // Still missing: a path that names no file, not an attack.
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "it does not exist",
            ));
        }
        return Err(refuse(
            "it did not exist when toolgate started, and now it does: something created it while the server ran; refused".into(),
        ));
    }
    let (_, bytes) = read_bytes(path)?;
    if let Some(Pin::File(before)) = pinned(path) {
        let now: [u8; 32] = Sha256::digest(&bytes).into();
        if now != before {
            return Err(refuse(format!(
                "it changed after toolgate first read it (sha256 {} then, {} now): something rewrote it while the server ran; refused",
                hex(&before),
                hex(&now)
            )));
        }
    }
    String::from_utf8(bytes).map_err(|e| {
        refuse(format!(
            "it is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn pinned(path: &Path) -> Option<Pin> {
    PINNED.lock().ok()?.get(&lexical(path)).copied()
}

/// Checks every pinned path again: each must hold what it held when toolgate first looked (the
/// same bytes, or still nothing). Called after each server session, so a server that deleted
/// the lock (which would read as a first run), created a baseline that was not there, or
/// swapped a file for a link is caught, naming the file.
pub(crate) fn verify_pins() -> anyhow::Result<()> {
    verify(|_| true)?;
    verify_modes()
}

fn verify(which: impl Fn(&Path) -> bool) -> anyhow::Result<()> {
    let pins: Vec<(PathBuf, Pin)> = match PINNED.lock() {
        Ok(p) => p
            .iter()
            .filter(|(k, _)| which(k))
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
        Err(_) => return Ok(()),
    };
    for (path, pin) in pins {
        let now = match std::fs::symlink_metadata(&path) {
            Err(_) => Pin::Absent,
            // A file (or nothing) swapped for a folder is a change too.
            Ok(m) if m.is_dir() => anyhow::bail!(
                "{} is now a folder, after toolgate first read it: something rewrote it while the server ran; refused",
                path.display()
            ),
            Ok(_) => match read_bytes(&path) {
                Ok((_, bytes)) => Pin::File(Sha256::digest(&bytes).into()),
                Err(e) => anyhow::bail!(
                    "{} changed after toolgate first read it ({e}): something rewrote it while the server ran; refused",
                    path.display()
                ),
            },
        };
        if now != pin {
            let what = match (pin, now) {
                (Pin::Absent, _) => "it did not exist when toolgate started, and now it does",
                (_, Pin::Absent) => "it was deleted after toolgate first read it",
                _ => "it changed after toolgate first read it",
            };
            anyhow::bail!(
                "{}: {what}: something rewrote it while the server ran; refused",
                path.display()
            );
        }
    }
    Ok(())
}

fn hex(b: &[u8; 32]) -> String {
    b.iter()
        .take(6)
        .map(|x| format!("{x:02x}"))
        .collect::<String>()
        + "…"
}

/// Reads and hashes each file of `paths` now, before any server starts; later [`read_text`]s
/// of them must find the same bytes, and [`verify_pins`] checks them all (a path that did not
/// exist must still not exist). A folder is skipped; a file that cannot be read is an error
/// naming it.
pub(crate) fn pin_reviewed<'a>(paths: impl IntoIterator<Item = &'a Path>) -> anyhow::Result<()> {
    for var in COMMAND_FILES {
        if let Some(p) = std::env::var_os(var) {
            pin_mode(Path::new(&p));
        }
    }
    for p in paths {
        pin_mode(p);
        let pin = match std::fs::symlink_metadata(p) {
            // Missing (a first run): recorded, so one that appears later is caught.
            Err(_) => Pin::Absent,
            // A base run directory, sealed by its SHA256SUMS.
            Ok(_) if p.is_dir() => continue,
            Ok(_) => {
                let (_, bytes) = read_bytes(p)
                    .map_err(|e| anyhow::anyhow!("could not read {}: {e}", p.display()))?;
                Pin::File(Sha256::digest(&bytes).into())
            }
        };
        if let Ok(mut pinned) = PINNED.lock() {
            pinned.entry(lexical(p)).or_insert(pin);
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;

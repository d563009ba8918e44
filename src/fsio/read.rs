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
pub const MAX_INPUT: u64 = 1 << 30;

static PINNED: LazyLock<Mutex<HashMap<PathBuf, [u8; 32]>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

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
fn lexical(path: &Path) -> PathBuf {
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

/// Refuses a path in the workspace that a symbolic link takes outside it.
fn check_links(path: &Path) -> std::io::Result<PathBuf> {
    let real = std::fs::canonicalize(path)?;
    if let Some(ws) = workspace() {
        let written = lexical(path);
        let inside_as_written = written.starts_with(&ws)
            || std::env::current_dir()
                .ok()
                .is_some_and(|c| written.starts_with(c));
        if inside_as_written && !real.starts_with(&ws) {
            return Err(refuse(format!(
                "it is a symbolic link to {}, outside the workspace {}: refused",
                real.display(),
                ws.display()
            )));
        }
    }
    Ok(real)
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
    let real = check_links(path)?;
    let f = open_regular(path)?;
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
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let (real, bytes) = read_bytes(path)?;
    if let Ok(pinned) = PINNED.lock()
        && let Some(before) = pinned.get(&real)
    {
        let now: [u8; 32] = Sha256::digest(&bytes).into();
        if &now != before {
            return Err(refuse(format!(
                "it changed after toolgate first read it (sha256 {} then, {} now): something rewrote it while the server ran; refused",
                hex(before),
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

fn hex(b: &[u8; 32]) -> String {
    b.iter()
        .take(6)
        .map(|x| format!("{x:02x}"))
        .collect::<String>()
        + "…"
}

/// Reads and hashes each existing file of `paths` now, before any server starts; later
/// [`read_text`]s of them must find the same bytes. A path that does not exist is skipped (a
/// missing lock is a first run, reported where it is used) and so is a folder; one that cannot
/// be read is an error naming it.
pub fn pin_reviewed<'a>(paths: impl IntoIterator<Item = &'a Path>) -> anyhow::Result<()> {
    for p in paths {
        // Missing (a first run) or a folder (a base run directory, sealed by its SHA256SUMS).
        match std::fs::metadata(p) {
            Err(_) => continue,
            Ok(m) if m.is_dir() => continue,
            Ok(_) => {}
        }
        let (real, bytes) =
            read_bytes(p).map_err(|e| anyhow::anyhow!("could not read {}: {e}", p.display()))?;
        if let Ok(mut pinned) = PINNED.lock() {
            pinned.insert(real, Sha256::digest(&bytes).into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_reads_and_special_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.txt");
        std::fs::write(&f, "text").unwrap();
        assert_eq!(read_text(&f).unwrap(), "text");
        let e = read_text(dir.path()).unwrap_err().to_string();
        assert!(e.contains("a folder"), "{e}");
        #[cfg(unix)]
        {
            let e = read_text(Path::new("/dev/zero")).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
            let fifo = dir.path().join("fifo");
            let c = std::ffi::CString::new(fifo.display().to_string()).unwrap();
            // SAFETY: mkfifo with a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            let e = read_text(&fifo).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
        }
        std::fs::write(&f, [0xff, 0xfe]).unwrap();
        assert!(read_text(&f).unwrap_err().to_string().contains("not UTF-8"));
    }

    #[test]
    fn a_pinned_file_that_changed_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("toolgate.lock");
        std::fs::write(&f, "reviewed").unwrap();
        pin_reviewed([f.as_path(), dir.path().join("missing").as_path()]).unwrap();
        assert_eq!(read_text(&f).unwrap(), "reviewed");
        std::fs::write(&f, "rewritten").unwrap();
        let e = read_text(&f).unwrap_err().to_string();
        assert!(e.contains("changed after toolgate first read it"), "{e}");
    }
}

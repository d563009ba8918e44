//! File writes that never leave a torn file behind: a reviewed lock, a baseline or a snapshot
//! is replaced by writing a temporary file in the same folder, syncing it, and renaming it
//! over the old one (atomic on POSIX file systems); the temporary file is removed on failure.
//! Reading what a user or a pull request supplies goes through [`read`]: regular files of
//! bounded size only, no symlink out of the workspace, and reviewed files pinned at start-up.

mod read;
pub(crate) use read::lexical;
pub(crate) use read::{MAX_INPUT, pin_reviewed, read_text, verify_pins};

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// `.NAME.PID.N.tmp` in `dir`, unique within this process.
fn temp_path(dir: &Path, name: &std::ffi::OsStr) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let mut file = std::ffi::OsString::from(".");
    file.push(name);
    file.push(format!(
        ".{}.{}.tmp",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    dir.join(file)
}

fn write_then_rename(
    tmp: &Path,
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)
        .with_context(|| {
            format!(
                "could not write {}: could not create the temporary file {}",
                path.display(),
                tmp.display()
            )
        })?;
    // Keep the permissions of the file being replaced.
    if let Ok(meta) = std::fs::metadata(path)
        && meta.is_file()
    {
        let _ = std::fs::set_permissions(tmp, meta.permissions());
    }
    let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut f);
    fill(&mut w)
        .and_then(|()| w.flush())
        .with_context(|| format!("could not write {}", path.display()))?;
    drop(w);
    f.sync_all()
        .with_context(|| format!("could not write {}", path.display()))?;
    drop(f);
    std::fs::rename(tmp, path)
        .with_context(|| format!("could not write {}: could not replace it", path.display()))
}

/// Replaces `path` with `bytes` atomically: either the old content or the new one is there,
/// never a part. Creates missing parent folders. Errors name the file.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_atomic_with(path, &mut |w| w.write_all(bytes))
}

/// [`write_atomic`] of what `fill` writes, streamed to the temporary file (a large JSON file is
/// never one string in memory).
pub(crate) fn write_atomic_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Some(name) = path.file_name() else {
        anyhow::bail!("could not write {}: it names no file", path.display());
    };
    std::fs::create_dir_all(&dir).with_context(|| {
        format!(
            "could not write {}: could not create {}",
            path.display(),
            dir.display()
        )
    })?;
    let tmp = temp_path(&dir, name);
    let result = write_then_rename(&tmp, path, fill);
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result?;
    // Make the rename itself durable.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn replaces_and_creates() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub/toolgate.lock");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert!(leftovers(p.parent().unwrap()).is_empty());
    }

    #[test]
    fn a_path_whose_parent_is_a_file_fails_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain");
        std::fs::write(&file, "keep").unwrap();
        let e = write_atomic(&file.join("x.lock"), b"new").unwrap_err();
        assert!(format!("{e:#}").contains("x.lock"), "{e:#}");
        assert_eq!(std::fs::read(&file).unwrap(), b"keep");
    }

    #[test]
    fn a_failed_rename_keeps_the_old_file_and_no_temp() {
        // The target is a non-empty directory: the rename fails after the data was written.
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("toolgate.lock");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("inside"), "reviewed").unwrap();
        let e = write_atomic(&target, b"torn?").unwrap_err();
        assert!(format!("{e:#}").contains("toolgate.lock"), "{e:#}");
        assert_eq!(std::fs::read(target.join("inside")).unwrap(), b"reviewed");
        assert!(
            leftovers(dir.path()).is_empty(),
            "{:?}",
            leftovers(dir.path())
        );
    }
}

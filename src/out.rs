//! All output goes through here: stdout through [`print`], which exits quietly when the reader
//! has gone (`toolgate rules | head -1`), and files through [`write_file`], which replaces a
//! file atomically (temp file in the same folder, then rename) so a reviewed file is never
//! left torn.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// Writes `text` to stdout. A closed pipe ends the process with exit 0: what was asked for
/// was written as far as anyone reads it, and there is nobody left to tell.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let result = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    if let Err(e) = result {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("toolgate: could not write to stdout: {e}");
        std::process::exit(2);
    }
}

/// [`print`] with a newline.
pub fn println(text: &str) {
    let mut s = String::with_capacity(text.len() + 1);
    s.push_str(text);
    s.push('\n');
    print(&s);
}

/// The name serde gives a value of a unit-variant enum (`RunStatus::Complete` → `complete`):
/// the one place a state's wire name is spelled is its serde attribute.
pub fn wire_name<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// Writes `text` to `path` atomically, creating its folder, naming the file on failure.
pub fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    write_bytes(path, text.as_bytes())
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, flushed to disk,
/// then renamed over `path`. On failure the old file is untouched and the temporary removed.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("could not create {}", dir.display()))?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir
        .unwrap_or(Path::new("."))
        .join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("could not write {}", path.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_intact() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("toolgate.lock");
        write_file(&target, "reviewed\n").unwrap();
        // A directory where the temporary file must go makes the write fail midway.
        let blocker = dir
            .path()
            .join(format!(".toolgate.lock.{}.tmp", std::process::id()));
        std::fs::create_dir(&blocker).unwrap();
        let e = write_file(&target, "new").unwrap_err();
        assert!(format!("{e:#}").contains("toolgate.lock"), "{e:#}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "reviewed\n");
    }

    #[test]
    fn replaces_and_creates_folders() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a/b/c.json");
        write_file(&target, "1").unwrap();
        write_file(&target, "2").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "2");
        let left: Vec<_> = std::fs::read_dir(target.parent().unwrap())
            .unwrap()
            .collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
    }
}

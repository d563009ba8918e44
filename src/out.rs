//! All output goes through here: stdout through [`print`], which exits quietly when the reader
//! has gone (`toolgate rules | head -1`), and files through [`write_file`], which replaces a
//! file atomically (temp file in the same folder, then rename) so a reviewed file is never
//! left torn.

use std::io::Write;
use std::path::Path;

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

/// Writes `bytes` to `path` atomically (see [`crate::fsio::write_atomic`]).
pub fn write_bytes(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    crate::fsio::write_atomic(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

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

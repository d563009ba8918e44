//! All output goes through here: stdout through [`print`], which exits quietly when the reader
//! has gone (`toolgate rules | head -1`) and masks secret-shaped values, like every line on
//! stderr, and files through [`write_file`] (or [`write_shown`] for what a person reads), which
//! replace a file atomically (temp file in the same folder, then rename) so a reviewed file is never
//! left torn.

use std::io::Write;
use std::path::Path;

/// True when the output is read by the GitHub Actions runner, which turns some lines into
/// workflow commands.
fn on_actions() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true"))
}

/// Text for a log line the Actions runner reads, made inert: it turns a line that starts
/// (after blanks) with `::` into a workflow command (`::add-mask::`, `::error::`,
/// `::stop-commands::`…) and `##[` anywhere into a legacy one. Every control character but
/// tab and newline (escape sequences, OSC hyperlinks, carriage returns that would start a new
/// line) is shown escaped, a leading `::` becomes `: :` and `##[` becomes `# #[`.
pub(crate) fn neutralise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut clean = String::with_capacity(line.len());
        for c in line.chars() {
            if c.is_control() && c != '\t' {
                clean.push_str(&c.escape_unicode().to_string());
            } else {
                clean.push(c);
            }
        }
        let clean = clean.replace("##[", "# #[");
        let blanks = clean.len() - clean.trim_start().len();
        match clean[blanks..].strip_prefix("::") {
            Some(rest) => {
                out.push_str(&clean[..blanks]);
                out.push_str(": :");
                out.push_str(rest);
            }
            None => out.push_str(&clean),
        }
    }
    out
}

/// Writes `text` to stdout. A closed pipe ends the process with exit 0: what was asked for
/// was written as far as anyone reads it, and there is nobody left to tell. On GitHub
/// Actions every line is [`neutralise`]d: only [`command`] writes a workflow command.
pub(crate) fn print(text: &str) {
    let text = crate::secrets::shown::mask_shown(text);
    if on_actions() {
        write_stdout(&neutralise(&text));
    } else {
        write_stdout(&text);
    }
}

/// Writes toolgate's own workflow commands (annotations, notices), whose data was escaped
/// where they were made.
pub(crate) fn command(text: &str) {
    if text.is_empty() {
        return;
    }
    let mut s = crate::secrets::shown::mask_shown(text);
    if !s.ends_with('\n') {
        s.push('\n');
    }
    write_stdout(&s);
}

/// [`command`] on stderr (where `--format json` keeps them, stdout being pure JSON).
pub(crate) fn command_on_stderr(text: &str) {
    let _ = std::io::stderr()
        .lock()
        .write_all(crate::secrets::shown::mask_shown(text).as_bytes());
}

/// A line on stderr (the `elog!` macro), [`neutralise`]d on GitHub Actions.
pub(crate) fn eprint_line(text: &str) {
    let text = crate::secrets::shown::mask_shown(text);
    let mut s = if on_actions() {
        neutralise(&text)
    } else {
        text
    };
    s.push('\n');
    let _ = std::io::stderr().lock().write_all(s.as_bytes());
}

fn write_stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let result = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    if let Err(e) = result {
        // Nothing a server started outlives toolgate, whichever way it exits.
        crate::sandbox::reaper::reap_all();
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        let _ = writeln!(
            std::io::stderr(),
            "toolgate: could not write to stdout: {e}"
        );
        std::process::exit(2);
    }
}

/// [`print`] with a newline.
pub(crate) fn println(text: &str) {
    let mut s = String::with_capacity(text.len() + 1);
    s.push_str(text);
    s.push('\n');
    print(&s);
}

/// The name serde gives a value of a unit-variant enum (`RunStatus::Complete` → `complete`):
/// the one place a state's wire name is spelled is its serde attribute.
pub(crate) fn wire_name<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// Writes a file a person reads (a report, the comment, the summary, a lint or contract
/// report) atomically, with every secret-shaped value masked ([`crate::secrets::shown`]).
/// Files toolgate reads back as they were written (the lock, a snapshot, task files, run
/// records) use [`write_file`] and keep what the server sent byte for byte.
pub(crate) fn write_shown(path: &Path, text: &str) -> anyhow::Result<()> {
    write_file(path, &crate::secrets::shown::mask_shown(text))
}

/// [`write_shown`] of `value` as pretty JSON (newline-terminated), streamed to the file
/// through the mask: a report of tens of megabytes is never one string in memory.
pub(crate) fn write_shown_json<T: serde::Serialize>(path: &Path, value: &T) -> anyhow::Result<()> {
    crate::fsio::write_atomic_with(path, &mut |w| {
        let mut m = crate::secrets::shown::MaskLines::new(w);
        serde_json::to_writer_pretty(&mut m, value)?;
        std::io::Write::write_all(&mut m, b"\n")?;
        std::io::Write::flush(&mut m)
    })
}

/// Writes `text` to `path` atomically, creating its folder, naming the file on failure.
pub(crate) fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    write_bytes(path, text.as_bytes())
}

/// Writes `bytes` to `path` atomically (see [`crate::fsio::write_atomic`]).
pub(crate) fn write_bytes(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    crate::fsio::write_atomic(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_line_of_hostile_text_becomes_a_workflow_command() {
        let hostile = "ok ::add-mask::x\n  ::error::forged\r::warning::cr\nsee ##[error]legacy \u{1b}]8;;http://x\u{7}link\u{1b}[31m";
        let out = neutralise(hostile);
        for line in out.lines() {
            assert!(!line.trim_start().starts_with("::"), "{line:?}");
            assert!(!line.contains("##["), "{line:?}");
            assert!(!line.contains('\u{1b}') && !line.contains('\r'), "{line:?}");
        }
        assert!(
            out.contains("ok ::add-mask::x"),
            "mid-line `::` is inert: {out}"
        );
        assert!(out.contains(": :error::forged"), "{out}");
        assert_eq!(neutralise("plain text"), "plain text");
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

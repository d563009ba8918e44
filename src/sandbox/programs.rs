//! The server's own program as the sandbox's read rules see it: the command found on PATH as
//! `execvp` would, each link and `#!` interpreter it leads to, the installation each lies in,
//! and the interpreter a virtual environment was made from.

use std::path::{Path, PathBuf};

/// Levels of links and `#!` interpreters followed from the command.
pub(super) const HOPS: usize = 6;

/// Whether `root` is an installation of an interpreter: `bin/` holds a python or node that is
/// an ELF executable (a folder a committed `pyvenv.cfg` or link merely names is not).
pub(super) fn is_toolchain(root: &Path) -> bool {
    use std::io::Read;
    let Ok(entries) = std::fs::read_dir(root.join("bin")) else {
        return false;
    };
    entries.flatten().take(512).any(|e| {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with("python") || name == "node") {
            return false;
        }
        let mut magic = [0u8; 4];
        std::fs::File::open(e.path())
            .and_then(|mut f| f.read_exact(&mut magic))
            .is_ok()
            && magic == *b"\x7fELF"
    })
}

/// The interpreter a virtual environment was made from (`pyvenv.cfg`'s `home`, and each link of
/// `bin/python`), for `root` itself or its `.venv`: `uv run` or a venv's script runs it.
pub(super) fn venv_interpreters(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for name in ["", ".venv", "venv", ".env", "env"] {
        let venv = root.join(name);
        let Ok(cfg) = std::fs::read_to_string(venv.join("pyvenv.cfg")) else {
            continue;
        };
        for line in cfg.lines() {
            if let Some((k, v)) = line.split_once('=')
                && k.trim() == "home"
            {
                out.push(Path::new(v.trim()).join("python"));
            }
        }
        out.extend(links(&venv.join("bin/python")));
    }
    out
}

/// Each target on the way from `p` through its links, and where they end.
pub(super) fn links(p: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut link = p.to_path_buf();
    for _ in 0..HOPS {
        match std::fs::read_link(&link) {
            Ok(t) => {
                link = link.parent().map_or(t.clone(), |d| d.join(&t));
                out.push(link.clone());
            }
            Err(_) => break,
        }
    }
    if let Ok(real) = std::fs::canonicalize(p) {
        out.push(real);
    }
    out
}

/// The command, found as `execvp` would, then each link target and `#!` interpreter it leads
/// to (`/usr/bin/env X` resolves X on PATH).
pub(super) fn program_paths(program: &str, cwd: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut next = vec![program.to_string()];
    for _ in 0..HOPS {
        let Some(name) = next.pop() else {
            break;
        };
        let Some(found) = which(&name, cwd) else {
            continue;
        };
        out.push(found.clone());
        // Each link on the way (a venv's python → the interpreter it was made from).
        out.extend(links(&found));
        if let Ok(real) = std::fs::canonicalize(&found)
            && let Some((interp, arg)) = shebang(&real)
        {
            let base = Path::new(&interp).file_name().and_then(|n| n.to_str());
            if base == Some("env") {
                if let Some(a) = arg {
                    next.push(a);
                }
            } else {
                next.push(interp);
            }
        }
    }
    out
}

/// The first match of `name` on PATH (or `name` itself when it holds a slash).
pub(crate) fn which(name: &str, cwd: &Path) -> Option<PathBuf> {
    if name.contains('/') {
        let p = cwd.join(name);
        return p.exists().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| cwd.join(d).join(name))
        .find(|p| p.is_file())
}

/// `#!interpreter [arg]` of a script: the interpreter, and the first word after it (the
/// program `env` runs; `-S` and other flags skipped).
pub(super) fn shebang(p: &Path) -> Option<(String, Option<String>)> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(p).ok()?.read(&mut head).ok()?;
    let text = std::str::from_utf8(&head[..n]).ok()?;
    let line = text.strip_prefix("#!")?.lines().next()?;
    let mut words = line.split_whitespace();
    let interp = words.next()?.to_string();
    let arg = words.find(|w| !w.starts_with('-')).map(str::to_string);
    Some((interp, arg))
}

/// The installation a program lies in: `…/bin/x` → `…` (also `sbin`, `shims`, `libexec`,
/// `node_modules/.bin`),
/// else its folder. Never the home folder itself, `~/.local` or `/`: there only the folder.
pub(super) fn install_root(p: &Path, home: Option<&Path>) -> PathBuf {
    let parent = p.parent().unwrap_or(Path::new("/"));
    let named = parent.file_name().and_then(|n| n.to_str());
    if matches!(named, Some("bin" | "sbin" | "shims" | "libexec" | ".bin"))
        && let Some(up) = parent.parent()
    {
        let too_wide =
            up == Path::new("/") || home.is_some_and(|h| up == h || up == h.join(".local"));
        if !too_wide {
            return up.to_path_buf();
        }
    }
    parent.to_path_buf()
}

//! What a sandboxed server may read (issue 42 point 2): what a server needs and nothing of
//! toolgate's.
//!
//! - **System directories**: `/usr`, `/lib*`, `/bin`, `/sbin`, `/opt`, `/nix`, `/snap`, `/proc`,
//!   `/sys`, the resolver's `/run/systemd/resolve`, a few devices; `/etc` without the files
//!   only root may read there (`shadow`, `gshadow`, `sudoers`, private keys).
//! - **The workspace**: the server's working folder, or the git checkout it lies in, without
//!   `.git/` (where `actions/checkout` leaves the job's token in `.git/config` unless
//!   `persist-credentials: false`), toolgate's output folder (`toolgate-out`) and response cache
//!   (`.toolgate-cache`). Their names can still be listed, not read.
//! - **The server's own program and libraries**: the command resolved on `PATH`, each link and
//!   `#!` interpreter it leads to, and the installation each lies in (`…/versions/3.12` for
//!   `…/versions/3.12/bin/python3`, `~/.pyenv` for a pyenv shim), even under toolgate's home.
//! - **What its arguments name**: an existing file (its checkout, or its folder) or folder.
//! - Its private `HOME`/`TMPDIR`, each `--sandbox-write` and `--sandbox-read` folder.
//!
//! Never: the rest of toolgate's user's home (`~/.ssh`, `~/.config/gh`, a runner's
//! credentials), `/etc/shadow`, `/root` beyond the installations above, other users' files in
//! `/tmp`, block devices.

use std::path::{Path, PathBuf};

use super::programs::{install_root, is_toolchain, program_paths, venv_interpreters};

/// Directories read whole: the system's programs and libraries, and the kernel interfaces a
/// runtime reads (CPU count, cgroup limits). Not `/opt` or the rest of `/sys`: a root
/// toolgate's server keeps `CAP_DAC_READ_SEARCH`, which reads past file modes, so only trees
/// without secrets are granted whole (a program in `/opt` gets its own installation).
const SYSTEM: &[&str] = &[
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/bin",
    "/sbin",
    "/nix/store",
    "/snap",
    "/proc",
    "/sys/devices/system/cpu",
    "/sys/fs/cgroup",
    "/sys/kernel/mm/transparent_hugepage",
    "/run/systemd/resolve",
];

/// Devices a program reads (never a disk: with `CAP_DAC_READ_SEARCH` a block device would
/// give every file on it; never another terminal or shared memory).
pub(crate) const READ_DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
];

/// Folders never granted whole from the workspace, the arguments or a virtual environment:
/// a tree equal to one of these or above one is skipped (toolgate's home is added).
const SENSITIVE: &[&str] = &[
    "/", "/etc", "/dev", "/root", "/home", "/var", "/run", "/tmp", "/proc", "/sys", "/boot",
    "/mnt", "/media", "/srv", "/opt", "/usr",
];

/// Paths in the workspace (and in a repository an argument names) the server may not read:
/// git's configuration, where `actions/checkout` leaves the job's token (`extraheader`), also
/// in a submodule's (under `.git/modules`) and a worktree's; toolgate's cache and output. The
/// rest of `.git` (HEAD, refs, objects: what the files already show) stays readable, so a git
/// MCP server can open its repository.
const HIDDEN_NAMES: &[&str] = &[
    ".git/config",
    ".git/config.worktree",
    ".git/modules",
    ".toolgate-cache",
    "toolgate-out",
];

/// Most directory entries looked at while splitting trees around hidden paths and walking
/// `/etc` (a bound on the work; what is left over is not granted).
const BUDGET: usize = 20_000;

/// Interpreters looked up on PATH besides the command.
const TOOLCHAINS: &[&str] = &["python3", "python", "node", "uv", "npx", "bun", "deno"];

/// The read rules: trees read whole, trees whose entry names alone may be listed.
#[derive(Debug, Default)]
pub(crate) struct Reads {
    pub full: Vec<PathBuf>,
    pub list: Vec<PathBuf>,
}

/// What the server is started with, for [`plan`].
pub(crate) struct Launch<'a> {
    pub program: &'a str,
    pub args: &'a [String],
    /// The server's working folder (toolgate's when `None`).
    pub cwd: Option<&'a Path>,
}

/// Works out the read rules for one server.
pub(crate) fn plan(launch: &Launch, extra: &[PathBuf]) -> Reads {
    let cwd = launch
        .cwd
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"));
    let cwd = real(&std::path::absolute(&cwd).unwrap_or(cwd));
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute() && h != Path::new("/"))
        .map(|h| real(&h));
    let mut sensitive: Vec<PathBuf> = SENSITIVE.iter().map(PathBuf::from).collect();
    sensitive.extend(home.iter().cloned());
    // A tree that holds a sensitive folder is never granted (not even split).
    let safe = |t: &Path| !sensitive.iter().any(|s| s.starts_with(t));

    let mut hidden: Vec<PathBuf> = home.iter().cloned().collect();
    let mut trees: Vec<PathBuf> = Vec::new();
    let workspace = checkout_of(&cwd).unwrap_or_else(|| cwd.clone());
    for root in [&workspace, &cwd] {
        for name in HIDDEN_NAMES {
            hidden.push(root.join(name));
        }
        if safe(root) {
            trees.push(root.clone());
        }
        // The interpreter a committed virtual environment names is the pull request's word:
        // only a real installation of one counts.
        for p in venv_interpreters(root) {
            let t = real(&install_root(&p, home.as_deref()));
            if safe(&t) && is_toolchain(&t) {
                trees.push(t);
            }
        }
    }
    // The command, and the interpreters on PATH it may start (`uv` finds its Python there,
    // `npx` its node): toolchains, not secrets.
    let mut programs = program_paths(launch.program, &cwd);
    for name in TOOLCHAINS {
        programs.extend(program_paths(name, &cwd));
    }
    for p in programs {
        let root = install_root(&p, home.as_deref());
        for q in venv_interpreters(&root) {
            let t = real(&install_root(&q, home.as_deref()));
            if safe(&t) && is_toolchain(&t) {
                trees.push(t);
            }
        }
        let root = real(&root);
        if safe(&root) {
            trees.push(root);
        }
        // A package's script: every package beside it (the outermost node_modules).
        if let Some(modules) = p
            .ancestors()
            .filter(|a| a.file_name().is_some_and(|n| n == "node_modules"))
            .last()
            .map(real)
            .filter(|m| safe(m))
        {
            trees.push(modules);
        }
    }
    for a in launch.args {
        // `..` applied by name: `../servers/s.py` from the workspace names a file beside it,
        // not a link in it.
        let written = crate::fsio::lexical(&cwd.join(a));
        let Ok(c) = std::fs::canonicalize(&written) else {
            continue;
        };
        // A link committed in the workspace that leads out of it is not followed.
        if written.starts_with(&workspace) && !c.starts_with(&workspace) {
            continue;
        }
        let root = if c.is_dir() {
            c
        } else {
            checkout_of(&c).unwrap_or_else(|| c.parent().map_or(c.clone(), Path::to_path_buf))
        };
        // Hidden relative to the repository the path lies in too (an argument naming `.git`).
        for r in [Some(root.clone()), checkout_of(&root)]
            .into_iter()
            .flatten()
        {
            for name in HIDDEN_NAMES {
                hidden.push(r.join(name));
            }
        }
        if safe(&root) {
            trees.push(root);
        }
    }
    trees.extend(extra.iter().map(|e| real(e)).filter(|e| safe(e)));

    let mut reads = Reads::default();
    for dir in SYSTEM {
        if Path::new(dir).exists() {
            reads.full.push(PathBuf::from(dir));
        }
    }
    // /etc: what any user may read there.
    let mut budget = BUDGET;
    etc(Path::new("/etc"), &mut reads, &mut budget, 0);
    for t in dedup(trees) {
        // Each tree its own bound: a large /etc does not starve the workspace.
        let mut budget = BUDGET;
        grant(&t, &hidden, &mut reads, &mut budget);
    }
    reads.full = dedup(reads.full);
    reads.list = dedup(reads.list);
    reads
}

/// The path with its links resolved (as Landlock will open it), or as given.
fn real(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Sorted, without duplicates or trees inside another kept one.
fn dedup(mut v: Vec<PathBuf>) -> Vec<PathBuf> {
    v.sort();
    v.dedup();
    // Sorted component by component, a tree's paths follow its root with nothing between:
    // only the last kept path can hold the next one (the n² scan was a quarter of a live
    // `inspect`'s own CPU).
    let mut out: Vec<PathBuf> = Vec::new();
    for p in v {
        if !out.last().is_some_and(|q| p.starts_with(q)) {
            out.push(p);
        }
    }
    out
}

/// Grants `t` whole, or (when a hidden path lies inside it) its names and each entry that is
/// not hidden, recursively.
fn grant(t: &Path, hidden: &[PathBuf], reads: &mut Reads, budget: &mut usize) {
    if hidden.iter().any(|h| h == t) || !t.exists() {
        return;
    }
    if !hidden.iter().any(|h| h.starts_with(t)) {
        reads.full.push(t.to_path_buf());
        return;
    }
    reads.list.push(t.to_path_buf());
    let Ok(entries) = std::fs::read_dir(t) else {
        return;
    };
    for e in entries.flatten() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        grant(&e.path(), hidden, reads, budget);
    }
}

/// Grants what any user may read beneath `dir` (`/etc`): a tree whose every entry is readable
/// by others (and none a link) whole, else its names and each such entry, recursively. Each
/// entry is looked at once (asking of every folder whether its whole tree was readable, then
/// walking it again, looked at `/etc`'s entries two to three times: a sixth of a live
/// `inspect`'s own CPU).
fn etc(dir: &Path, reads: &mut Reads, budget: &mut usize, depth: usize) {
    if readable_tree(dir, reads, budget, depth) {
        reads.full.push(dir.to_path_buf());
    }
}

/// Looks at `path` once: `true` when it may be granted whole (readable by others, not a link,
/// and for a folder every entry so; a folder deeper than 8 counts whole once it is readable);
/// otherwise the rules for its readable parts are in `reads` already. A link is granted where it
/// leads only to a readable file (Landlock grants a link's target).
fn readable_tree(path: &Path, reads: &mut Reads, budget: &mut usize, depth: usize) -> bool {
    use std::os::unix::fs::PermissionsExt;
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return false;
    };
    if meta.file_type().is_symlink() {
        let target = std::fs::metadata(path);
        if target.is_ok_and(|t| t.is_file() && t.permissions().mode() & 0o004 != 0) {
            reads.full.push(path.to_path_buf());
        }
        return false;
    }
    if meta.permissions().mode() & 0o004 == 0 {
        return false;
    }
    if !meta.is_dir() || depth > 8 {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        reads.list.push(path.to_path_buf());
        return false;
    };
    let mut whole = Vec::new();
    let mut all = true;
    for e in entries.flatten() {
        let p = e.path();
        if readable_tree(&p, reads, budget, depth + 1) {
            whole.push(p);
        } else {
            all = false;
        }
    }
    if !all {
        reads.list.push(path.to_path_buf());
        reads.full.extend(whole);
    }
    all
}

/// The git checkout `p` lies in (the folder holding `.git`), if any.
fn checkout_of(p: &Path) -> Option<PathBuf> {
    let start = if p.is_dir() { p } else { p.parent()? };
    start
        .ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

#[cfg(test)]
#[path = "reads_tests.rs"]
mod tests;

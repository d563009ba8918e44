//! Reading a file as it is on the base revision, with `git` (the checkout's own repository).
//! The base commit may be missing from a shallow checkout: it is fetched once (depth 1) from
//! `origin`. Output is bounded like any input file.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};

/// A reader of one base revision.
pub(crate) struct BaseTree {
    sha: String,
    /// The repository's top folder.
    top: PathBuf,
}

fn git(dir: &Path) -> Command {
    let mut c = Command::new("git");
    c.current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(Stdio::null());
    c
}

/// What git said on stderr, on one bounded line.
fn said(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(400) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None if line.is_empty() => "no message".into(),
        None => line,
    }
}

fn valid_sha(sha: &str) -> bool {
    (7..=64).contains(&sha.len()) && sha.bytes().all(|b| b.is_ascii_hexdigit())
}

impl BaseTree {
    /// Opens the base revision `sha` in the repository of the current folder, fetching it when
    /// the checkout does not have it.
    pub(crate) fn open(sha: &str) -> anyhow::Result<BaseTree> {
        if !valid_sha(sha) {
            bail!("the base revision `{sha}` from the event is not a commit id");
        }
        let cwd = std::env::current_dir().context("no current folder")?;
        let out = git(&cwd)
            .args(["rev-parse", "--show-toplevel"])
            .output()
            .context("could not run git (is it installed?)")?;
        if !out.status.success() {
            bail!(
                "git could not open the repository of the current folder: {}",
                said(&out.stderr)
            );
        }
        let top = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        let tree = BaseTree {
            sha: sha.to_string(),
            top,
        };
        if !tree.has_commit() {
            let fetch = git(&tree.top)
                .args(["fetch", "--no-tags", "--depth=1", "origin", sha])
                .stdout(Stdio::null())
                .output();
            if !tree.has_commit() {
                let why = match fetch {
                    Ok(o) => said(&o.stderr),
                    Err(e) => e.to_string(),
                };
                bail!(
                    "the base commit {sha} is not in this checkout and could not be fetched (git: {why}); use actions/checkout with fetch-depth: 0"
                );
            }
        }
        Ok(tree)
    }

    fn has_commit(&self) -> bool {
        git(&self.top)
            .args(["cat-file", "-e", &format!("{}^{{commit}}", self.sha)])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// `path` as git's `<rev>:./<path>` names it (relative to the current folder), or `None`
    /// when it is absolute and outside the current folder.
    fn relative(path: &Path) -> Option<String> {
        let rel = if path.is_absolute() {
            let cwd = std::fs::canonicalize(std::env::current_dir().ok()?).ok()?;
            let dir = std::fs::canonicalize(path.parent()?).ok()?;
            dir.strip_prefix(&cwd).ok()?.join(path.file_name()?)
        } else {
            path.to_path_buf()
        };
        Some(format!("./{}", rel.to_string_lossy().replace('\\', "/")))
    }

    /// The bytes of `path` on the base revision; `None` when it did not exist there (or lies
    /// outside the repository).
    pub(crate) fn read(&self, path: &Path) -> anyhow::Result<Option<Vec<u8>>> {
        let Some(rel) = Self::relative(path) else {
            return Ok(None);
        };
        let here = std::env::current_dir().context("no current folder")?;
        let spec = format!("{}:{rel}", self.sha);
        let kind = git(&here)
            .args(["cat-file", "-t", &spec])
            .stderr(Stdio::null())
            .output()
            .context("could not run git")?;
        if !kind.status.success() {
            return Ok(None);
        }
        if String::from_utf8_lossy(&kind.stdout).trim() != "blob" {
            return Ok(None);
        }
        let size = git(&here)
            .args(["cat-file", "-s", &spec])
            .output()
            .context("could not run git")?;
        let n: u64 = String::from_utf8_lossy(&size.stdout)
            .trim()
            .parse()
            .unwrap_or(0);
        if n > crate::fsio::MAX_INPUT {
            bail!("{rel} on the base revision is {n} bytes: too large to read");
        }
        let out = git(&here)
            .args(["cat-file", "blob", &spec])
            .output()
            .context("could not run git")?;
        if !out.status.success() {
            bail!("could not read {rel} on the base revision {}", self.sha);
        }
        Ok(Some(out.stdout))
    }

    /// True when git tracks `path` (a file, or any file beneath a folder) in the checkout: it
    /// came with the pull request's tree. An untracked one was made by the workflow (a
    /// downloaded artefact, a build step).
    pub(crate) fn tracked(&self, path: &Path) -> bool {
        let Some(rel) = Self::relative(path) else {
            return false;
        };
        let Ok(here) = std::env::current_dir() else {
            return false;
        };
        git(&here)
            .args(["ls-files", "-z", "--", &rel])
            .stderr(Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success() && !o.stdout.is_empty())
    }

    /// True when the folder `path` holds a file git does not track (ignored ones included): a
    /// folder the workflow filled (a downloaded artefact), whatever the pull request added to
    /// it (a run folder's seal refuses added files).
    pub(crate) fn has_untracked(&self, path: &Path) -> bool {
        let Some(rel) = Self::relative(path) else {
            return true;
        };
        let Ok(here) = std::env::current_dir() else {
            return true;
        };
        git(&here)
            .args(["ls-files", "--others", "-z", "--", &rel])
            .stderr(Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success() && !o.stdout.is_empty())
    }

    /// The files beneath folder `path` on the base revision (paths relative to the current
    /// folder), at most `max`; `None` when the folder did not exist there.
    pub(crate) fn files_under(
        &self,
        path: &Path,
        max: usize,
    ) -> anyhow::Result<Option<Vec<String>>> {
        let Some(rel) = Self::relative(path) else {
            return Ok(None);
        };
        let here = std::env::current_dir().context("no current folder")?;
        let out = git(&here)
            .args([
                "ls-tree",
                "-r",
                "-z",
                "--name-only",
                "--full-name",
                &self.sha,
                "--",
                &rel,
            ])
            .output()
            .context("could not run git")?;
        if !out.status.success() {
            bail!(
                "git could not list {rel} on the base revision: {}",
                said(&out.stderr)
            );
        }
        let names: Vec<String> = out
            .stdout
            .split(|b| *b == 0)
            .filter(|n| !n.is_empty())
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect();
        if names.is_empty() {
            return Ok(None);
        }
        if names.len() > max {
            bail!("{rel} on the base revision holds more than {max} files");
        }
        // --full-name gives paths from the top: make them relative to the current folder.
        let cwd = std::fs::canonicalize(&here).context("no current folder")?;
        let top = std::fs::canonicalize(&self.top).unwrap_or(self.top.clone());
        let prefix = cwd
            .strip_prefix(&top)
            .unwrap_or(Path::new(""))
            .to_path_buf();
        Ok(Some(
            names
                .into_iter()
                .filter_map(|n| {
                    Path::new(&n)
                        .strip_prefix(&prefix)
                        .ok()
                        .map(|p| p.to_string_lossy().into_owned())
                })
                .collect(),
        ))
    }

    /// The settings file on the base revision: `explicit` (a `--config` path) when given and
    /// there, else the one toolgate's discovery would find there from the current folder up
    /// to the repository's top (`toolgate.toml`, else a pyproject.toml with
    /// `[tool.toolgate]`), with its bytes. Paths are relative to the current folder
    /// (`../toolgate.toml`), as discovery names them in the checkout.
    pub(crate) fn settings_file(
        &self,
        explicit: Option<&Path>,
    ) -> anyhow::Result<Option<(PathBuf, Vec<u8>)>> {
        let usable = |p: &Path, b: &[u8]| {
            p.file_name().is_none_or(|n| n != "pyproject.toml")
                || toml::from_str::<toml::Table>(&String::from_utf8_lossy(b))
                    .ok()
                    .is_some_and(|d| d.get("tool").and_then(|t| t.get("toolgate")).is_some())
        };
        if let Some(p) = explicit {
            return Ok(self
                .read(p)?
                .filter(|b| usable(p, b))
                .map(|b| (p.to_path_buf(), b)));
        }
        let cwd = std::fs::canonicalize(std::env::current_dir().context("no current folder")?)
            .context("no current folder")?;
        let top = std::fs::canonicalize(&self.top).unwrap_or(self.top.clone());
        let depth = cwd
            .strip_prefix(&top)
            .map(|r| r.components().count())
            .unwrap_or(0);
        let mut rel = PathBuf::new();
        for _ in 0..=depth {
            for name in [crate::config::DEFAULT_CONFIG, "pyproject.toml"] {
                let p = rel.join(name);
                if let Some(b) = self.read(&p)?
                    && usable(&p, &b)
                {
                    return Ok(Some((p, b)));
                }
            }
            rel.push("..");
        }
        Ok(None)
    }
}

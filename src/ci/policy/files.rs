//! The reviewed files of a pull request against the base revision's: the lock, the baseline
//! and the task file. A baseline comes from the base revision (a pull request cannot bring its
//! own base: a swapped, forged or deleted one is replaced by the base's, a new one is not
//! used); a lock deleted in the pull request is checked as the base had it; a re-pin and a
//! changed task file apply (the reviewer sees them in the diff) but are named, with counts, so
//! "no tool definition changed" can never stand beside a re-pinned lock. Base copies are
//! written under `<out>/base-revision/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::git::BaseTree;
use crate::catalog::canonical::short_hash as short;
use crate::catalog::lock::LockFile;
use crate::record::settings::{Applied, SettingChange};

/// The most files a base folder may hold to be copied from the base revision.
const MAX_BASE_FILES: usize = 256;

/// Where base copies go, and what was decided.
pub(crate) struct Files<'a> {
    pub tree: &'a BaseTree,
    pub dir: PathBuf,
    pub overridden: bool,
    pub changes: Vec<SettingChange>,
    /// The base revision's lock, copied out (the definitions the base's findings come from).
    pub base_lock: Option<PathBuf>,
}

impl Files<'_> {
    fn keep(&self, name: &str, bytes: &[u8]) -> anyhow::Result<PathBuf> {
        let p = self.dir.join(name);
        crate::fsio::write_atomic(&p, bytes)?;
        crate::fsio::pin_reviewed([p.as_path()])?;
        Ok(p)
    }

    fn change(&mut self, setting: &Path, base: String, head: String, applied: Applied) {
        self.changes.push(SettingChange {
            setting: setting.display().to_string(),
            base,
            head,
            applied,
        });
    }

    /// The lock: returns the path the lock check reads.
    pub(crate) fn lock(&mut self, path: &Path) -> anyhow::Result<PathBuf> {
        let Some(base) = self.tree.read(path)? else {
            if path.is_file() {
                self.change(
                    path,
                    "absent".into(),
                    "added in this PR".into(),
                    Applied::Head,
                );
            }
            return Ok(path.to_path_buf());
        };
        let base_copy = self.keep("toolgate.lock", &base)?;
        self.base_lock = Some(base_copy.clone());
        let base_lock = LockFile::read(&base_copy)
            .with_context(|| format!("{} on the base revision", path.display()))?;
        let shown = format!(
            "sha256 {}… ({} tools)",
            short(&base_lock.catalog_sha256),
            base_lock.tools.len()
        );
        if !path.exists() {
            let applied = if self.overridden {
                Applied::Override
            } else {
                Applied::Base
            };
            self.change(path, shown, "deleted in this PR".into(), applied);
            return Ok(if self.overridden {
                path.to_path_buf()
            } else {
                base_copy
            });
        }
        let head = crate::fsio::read_text(path)
            .with_context(|| format!("could not read {}", path.display()))?;
        if head.as_bytes() != base.as_slice() {
            let differ = match LockFile::read(path) {
                Ok(h) => format!(
                    "re-pinned in this PR: {} tool definition(s) differ from the base's lock",
                    differing(&base_lock, &h)
                ),
                Err(e) => format!("edited in this PR, and it does not read: {e:#}"),
            };
            self.change(path, shown, differ, Applied::Head);
        }
        Ok(path.to_path_buf())
    }

    /// The baseline: returns the base the comparison uses. Decided by git's view, not by the
    /// kind of file: one the pull request's tree carries (tracked) must be the base revision's
    /// (a swapped or forged one is replaced by it, a new one is not used); one git does not
    /// track was made by the workflow (a downloaded artefact of the default branch) and is used
    /// as it is; one deleted in the pull request is read as the base revision had it.
    pub(crate) fn baseline(&mut self, path: &Path) -> anyhow::Result<Option<PathBuf>> {
        let (applied, use_head) = if self.overridden {
            (Applied::Override, true)
        } else {
            (Applied::Base, false)
        };
        let exists = path.exists();
        if exists && (!self.tree.tracked(path) || (path.is_dir() && self.tree.has_untracked(path)))
        {
            return Ok(Some(path.to_path_buf()));
        }
        if path.is_dir() || (!exists && self.tree.read(path)?.is_none()) {
            return self.baseline_dir(path, applied, use_head);
        }
        let head = path
            .is_file()
            .then(|| crate::fsio::read_text(path).ok().map(String::into_bytes))
            .flatten();
        match self.tree.read(path)? {
            None => {
                if head.is_some() {
                    return Ok(self.added_base(path, applied, use_head));
                }
                Ok(Some(path.to_path_buf()))
            }
            Some(base) => {
                let copy = self.keep("toolgate-baseline.json", &base)?;
                if head.as_deref() != Some(base.as_slice()) {
                    let what = if head.is_some() {
                        "changed in this PR"
                    } else {
                        "deleted in this PR"
                    };
                    self.change(path, "the base revision's".into(), what.into(), applied);
                    if use_head {
                        return Ok(Some(path.to_path_buf()));
                    }
                }
                Ok(Some(copy))
            }
        }
    }

    /// A base the pull request's tree adds: named, and used only with the override.
    fn added_base(&mut self, path: &Path, applied: Applied, use_head: bool) -> Option<PathBuf> {
        self.change(
            path,
            "absent".into(),
            "added in this PR (a pull request cannot bring its own base)".into(),
            applied,
        );
        use_head.then(|| path.to_path_buf())
    }

    /// A baseline folder (a run directory) that the pull request's tree carries, or that it
    /// deleted: the base revision's copy is used.
    fn baseline_dir(
        &mut self,
        path: &Path,
        applied: Applied,
        use_head: bool,
    ) -> anyhow::Result<Option<PathBuf>> {
        let Some(files) = self.tree.files_under(path, MAX_BASE_FILES)? else {
            if path.exists() {
                return Ok(self.added_base(path, applied, use_head));
            }
            return Ok(Some(path.to_path_buf()));
        };
        let copy_root = self.dir.join("baseline");
        // Nothing left from an earlier run (or planted) joins the base's files.
        if copy_root.exists() {
            std::fs::remove_dir_all(&copy_root)
                .with_context(|| format!("could not clear {}", copy_root.display()))?;
        }
        // `./toolgate-base` and `toolgate-base` name the same folder as git lists it.
        let path: PathBuf = path
            .components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect();
        let path = path.as_path();
        let mut same = path.is_dir();
        for f in &files {
            let rel = Path::new(f);
            let Some(bytes) = self.tree.read(rel)? else {
                continue;
            };
            let inside = rel.strip_prefix(path).unwrap_or(rel);
            let dest = copy_root.join(inside);
            crate::fsio::write_atomic(&dest, &bytes)?;
            same &= std::fs::read(rel).is_ok_and(|h| h == bytes);
        }
        let head_count = std::fs::read_dir(path)
            .map(|d| d.filter_map(Result::ok).count())
            .unwrap_or(0);
        let base_top: std::collections::BTreeSet<&std::ffi::OsStr> = files
            .iter()
            .filter_map(|f| Path::new(f).strip_prefix(path).ok()?.iter().next())
            .collect();
        same &= head_count == base_top.len();
        if same {
            return Ok(Some(path.to_path_buf()));
        }
        let what = if path.exists() {
            "changed in this PR"
        } else {
            "deleted in this PR"
        };
        self.change(
            path,
            format!("the base revision's ({} files)", files.len()),
            what.into(),
            applied,
        );
        Ok(Some(if use_head && path.exists() {
            path.to_path_buf()
        } else {
            copy_root
        }))
    }

    /// A replay log (a recorded model): one the pull request changed would rewrite the
    /// model's answers, so it stops the gate (exit 2) unless overridden; one it added is named.
    /// A log git does not track was made by the workflow and is used as it is.
    pub(crate) fn replay(&mut self, path: &Path) -> anyhow::Result<()> {
        if !self.tree.tracked(path) {
            return Ok(());
        }
        let head = crate::fsio::read_text(path)
            .with_context(|| format!("could not read the replay log {}", path.display()))?;
        match self.tree.read(path)? {
            None => self.change(
                path,
                "absent".into(),
                "replay log added in this PR: the model's answers come from this pull request"
                    .into(),
                Applied::Head,
            ),
            Some(base) if base != head.as_bytes() => {
                if !self.overridden {
                    anyhow::bail!(
                        "the replay log {} was changed in this pull request: a pull request cannot rewrite the answers of the model it is judged by (a maintainer may accept it with the `{}` label)",
                        path.display(),
                        crate::record::settings::OVERRIDE_LABEL
                    );
                }
                self.change(
                    path,
                    "the base revision's".into(),
                    "changed in this PR".into(),
                    Applied::Override,
                );
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// The task file: named when it differs, with what was removed, added and edited.
    pub(crate) fn tasks(&mut self, path: &Path) -> anyhow::Result<()> {
        let Some(base) = self.tree.read(path)? else {
            return Ok(());
        };
        let head = if path.is_file() {
            crate::fsio::read_text(path)
                .with_context(|| format!("could not read {}", path.display()))?
        } else {
            String::new()
        };
        if head.as_bytes() == base.as_slice() {
            return Ok(());
        }
        let (b, h) = (ids(&String::from_utf8_lossy(&base)), ids(&head));
        let removed = b.keys().filter(|k| !h.contains_key(*k)).count();
        let added = h.keys().filter(|k| !b.contains_key(*k)).count();
        let edited = b
            .iter()
            .filter(|(k, v)| h.get(*k).is_some_and(|hv| hv != *v))
            .count();
        let mut what = format!(
            "{} task(s): {removed} removed, {added} added, {edited} edited",
            h.len()
        );
        if removed > 0 {
            let some: Vec<&str> = b
                .keys()
                .filter(|k| !h.contains_key(*k))
                .take(5)
                .map(String::as_str)
                .collect();
            what.push_str(&format!(" (removed: {})", some.join(", ")));
        }
        self.change(path, format!("{} task(s)", b.len()), what, Applied::Head);
        Ok(())
    }
}

/// Tools whose definition differs between two locks (changed, added or removed).
fn differing(a: &LockFile, b: &LockFile) -> usize {
    let map = |l: &LockFile| -> BTreeMap<String, String> {
        l.tools
            .iter()
            .map(|t| (t.name.clone(), t.sha256.clone()))
            .collect()
    };
    let (a, b) = (map(a), map(b));
    let changed = a.iter().filter(|(k, v)| b.get(*k) != Some(*v)).count();
    changed + b.keys().filter(|k| !a.contains_key(*k)).count()
}

/// Task id → its line (canonical JSON), for a JSONL task file; unreadable lines are skipped
/// (validate reports them).
fn ids(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| {
            let id = v.get("id")?.as_str()?.to_string();
            Some((id, v.to_string()))
        })
        .collect()
}

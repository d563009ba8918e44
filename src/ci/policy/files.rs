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
use crate::catalog::lock::LockFile;
use crate::record::settings::{Applied, SettingChange};

/// Where base copies go, and what was decided.
pub struct Files<'a> {
    pub tree: &'a BaseTree,
    pub dir: PathBuf,
    pub overridden: bool,
    pub changes: Vec<SettingChange>,
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(12)]
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
    pub fn lock(&mut self, path: &Path) -> anyhow::Result<PathBuf> {
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

    /// The baseline (a file; a folder is a downloaded artefact, not from the tree): returns the
    /// base the comparison uses.
    pub fn baseline(&mut self, path: &Path) -> anyhow::Result<Option<PathBuf>> {
        if path.is_dir() {
            return Ok(Some(path.to_path_buf()));
        }
        let head = path
            .is_file()
            .then(|| crate::fsio::read_text(path).ok().map(String::into_bytes))
            .flatten();
        let (applied, use_head) = if self.overridden {
            (Applied::Override, true)
        } else {
            (Applied::Base, false)
        };
        match self.tree.read(path)? {
            None => {
                if head.is_some() {
                    self.change(
                        path,
                        "absent".into(),
                        "added in this PR (a pull request cannot bring its own base)".into(),
                        applied,
                    );
                    return Ok(use_head.then(|| path.to_path_buf()));
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

    /// The task file: named when it differs, with what was removed, added and edited.
    pub fn tasks(&mut self, path: &Path) -> anyhow::Result<()> {
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

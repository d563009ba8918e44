//! What the setup detectors share: the pinned setup actions, and reading the repository's
//! manifests (bounded).

use std::path::Path;

pub(super) const SETUP_NODE: &str =
    "actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020 # v4.4.0";
pub(super) const SETUP_PNPM: &str =
    "pnpm/action-setup@a7487c7e89a18df4991f7f222e4898a00d66ddda # v4.1.0";
pub(super) const SETUP_UV: &str =
    "astral-sh/setup-uv@38f3f104447c67c051c4a08e39b64a148898af3a # v4.2.0";
pub(super) const SETUP_PYTHON: &str =
    "actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065 # v5.6.0";

/// Files read here are the repository's own, but bounded all the same.
const MAX_MANIFEST: u64 = 1 << 20;

pub(super) fn read(dir: &Path, name: &str) -> Option<String> {
    let p = dir.join(name);
    let meta = std::fs::metadata(&p).ok()?;
    if !meta.is_file() || meta.len() > MAX_MANIFEST {
        return None;
    }
    std::fs::read_to_string(p).ok()
}

pub(super) fn has(dir: &Path, name: &str) -> bool {
    dir.join(name).is_file()
}

/// A word safe to put in a workflow's shell line as it is.
pub(super) fn safe_word(w: &str) -> bool {
    !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/:@-".contains(c))
}

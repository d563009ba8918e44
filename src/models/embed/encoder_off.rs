//! The sentence encoder of a toolgate built without the `embed` feature: the same interface,
//! and every load is an error that says how to get the real one.

use std::path::{Path, PathBuf};

use anyhow::bail;

pub use super::common::dot;
pub(crate) use super::common::{MAX_TEXT_CHARS, clip, init_process_env, resolve_dir};

pub(crate) struct Encoder {
    pub(crate) dir: PathBuf,
    pub(crate) files_hash: String,
    pub(crate) dim: usize,
}

impl Encoder {
    pub(crate) fn load(dir: &Path) -> anyhow::Result<Encoder> {
        resolve_dir(dir)?;
        bail!(
            "{}: this toolgate was built without the `embed` feature, so it has no embedding model runtime (build it with the default features)",
            dir.display()
        )
    }

    pub(crate) fn embed(&self, _texts: &[&str]) -> anyhow::Result<Vec<Vec<f32>>> {
        bail!("this toolgate was built without the `embed` feature")
    }
}

//! The sentence encoder of a toolgate built without the `embed` feature: the same interface,
//! and every load is an error that says how to get the real one.

use std::path::{Path, PathBuf};

use anyhow::bail;

pub use super::common::{MAX_TEXT_CHARS, clip, dot, init_process_env, resolve_dir};

pub struct Encoder {
    pub dir: PathBuf,
    pub files_hash: String,
    pub dim: usize,
}

impl Encoder {
    pub fn load(dir: &Path) -> anyhow::Result<Encoder> {
        resolve_dir(dir)?;
        bail!(
            "{}: this toolgate was built without the `embed` feature, so it has no embedding model runtime (build it with the default features)",
            dir.display()
        )
    }

    pub fn embed(&self, _texts: &[&str]) -> anyhow::Result<Vec<Vec<f32>>> {
        bail!("this toolgate was built without the `embed` feature")
    }
}

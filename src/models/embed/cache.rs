//! The on-disk cache of tool embeddings, one file per (model files hash, catalog hash):
//! `$TOOLGATE_CACHE_DIR/embed/`, else `$XDG_CACHE_HOME/toolgate/embed/`, else
//! `~/.cache/toolgate/embed/`. A file holds, per tool, the sha256 of the text embedded and its
//! vector; it is read only when its length, dimension and every text hash match what would be
//! embedded now, and is otherwise ignored and rewritten. Written atomically.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

const MAGIC: &[u8; 8] = b"TGEMBED1";

/// The cache folder, or `None` when no home is known.
pub(crate) fn dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("TOOLGATE_CACHE_DIR") {
        return Some(d.join("embed"));
    }
    if let Some(d) = var("XDG_CACHE_HOME") {
        return Some(d.join("toolgate").join("embed"));
    }
    var("HOME").map(|h| h.join(".cache").join("toolgate").join("embed"))
}

/// The file for one model and catalog (`text_version` changes when the text embedded does).
pub(crate) fn file(dir: &Path, files_hash: &str, catalog_hash: &str, text_version: u32) -> PathBuf {
    let key = hex::encode(Sha256::digest(format!(
        "{files_hash}\n{catalog_hash}\n{text_version}"
    )));
    dir.join(format!("{}.bin", &key[..32]))
}

pub(crate) fn text_hash(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// The vectors for `texts` (in order) from `path`, or `None` when the file is missing, of
/// another shape, or lacks one of the texts.
pub(crate) fn read(path: &Path, texts: &[String], dim: usize) -> Option<Vec<Vec<f32>>> {
    let bytes = std::fs::read(path).ok()?;
    let head = MAGIC.len() + 8;
    if bytes.len() < head || &bytes[..MAGIC.len()] != MAGIC {
        return None;
    }
    let word = |at: usize| -> Option<usize> {
        let b: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
        Some(u32::from_le_bytes(b) as usize)
    };
    let (file_dim, n) = (word(MAGIC.len())?, word(MAGIC.len() + 4)?);
    let entry = 32 + dim * 4;
    if file_dim != dim || n != texts.len() || bytes.len() != head + n.checked_mul(entry)? {
        return None;
    }
    let mut by_hash: HashMap<&[u8], &[u8]> = HashMap::with_capacity(n);
    for e in bytes[head..].chunks_exact(entry) {
        by_hash.insert(&e[..32], &e[32..]);
    }
    texts
        .iter()
        .map(|t| {
            let raw = by_hash.get(&text_hash(t)[..])?;
            let v: Vec<f32> = raw
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            // A unit vector, or the file is not what we wrote.
            let norm: f32 = v.iter().map(|x| x * x).sum();
            ((norm - 1.0).abs() < 1e-2).then_some(v)
        })
        .collect()
}

/// Writes the vectors for `texts` to `path` atomically.
pub(crate) fn write(
    path: &Path,
    texts: &[String],
    vecs: &[Vec<f32>],
    dim: usize,
) -> anyhow::Result<()> {
    let mut out = Vec::with_capacity(16 + texts.len() * (32 + dim * 4));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(dim as u32).to_le_bytes());
    out.extend_from_slice(&(texts.len() as u32).to_le_bytes());
    for (t, v) in texts.iter().zip(vecs) {
        out.extend_from_slice(&text_hash(t));
        for x in v {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    crate::fsio::write_atomic(path, &out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_other_shapes() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x.bin");
        let texts = vec!["a".to_string(), "b".to_string()];
        let vecs = vec![vec![1.0, 0.0], vec![0.6, 0.8]];
        assert_eq!(read(&p, &texts, 2), None);
        write(&p, &texts, &vecs, 2).unwrap();
        assert_eq!(read(&p, &texts, 2), Some(vecs.clone()));
        // Other texts, another dimension, a truncated or corrupted file: not trusted.
        assert_eq!(read(&p, &["a".into(), "c".into()], 2), None);
        assert_eq!(read(&p, &texts, 3), None);
        let bytes = std::fs::read(&p).unwrap();
        std::fs::write(&p, &bytes[..bytes.len() - 1]).unwrap();
        assert_eq!(read(&p, &texts, 2), None);
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 0x40;
        std::fs::write(&p, &bad).unwrap();
        assert_eq!(read(&p, &texts, 2), None);
    }
}

//! What the embedding routers use whether or not toolgate was built with the `embed` feature:
//! text clipping, the cosine of unit vectors, the model folder's resolution, and the process
//! setting candle needs.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

/// Texts are cut to this many characters before tokenizing (the model reads at most
/// `max_seq_length` tokens anyway): a hostile description cannot make tokenizing costly.
pub(crate) const MAX_TEXT_CHARS: usize = 4000;
/// Makes candle's kernels run on the calling thread (`CANDLE_NUM_THREADS=1` unless the user
/// set it): the encoder's `embed` runs one worker per core itself, and candle's spinning barrier
/// pool next to those workers made a 2-core run 1.4× slower (6.1 s → 4.3 s wall for 1,000
/// requests, release build).
///
/// # Safety
/// Changes the environment: call it before any other thread starts (first thing in `main`).
pub(crate) unsafe fn init_process_env() {
    if std::env::var_os("CANDLE_NUM_THREADS").is_none() {
        // SAFETY: the caller guarantees no other thread exists.
        unsafe { std::env::set_var("CANDLE_NUM_THREADS", "1") };
    }
}

/// `<dir>` itself, or for a Hugging Face cache repo folder (`models--org--name`, holding
/// `refs/main` and `snapshots/<rev>/`) the snapshot `refs/main` names.
pub(crate) fn resolve_dir(dir: &Path) -> anyhow::Result<PathBuf> {
    if !dir.is_dir() {
        bail!(
            "{}: no such folder (fetch the model once, e.g. `huggingface-cli download sentence-transformers/all-MiniLM-L6-v2`)",
            dir.display()
        );
    }
    if dir.join("config.json").is_file() {
        return Ok(dir.to_path_buf());
    }
    let refs = dir.join("refs").join("main");
    if refs.is_file() {
        let rev = std::fs::read_to_string(&refs)
            .with_context(|| format!("could not read {}", refs.display()))?;
        let rev = rev.trim();
        if rev.is_empty()
            || rev.len() > 100
            || !rev
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            bail!("{}: not a revision name", refs.display());
        }
        let snap = dir.join("snapshots").join(rev);
        if !snap.is_dir() {
            bail!(
                "{} names revision {rev}, but {} is missing",
                refs.display(),
                snap.display()
            );
        }
        return Ok(snap);
    }
    Ok(dir.to_path_buf())
}

/// The first `max` characters of `s`.
pub(crate) fn clip(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Cosine of two unit vectors.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight running sums the compiler can keep in one vector register.
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f32>() + tail
}

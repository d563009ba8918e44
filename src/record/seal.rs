//! Seals on what toolgate hands from one job to another: a finished run directory carries a
//! `SHA256SUMS` file (the `sha256sum` format, so `sha256sum -c SHA256SUMS` checks it too) over
//! its record files, and a baseline file carries `content_sha256` over its own canonical JSON.
//! A shard or base whose files were edited after toolgate wrote them is refused, naming the
//! file. A seal is a checksum, not a signature: it catches a rewritten or truncated file, not
//! an attacker who recomputes it (the base branch's policy is what stops that).

use std::path::Path;

use anyhow::{Context, bail};

use super::files::{OUTCOMES_FILE, PREDICTIONS_FILE, RUN_FILE};

/// The seal of a run directory.
pub(crate) const SEAL_FILE: &str = "SHA256SUMS";

/// The files a seal covers, when present: the record, and the catalog a shard keeps.
pub(crate) const SEALED: &[&str] = &[RUN_FILE, PREDICTIONS_FILE, OUTCOMES_FILE, "catalog.json"];

/// The file's sha256, read in blocks (a run's predictions are tens of megabytes).
fn file_hash(path: &Path) -> anyhow::Result<String> {
    use sha2::{Digest, Sha256};
    let mut f =
        std::fs::File::open(path).with_context(|| format!("could not read {}", path.display()))?;
    let mut h = Sha256::new();
    std::io::copy(&mut f, &mut h).with_context(|| format!("could not read {}", path.display()))?;
    Ok(hex::encode(h.finalize()))
}

/// Writes `dir`'s seal over the sealed files it holds.
pub(crate) fn write(dir: &Path) -> anyhow::Result<()> {
    let mut text = String::new();
    for name in SEALED {
        let path = dir.join(name);
        if path.is_file() {
            text.push_str(&format!("{}  {name}\n", file_hash(&path)?));
        }
    }
    crate::fsio::write_atomic(&dir.join(SEAL_FILE), text.as_bytes())
}

/// Checks `dir`'s seal: present, well formed, covering every sealed file the directory
/// holds, and matching each.
pub(crate) fn verify(dir: &Path) -> anyhow::Result<()> {
    let seal = dir.join(SEAL_FILE);
    let text = match std::fs::read_to_string(&seal) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "{} has no {SEAL_FILE}: toolgate seals every run it finishes, so this one was not \
             finished by toolgate (or its seal was removed); run it again",
            dir.display()
        ),
        Err(e) => return Err(e).with_context(|| format!("could not read {}", seal.display())),
    };
    let mut listed = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some((hash, name)) = line.split_once("  ") else {
            bail!("{} line {}: not `<sha256>  <file>`", seal.display(), i + 1);
        };
        if !SEALED.contains(&name) {
            bail!(
                "{} line {}: `{name}` is not a file toolgate seals",
                seal.display(),
                i + 1
            );
        }
        let path = dir.join(name);
        if !path.is_file() {
            bail!(
                "{} was removed after toolgate sealed {}",
                path.display(),
                dir.display()
            );
        }
        let found = file_hash(&path)?;
        if found != hash {
            bail!(
                "{} was changed after toolgate wrote it (its sha256 is {}…, the seal in {SEAL_FILE} \
                 says {}…): refusing it",
                path.display(),
                &found[..12],
                hash.get(..12).unwrap_or(hash)
            );
        }
        listed.push(name);
    }
    for name in SEALED {
        if dir.join(name).is_file() && !listed.contains(name) {
            bail!(
                "{} was added after toolgate sealed {}: refusing it",
                dir.join(name).display(),
                dir.display()
            );
        }
    }
    Ok(())
}

/// The field of a baseline file that seals it.
pub(crate) const CONTENT_HASH: &str = "content_sha256";

/// The seal of a JSON object: the sha256 of its canonical form without [`CONTENT_HASH`].
pub(crate) fn content_hash(value: &serde_json::Value) -> String {
    crate::json::canonical_sha256(value, Some(CONTENT_HASH))
}

/// Checks a baseline file's seal (`path` names it in the error).
pub(crate) fn verify_content(value: &serde_json::Value, path: &Path) -> anyhow::Result<()> {
    let Some(stated) = value.get(CONTENT_HASH).and_then(|v| v.as_str()) else {
        bail!(
            "the base {} has no {CONTENT_HASH}: toolgate seals every baseline it writes, so this \
             one was edited or written by hand; write it again with `toolgate ci --write-baseline`",
            path.display()
        );
    };
    let found = content_hash(value);
    if found != stated {
        bail!(
            "the base {} was changed after toolgate wrote it (its content hashes to {}…, its \
             {CONTENT_HASH} says {}…): refusing it",
            path.display(),
            &found[..12],
            stated.get(..12).unwrap_or(stated)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_directory_verifies_and_any_edit_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(RUN_FILE), "{}").unwrap();
        std::fs::write(dir.path().join(PREDICTIONS_FILE), "{\"a\":1}\n").unwrap();
        write(dir.path()).unwrap();
        verify(dir.path()).unwrap();
        std::fs::write(dir.path().join(PREDICTIONS_FILE), "{\"a\":2}\n").unwrap();
        let e = verify(dir.path()).unwrap_err().to_string();
        assert!(e.contains("predictions.jsonl was changed"), "{e}");
        write(dir.path()).unwrap();
        std::fs::write(dir.path().join(OUTCOMES_FILE), "").unwrap();
        let e = verify(dir.path()).unwrap_err().to_string();
        assert!(e.contains("outcomes.jsonl was added"), "{e}");
        std::fs::remove_file(dir.path().join(SEAL_FILE)).unwrap();
        let e = verify(dir.path()).unwrap_err().to_string();
        assert!(e.contains("has no SHA256SUMS"), "{e}");
    }

    #[test]
    fn a_content_hash_ignores_key_order_and_catches_edits() {
        let mut v = serde_json::json!({"b": 1, "a": [1, 2]});
        let h = content_hash(&v);
        v[CONTENT_HASH] = h.clone().into();
        verify_content(&v, Path::new("b.json")).unwrap();
        let reordered = serde_json::json!({"a": [1, 2], CONTENT_HASH: h, "b": 1});
        verify_content(&reordered, Path::new("b.json")).unwrap();
        v["b"] = 2.into();
        let e = verify_content(&v, Path::new("b.json"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("b.json was changed"), "{e}");
    }
}

//! Canonical JSON (object keys sorted by their UTF-8 bytes at every depth, no insignificant
//! whitespace, strings and numbers as serde_json writes them) and its sha256: what locks,
//! seals, suites and shards hash. The catalog's canonical form of a tool definition
//! (`crate::catalog::canonical`) builds on it.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

mod streamed;
pub(crate) use streamed::write_sorted_of;

/// Returns `v` with every object's keys sorted.
pub(crate) fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                out.insert(k.clone(), sorted(&m[k]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// The first 12 characters of a hash, for display (the whole string if shorter or not ASCII
/// at that point: hashes read from files are never trusted to be well formed).
pub(crate) fn short_hash(s: &str) -> &str {
    s.get(..12).unwrap_or(s)
}

/// Compact canonical JSON text of `v`.
pub(crate) fn to_canonical_string(v: &Value) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write_json_sorted(v, &mut out, None);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes the canonical JSON text of `v` (the same bytes as `to_string(&sorted(v))`) without
/// building a sorted copy: keys are sorted on the way out and leaves are written by serde_json.
/// `skip`: a key of the top-level object left out (a seal's own field). A baseline of many
/// thousand tasks is hashed at the cost of one walk, not two more copies of the tree.
pub(crate) fn write_json_sorted(
    v: &Value,
    w: &mut impl std::io::Write,
    skip: Option<&str>,
) -> std::io::Result<()> {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().filter(|k| Some(k.as_str()) != skip).collect();
            keys.sort();
            w.write_all(b"{")?;
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    w.write_all(b",")?;
                }
                serde_json::to_writer(&mut *w, k)?;
                w.write_all(b":")?;
                write_json_sorted(&m[k], w, None)?;
            }
            w.write_all(b"}")
        }
        Value::Array(a) => {
            w.write_all(b"[")?;
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    w.write_all(b",")?;
                }
                write_json_sorted(x, w, None)?;
            }
            w.write_all(b"]")
        }
        leaf => serde_json::to_writer(&mut *w, leaf).map_err(std::io::Error::other),
    }
}

/// A writer that feeds sha256, buffered: canonical text is hashed as it is written and never
/// held whole.
pub(crate) struct HashWriter(std::io::BufWriter<Hashing>);

struct Hashing(Sha256);

impl std::io::Write for Hashing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl HashWriter {
    pub(crate) fn new() -> Self {
        HashWriter(std::io::BufWriter::with_capacity(
            1 << 16,
            Hashing(Sha256::new()),
        ))
    }

    /// The sha256 (hex) of everything written.
    pub(crate) fn hex(self) -> anyhow::Result<String> {
        let inner = self.0.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(hex::encode(inner.0.finalize()))
    }
}

impl Default for HashWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl std::io::Write for HashWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// sha256 (hex) of the canonical text of `v`, streamed into the hasher; `skip` as in
/// [`write_json_sorted`].
pub(crate) fn canonical_sha256(v: &Value, skip: Option<&str>) -> String {
    let mut h = HashWriter::new();
    let _ = write_json_sorted(v, &mut h, skip);
    h.hex().unwrap_or_default()
}

pub(crate) fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

//! A baseline's seal and its file, streamed: the canonical sha256 of the file without its seal
//! computed field by field, and the sealed file written without the whole baseline ever being
//! one JSON value or one string.

use std::path::Path;

use serde::Serialize;

use super::baseline::Baseline;

impl Baseline {
    /// The seal of [`Self::to_text`] (the canonical sha256 of the file without its seal),
    /// computed field by field: each top-level field (the lists element by element) is
    /// written in canonical form straight from its compact text
    /// ([`crate::catalog::canonical::write_sorted_of`]) into the hash, in the canonical key
    /// order, so no part of a large baseline is ever a JSON value tree.
    pub(crate) fn content_hash(&self) -> anyhow::Result<String> {
        use std::io::Write;
        fn list<T: Serialize>(w: &mut impl std::io::Write, items: &[T]) -> anyhow::Result<()> {
            w.write_all(b"[")?;
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    w.write_all(b",")?;
                }
                crate::catalog::canonical::write_sorted_of(x, w)?;
            }
            w.write_all(b"]")?;
            Ok(())
        }
        fn one<T: Serialize>(w: &mut impl std::io::Write, x: &T) -> anyhow::Result<()> {
            crate::catalog::canonical::write_sorted_of(x, w)
        }
        let mut w = crate::catalog::canonical::HashWriter::new();
        // Sorted as the canonical form sorts keys; absent ones as serde skips them.
        w.write_all(b"{")?;
        let mut first = true;
        let mut key =
            |w: &mut crate::catalog::canonical::HashWriter, k: &str| -> anyhow::Result<()> {
                if !first {
                    w.write_all(b",")?;
                }
                first = false;
                serde_json::to_writer(&mut *w, k)?;
                w.write_all(b":")?;
                Ok(())
            };
        if let Some(l) = &self.lint {
            key(&mut w, "lint")?;
            one(&mut w, l)?;
        }
        if let Some(l) = &self.lock {
            key(&mut w, "lock")?;
            one(&mut w, l)?;
        }
        key(&mut w, "outcomes")?;
        list(&mut w, &self.outcomes)?;
        if let Some(p) = &self.policy {
            key(&mut w, "policy")?;
            one(&mut w, p)?;
        }
        if !self.predictions.is_empty() {
            key(&mut w, "predictions")?;
            list(&mut w, &self.predictions)?;
        }
        key(&mut w, "run")?;
        one(
            &mut w,
            &crate::record::v1::RunFileV1::from(self.run.clone()),
        )?;
        key(&mut w, "schema_version")?;
        one(&mut w, &self.schema_version)?;
        if let Some(t) = &self.tasks {
            key(&mut w, "tasks")?;
            one(&mut w, t)?;
        }
        key(&mut w, "toolgate_version")?;
        one(&mut w, &self.toolgate_version)?;
        w.write_all(b"}")?;
        w.hex()
    }

    /// Writes the sealed baseline to `path` atomically, streamed (the same file as
    /// [`Self::to_text`], its seal last).
    pub(crate) fn write(&self, path: &Path) -> anyhow::Result<()> {
        #[derive(Serialize)]
        struct Sealed<'a> {
            #[serde(flatten)]
            baseline: &'a Baseline,
            content_sha256: String,
        }
        let sealed = Sealed {
            baseline: self,
            content_sha256: self.content_hash()?,
        };
        crate::fsio::write_atomic_with(path, &mut |w| {
            serde_json::to_writer_pretty(&mut *w, &sealed)?;
            w.write_all(b"\n")
        })
    }
}

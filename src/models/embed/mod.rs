//! The embedding router: a sentence-embedding model (BERT family, e.g. all-MiniLM-L6-v2) reads
//! each tool's text and the request; tools are ranked by cosine similarity; the best is called
//! when its cosine reaches `min_cosine`, otherwise the router abstains.
//!
//! Spec: `embed:<dir>` (min cosine [`DEFAULT_MIN_COSINE`]) or `embed@<min>:<dir>`; everything
//! after the first `:` is the folder, so paths with `:` work; `embed` alone reads the folder
//! from `TOOLGATE_EMBED_MODEL`. `<dir>` holds `config.json`,
//! `tokenizer.json` and `model.safetensors`, or is a Hugging Face cache repo folder
//! (`models--sentence-transformers--all-MiniLM-L6-v2`, read at the revision `refs/main` names).
//! The text embedded for a tool is what a model reads of it: its name (split into words),
//! title, description, and each parameter's name and description, cut at
//! [`encoder::MAX_TEXT_CHARS`] characters (and the model's token limit).
//! Tool embeddings are cached on disk (see [`cache`]); requests are embedded in batches when the
//! runner announces them ([`Model::prepare`]). Deterministic: one trial per task.

pub(crate) mod cache;
mod common;
#[cfg(feature = "embed")]
pub(crate) mod encoder;
#[cfg(not(feature = "embed"))]
#[path = "encoder_off.rs"]
pub(crate) mod encoder;
pub(crate) mod hybrid;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context as _, bail};

use super::{BoxFuture, Decision, Model};
use crate::catalog::{Catalog, Tool};
use crate::text;
use encoder::{Encoder, MAX_TEXT_CHARS, clip};

/// The cosine the best tool must reach to be called. Chosen on the bundled example: the
/// smallest round value at which most of its no-tool requests are left alone (see docs/evaluate.md).
pub(crate) const DEFAULT_MIN_COSINE: f32 = 0.3;
/// The model folder `embed` and `hybrid` use when the spec names none (the container image sets
/// it to the model it ships).
pub(crate) const MODEL_ENV: &str = "TOOLGATE_EMBED_MODEL";
/// Bumped when [`tool_text`] changes, so cached embeddings of the old text are not reused.
const TEXT_VERSION: u32 = 2;

/// `embed[@min]:<dir>` → (min cosine, dir). `kind` is the part before the first `:`.
pub(crate) fn parse_spec(
    kind: &str,
    rest: &str,
    default_min: f32,
) -> anyhow::Result<(f32, String)> {
    let (name, min) = kind.split_once('@').unwrap_or((kind, ""));
    let min = if min.is_empty() {
        default_min
    } else {
        min.parse::<f32>()
            .ok()
            .filter(|v| v.is_finite() && (-1.0..=1.0).contains(v))
            .with_context(|| {
                format!("{kind}:{rest}: the minimum cosine after `@` must be a number from -1 to 1")
            })?
    };
    if rest.trim().is_empty() {
        if let Some(dir) = std::env::var(MODEL_ENV)
            .ok()
            .filter(|d| !d.trim().is_empty())
        {
            return Ok((min, dir));
        }
        bail!(
            "`{kind}`: name the model folder after the colon, e.g. `{name}:/models/all-MiniLM-L6-v2`, or set {MODEL_ENV} (see \"Embedding router\" in docs/evaluate.md)"
        );
    }
    Ok((min, rest.to_string()))
}

/// What a model reads of a tool, as one text.
pub(crate) fn tool_text(tool: &Tool) -> String {
    let mut s = text::name_words(tool.name()).join(" ");
    for part in [tool.title(), tool.description()].into_iter().flatten() {
        if !part.trim().is_empty() {
            s.push_str(". ");
            s.push_str(clip(part.trim().trim_end_matches('.'), MAX_TEXT_CHARS));
        }
    }
    let params = tool.params();
    if !params.is_empty() {
        s.push_str(". Parameters:");
        for (name, schema) in params {
            if s.len() > MAX_TEXT_CHARS * 4 {
                break;
            }
            s.push(' ');
            s.push_str(&text::name_words(name).join(" "));
            if let Some(d) = schema.get("description").and_then(|d| d.as_str()) {
                s.push_str(" (");
                s.push_str(clip(d.trim(), 400));
                s.push(')');
            }
            s.push(';');
        }
    }
    clip(&s, MAX_TEXT_CHARS).to_string()
}

/// Each tool's unit-length embedding (catalog order) with the model in `dir`, from the disk
/// cache when present: lint's second look-alike signal (`[lint] embed_model`).
pub fn tool_embeddings(dir: &str, catalog: &Catalog) -> anyhow::Result<Vec<Vec<f32>>> {
    let enc = shared_encoder(Path::new(dir))?;
    let texts: Vec<String> = catalog.tools.iter().map(tool_text).collect();
    tool_vectors(&enc, catalog, &texts)
}

/// Encoders loaded in this process, by resolved folder (improve and the distractor curve build
/// a model per catalog; the weights are read once).
fn shared_encoder(dir: &Path) -> anyhow::Result<Arc<Encoder>> {
    static LOADED: Mutex<Vec<(PathBuf, Arc<Encoder>)>> = Mutex::new(Vec::new());
    let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, e)) = loaded.iter().find(|(k, _)| *k == key) {
        return Ok(e.clone());
    }
    let e = Arc::new(Encoder::load(dir)?);
    loaded.push((key, e.clone()));
    Ok(e)
}

pub(crate) struct Embed {
    dir: String,
    min: f32,
    enc: Arc<Encoder>,
    names: Vec<String>,
    /// Tool vectors, row after row (`names.len()` × `enc.dim`).
    tools: Vec<f32>,
    /// Request vectors made by [`Model::prepare`] (or one at a time), by request text.
    requests: Mutex<HashMap<String, Arc<Vec<f32>>>>,
}

impl Embed {
    pub(crate) fn from_spec(kind: &str, rest: &str, catalog: &Catalog) -> anyhow::Result<Self> {
        let (min, dir) = parse_spec(kind, rest, DEFAULT_MIN_COSINE)?;
        Self::new(&dir, min, catalog)
    }

    pub(crate) fn new(dir: &str, min: f32, catalog: &Catalog) -> anyhow::Result<Self> {
        let enc = shared_encoder(Path::new(dir))?;
        let texts: Vec<String> = catalog.tools.iter().map(tool_text).collect();
        let vecs = tool_vectors(&enc, catalog, &texts)?;
        Ok(Embed {
            dir: dir.to_string(),
            min,
            names: catalog.tools.iter().map(|t| t.name().to_string()).collect(),
            tools: vecs.concat(),
            enc,
            requests: Mutex::new(HashMap::new()),
        })
    }

    /// The vector of `request`: prepared, or embedded now.
    fn request_vec(&self, request: &str) -> anyhow::Result<Arc<Vec<f32>>> {
        let map = |m: &Mutex<HashMap<String, Arc<Vec<f32>>>>| {
            m.lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(request)
                .cloned()
        };
        if let Some(v) = map(&self.requests) {
            return Ok(v);
        }
        let v = self
            .enc
            .embed(&[request])?
            .pop()
            .context("the model returned no vector")?;
        Ok(Arc::new(v))
    }

    /// Every tool's cosine with `request`'s vector, `k` best first (ties by name).
    pub(crate) fn top(&self, q: &[f32], k: usize) -> Vec<(&str, f32)> {
        let dim = self.enc.dim.max(1);
        let mut hits: Vec<(&str, f32)> = self
            .names
            .iter()
            .zip(self.tools.chunks_exact(dim))
            .map(|(n, v)| (n.as_str(), encoder::dot(q, v)))
            .collect();
        let order = |a: &(&str, f32), b: &(&str, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(b.0));
        if k > 0 && hits.len() > k {
            hits.select_nth_unstable_by(k - 1, order);
            hits.truncate(k);
        }
        hits.sort_by(order);
        hits
    }

    /// The `k` best tools for `request` with their cosines.
    pub(crate) fn rank(&self, request: &str, k: usize) -> anyhow::Result<Vec<(String, f32)>> {
        let q = self.request_vec(request)?;
        Ok(self
            .top(&q, k)
            .into_iter()
            .map(|(n, s)| (n.to_string(), s))
            .collect())
    }

    pub(crate) fn min(&self) -> f32 {
        self.min
    }

    pub(crate) fn dir(&self) -> &str {
        &self.dir
    }

    pub(crate) fn choose(&self, request: &str) -> Decision {
        let ranked = match self.rank(request, crate::score::retrieval::DEPTH) {
            Ok(r) => r,
            Err(e) => {
                return Decision {
                    error: Some(format!("embedding the request failed: {e:#}")),
                    error_kind: Some(crate::models::ErrorKind::Embedding),
                    ..Default::default()
                };
            }
        };
        let ranking = Some(ranked.iter().map(|(n, _)| n.clone()).collect());
        match ranked.first() {
            Some((name, cos)) if *cos >= self.min => Decision {
                tool: Some(name.clone()),
                score: Some(f64::from(*cos)),
                ranking,
                ..Default::default()
            },
            best => Decision {
                tool: None,
                score: best.map(|b| f64::from(b.1)),
                text: Some(format!(
                    "no tool's cosine reached {} (best: {})",
                    self.min,
                    best.map(|(n, s)| format!("{n} {s:.3}"))
                        .unwrap_or_else(|| "none".into())
                )),
                ranking,
                ..Default::default()
            },
        }
    }
}

/// The tools' vectors: from the cache when it holds exactly these texts, else embedded and
/// cached (a cache that cannot be written only costs time).
fn tool_vectors(
    enc: &Encoder,
    catalog: &Catalog,
    texts: &[String],
) -> anyhow::Result<Vec<Vec<f32>>> {
    let file = cache::dir().map(|d| {
        cache::file(
            &d,
            &enc.files_hash,
            &crate::catalog::canonical::catalog_hash(catalog),
            TEXT_VERSION,
        )
    });
    if let Some(f) = &file
        && let Some(v) = cache::read(f, texts, enc.dim)
    {
        crate::elog!(
            "embed: {} tool embedding(s) read from the cache {}",
            texts.len(),
            f.display()
        );
        return Ok(v);
    }
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let vecs = enc
        .embed(&refs)
        .with_context(|| format!("embedding the tools with {}", enc.dir.display()))?;
    if let Some(f) = &file {
        match cache::write(f, texts, &vecs, enc.dim) {
            Ok(()) => crate::elog!(
                "embed: {} tool embedding(s) computed and cached in {}",
                texts.len(),
                f.display()
            ),
            Err(e) => crate::elog!("embed: tool embeddings not cached: {e:#}"),
        }
    }
    Ok(vecs)
}

impl Model for Embed {
    fn spec(&self) -> String {
        format!("embed@{}:{}", self.min, self.dir)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn prepare(&self, requests: &[&str]) {
        prepare_requests(&self.enc, &self.requests, requests);
    }

    fn decide<'a>(&'a self, task: &'a crate::tasks::Task, _trial: u32) -> BoxFuture<'a, Decision> {
        Box::pin(async move { self.choose(&task.request) })
    }
}

/// Embeds the requests not yet in `known`, in batches; a failure leaves them to be embedded
/// one at a time (where the error is recorded per decision).
pub(crate) fn prepare_requests(
    enc: &Encoder,
    known: &Mutex<HashMap<String, Arc<Vec<f32>>>>,
    requests: &[&str],
) {
    let mut todo: Vec<&str> = {
        let k = known.lock().unwrap_or_else(|e| e.into_inner());
        requests
            .iter()
            .copied()
            .filter(|r| !k.contains_key(*r))
            .collect()
    };
    todo.sort_unstable();
    todo.dedup();
    if todo.is_empty() {
        return;
    }
    if let Ok(vecs) = enc.embed(&todo) {
        let mut k = known.lock().unwrap_or_else(|e| e.into_inner());
        for (r, v) in todo.into_iter().zip(vecs) {
            k.insert(r.to_string(), Arc::new(v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn specs_keep_colons_in_paths_and_check_the_minimum() {
        assert_eq!(
            parse_spec("embed", "C:/models/mini:lm", 0.3).unwrap(),
            (0.3, "C:/models/mini:lm".to_string())
        );
        assert_eq!(
            parse_spec("embed@0.45", "/m", 0.3).unwrap(),
            (0.45, "/m".to_string())
        );
        for bad in ["embed@x", "embed@2", "embed@NaN"] {
            assert!(parse_spec(bad, "/m", 0.3).is_err(), "{bad}");
        }
        let c = Catalog::default();
        let err = crate::models::build(
            &"embed:/no/such/dir".parse().unwrap(),
            &c,
            &Default::default(),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            err.contains("/no/such/dir") && err.contains("no such folder"),
            "{err}"
        );
    }

    #[test]
    fn tool_text_is_what_a_model_reads_and_bounded() {
        let t = Tool::from_value(
            json!({"name": "getUserByID", "title": "User", "description": "Fetch one user.",
                   "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "The id"}}}}),
            "t",
        )
        .unwrap();
        assert_eq!(
            tool_text(&t),
            "get user by id. User. Fetch one user. Parameters: user id (The id);"
        );
        let long = Tool::from_value(
            json!({"name": "x", "description": "word ".repeat(10_000)}),
            "t",
        )
        .unwrap();
        assert!(tool_text(&long).chars().count() <= MAX_TEXT_CHARS);
    }
}

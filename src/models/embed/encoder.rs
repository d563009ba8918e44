//! A BERT-family sentence encoder in pure Rust (candle + the `tokenizers` crate): a folder
//! with `config.json`, `tokenizer.json` and `model.safetensors` (a sentence-transformers
//! model such as all-MiniLM-L6-v2, or a Hugging Face cache repo folder) in, unit vectors out.
//!
//! Texts are encoded in batches of similar length (sorted by token count, so little padding),
//! mean-pooled over the attention mask and L2-normalised, as sentence-transformers does.
//! Every failure is an error naming the file; a panic inside candle becomes an error too.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub use super::common::dot;
pub(crate) use super::common::{MAX_TEXT_CHARS, clip, init_process_env, resolve_dir};
use anyhow::{Context as _, bail};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use sha2::{Digest, Sha256};
use tokenizers::{Tokenizer, TruncationParams};

/// Texts per forward pass.
const BATCH: usize = 64;
/// The largest weights file read (a BERT-large is ~1.3 GB).
const MAX_WEIGHTS_BYTES: u64 = 2 << 30;

/// One batch's vectors, or why it failed.
type Batch = anyhow::Result<Vec<Vec<f32>>>;

pub struct Encoder {
    /// The folder the files were read from (after resolving a Hugging Face cache repo).
    pub dir: PathBuf,
    /// sha256 over the three files' hashes: the model's identity for the tool cache.
    pub files_hash: String,
    pub dim: usize,
    tokenizer: Tokenizer,
    bert: BertModel,
}

fn need(dir: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let p = dir.join(name);
    if !p.is_file() {
        bail!(
            "{} is missing: an embedding model folder holds config.json, tokenizer.json and model.safetensors",
            p.display()
        );
    }
    Ok(p)
}

fn read_bounded(path: &Path, max: u64) -> anyhow::Result<Vec<u8>> {
    let len = std::fs::metadata(path)
        .with_context(|| format!("could not read {}", path.display()))?
        .len();
    if len > max {
        bail!("{}: {len} bytes, more than the {max} read", path.display());
    }
    std::fs::read(path).with_context(|| format!("could not read {}", path.display()))
}

/// Turns a panic inside candle or tokenizers into an error.
fn guard<T>(what: &str, f: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => bail!("{what}: the model code failed (a panic inside candle was caught)"),
    }
}

impl Encoder {
    pub fn load(dir: &Path) -> anyhow::Result<Encoder> {
        let dir = resolve_dir(dir)?;
        let config_path = need(&dir, "config.json")?;
        let tok_path = need(&dir, "tokenizer.json")?;
        let weights_path = need(&dir, "model.safetensors")?;
        let config_bytes = read_bounded(&config_path, 1 << 20)?;
        let config: Config = serde_json::from_slice(&config_bytes).with_context(|| {
            format!(
                "{}: not a BERT config (hidden_size, num_attention_heads, …)",
                config_path.display()
            )
        })?;
        check_config(&config).map_err(|e| anyhow::anyhow!("{}: {e}", config_path.display()))?;
        let tok_bytes = read_bounded(&tok_path, 64 << 20)?;
        let mut tokenizer = Tokenizer::from_bytes(&tok_bytes)
            .map_err(|e| anyhow::anyhow!("{}: not a tokenizer file: {e}", tok_path.display()))?;
        let vocab = tokenizer.get_vocab_size(true);
        if vocab > config.vocab_size {
            bail!(
                "{} has {vocab} tokens but {} says vocab_size {}: they belong to different models",
                tok_path.display(),
                config_path.display(),
                config.vocab_size
            );
        }
        let max_len = max_seq_length(&dir).min(config.max_position_embeddings);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: max_len,
                ..Default::default()
            }))
            .map_err(|e| anyhow::anyhow!("{}: {e}", tok_path.display()))?;
        tokenizer.with_padding(None);
        let weights = read_bounded(&weights_path, MAX_WEIGHTS_BYTES)?;
        let mut h = Sha256::new();
        for bytes in [&config_bytes, &tok_bytes, &weights] {
            h.update(Sha256::digest(bytes.as_slice()));
        }
        let files_hash = hex::encode(h.finalize());
        let bert = guard(&weights_path.display().to_string(), || {
            let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
                .with_context(|| format!("{}: not a safetensors file", weights_path.display()))?;
            BertModel::load(vb, &config).with_context(|| {
                format!(
                    "{}: its tensors do not match {} (a BERT model with hidden_size {})",
                    weights_path.display(),
                    config_path.display(),
                    config.hidden_size
                )
            })
        })?;
        let enc = Encoder {
            dir,
            files_hash,
            dim: config.hidden_size,
            tokenizer,
            bert,
        };
        // One tiny pass checks the vocabulary and the weights agree (a token id past the
        // embedding table is an error here, not on the first task).
        enc.embed(&["check"])
            .with_context(|| format!("{}: the model does not run", enc.dir.display()))?;
        Ok(enc)
    }

    /// Unit vectors for `texts`, in order.
    pub fn embed(&self, texts: &[&str]) -> anyhow::Result<Vec<Vec<f32>>> {
        let cut: Vec<&str> = texts.iter().map(|t| clip(t, MAX_TEXT_CHARS)).collect();
        let encodings = guard("tokenizer", || {
            self.tokenizer
                .encode_batch(cut, true)
                .map_err(|e| anyhow::anyhow!("tokenizer: {e}"))
        })?;
        let mut order: Vec<usize> = (0..encodings.len()).collect();
        order.sort_by_key(|&i| (encodings[i].get_ids().len(), i));
        // Batches go to one worker per core, each with a one-thread rayon pool, so candle's
        // matrix products run serially inside a worker: no nested fan-out, no spinning
        // barriers, all cores busy (measured faster than candle's own threading on 2 cores).
        let chunks: Vec<&[usize]> = order.chunks(BATCH).collect();
        let workers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(chunks.len())
            .max(1);
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<Batch>>> =
            Mutex::new((0..chunks.len()).map(|_| None).collect());
        std::thread::scope(|s| {
            for _ in 0..workers {
                s.spawn(|| {
                    let work = || loop {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        let Some(chunk) = chunks.get(c) else { break };
                        let ids: Vec<&[u32]> =
                            chunk.iter().map(|&i| encodings[i].get_ids()).collect();
                        let r = guard("model", || self.forward(&ids));
                        results.lock().unwrap_or_else(|e| e.into_inner())[c] = Some(r);
                    };
                    match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
                        Ok(pool) => pool.install(work),
                        Err(_) => work(),
                    }
                });
            }
        });
        let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut out = vec![Vec::new(); encodings.len()];
        for (chunk, r) in chunks.iter().zip(results) {
            let vecs = r.unwrap_or_else(|| Err(anyhow::anyhow!("model: a batch was not run")))?;
            for (&i, v) in chunk.iter().zip(vecs) {
                out[i] = v;
            }
        }
        Ok(out)
    }

    /// One padded batch through BERT, mean-pooled over the mask and L2-normalised.
    fn forward(&self, ids: &[&[u32]]) -> anyhow::Result<Vec<Vec<f32>>> {
        let len = ids.iter().map(|s| s.len()).max().unwrap_or(0).max(1);
        let b = ids.len();
        let mut flat = vec![0u32; b * len];
        let mut mask = vec![0u32; b * len];
        for (r, s) in ids.iter().enumerate() {
            flat[r * len..r * len + s.len()].copy_from_slice(s);
            mask[r * len..r * len + s.len()].fill(1);
        }
        let dev = &self.bert.device;
        let input = Tensor::from_vec(flat, (b, len), dev)?;
        let mask = Tensor::from_vec(mask, (b, len), dev)?;
        let types = input.zeros_like()?;
        let hidden = self.bert.forward(&input, &types, Some(&mask))?;
        let m = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let summed = hidden.broadcast_mul(&m)?.sum(1)?;
        let counts = m.sum(1)?.clamp(1e-9f32, f32::MAX)?;
        let mean = summed.broadcast_div(&counts)?;
        let norm = mean
            .sqr()?
            .sum_keepdim(1)?
            .sqrt()?
            .clamp(1e-12f32, f32::MAX)?;
        Ok(mean.broadcast_div(&norm)?.to_vec2::<f32>()?)
    }
}

/// sentence-transformers' `max_seq_length` (sentence_bert_config.json), else 256.
fn max_seq_length(dir: &Path) -> usize {
    std::fs::read(dir.join("sentence_bert_config.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v.get("max_seq_length")?.as_u64())
        .map(|n| n.clamp(8, 8192) as usize)
        .unwrap_or(256)
}

fn check_config(c: &Config) -> Result<(), String> {
    let bad = |what: &str| {
        Err(format!(
            "{what} (is this a BERT-family model's config.json?)"
        ))
    };
    if c.hidden_size == 0 || c.hidden_size > 8192 {
        return bad("hidden_size must be between 1 and 8192");
    }
    if c.num_attention_heads == 0 || !c.hidden_size.is_multiple_of(c.num_attention_heads) {
        return bad("hidden_size must be a multiple of num_attention_heads");
    }
    if c.num_hidden_layers == 0 || c.num_hidden_layers > 96 {
        return bad("num_hidden_layers must be between 1 and 96");
    }
    if c.vocab_size == 0 || c.max_position_embeddings < 8 || c.type_vocab_size == 0 {
        return bad("vocab_size, max_position_embeddings and type_vocab_size must be positive");
    }
    Ok(())
}

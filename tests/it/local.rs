//! `-m local:<gguf>`: toolgate starts llama-server itself (here a stand-in speaking its API,
//! fixtures/servers/fake_llama_server.py), waits for `/health`, sends one request at a time,
//! saves the slot cache after the first answer and restores it on the next run with the same
//! model and catalog, keeps credentials from it, and stops it when the run ends.

use std::path::Path;

use crate::common::*;
use serde_json::{Value, json};

fn setup(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let bin = dir.join("llama-server");
    std::fs::write(
        &bin,
        format!(
            "#!/bin/sh\nexec python3 {} \"$@\"\n",
            fixture("servers/fake_llama_server.py")
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let gguf = dir.join("tiny.gguf");
    std::fs::write(&gguf, b"GGUF stand-in").unwrap();
    let cat = dir.join("catalog.json");
    write_two_tool_catalog(&cat);
    (gguf, cat)
}

fn tasks(dir: &Path, name: &str, n: usize, tag: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    let lines: Vec<String> = (0..n)
        .map(|i| json!({"id": format!("{tag}{i}"), "request": format!("Book room Vega please ({tag} {i})"), "kind": "direct", "expected": {"tool": "book_room"}}).to_string())
        .collect();
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

fn log(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("llama.log"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn alive(pid: i64) -> bool {
    // A zombie is not a running server: read its state.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| !s.split(") ").nth(1).unwrap_or("").starts_with('Z'))
        .unwrap_or(false)
}

fn run(
    dir: &Path,
    gguf: &Path,
    cat: &Path,
    t: &Path,
    out: &str,
    extra: &[&str],
) -> std::process::Output {
    toolgate()
        .args(["run", cat.to_str().unwrap(), "-t", t.to_str().unwrap()])
        .args(["-m", &format!("local:{}", gguf.display())])
        .args(["--cache-dir", dir.join("cache").to_str().unwrap()])
        .args(["--out", dir.join(out).to_str().unwrap()])
        .args(extra)
        .env("TOOLGATE_LLAMA_SERVER", dir.join("llama-server"))
        .env("FAKE_LLAMA_LOG", dir.join("llama.log"))
        .env("OPENAI_API_KEY", "sk-local-test-never-forwarded-1234")
        .output()
        .unwrap()
}

#[test]
fn a_local_gguf_is_served_waited_for_cached_and_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (gguf, cat) = setup(d);
    let t1 = tasks(d, "t1.jsonl", 4, "a");
    let o = run(d, &gguf, &cat, &t1, "run1", &["--concurrency", "8"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let entries = log(d);
    let start = &entries[0];
    assert_eq!(start["event"], "start");
    let args: Vec<&str> = start["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    for want in ["--jinja", "-np", "--slot-save-path", "--host"] {
        assert!(args.contains(&want), "{want} in {args:?}");
    }
    assert_eq!(
        args[args.iter().position(|a| *a == "-np").unwrap() + 1],
        "1"
    );
    assert_eq!(
        args[args.iter().position(|a| *a == "--host").unwrap() + 1],
        "127.0.0.1"
    );
    assert!(
        entries.iter().all(|e| e["secret_env"] == json!([])),
        "no credential reaches the model runtime: {entries:?}"
    );
    assert!(
        entries
            .iter()
            .any(|e| e["path"] == "/health" && e["event"] == "get"),
        "it waited for /health"
    );
    let chats: Vec<&Value> = entries
        .iter()
        .filter(|e| e["path"] == "/v1/chat/completions")
        .collect();
    assert_eq!(chats.len(), 6, "4 decisions and the canary asked twice");
    assert!(
        chats.iter().all(|c| c["max_tokens"].as_u64().is_some()),
        "every request is bounded"
    );
    assert_eq!(
        entries
            .iter()
            .filter(|e| e["path"] == "/slots/0?action=save")
            .count(),
        1,
        "the slot is saved once"
    );
    let pid = start["pid"].as_i64().unwrap();
    assert!(!alive(pid), "the server is stopped when the run ends");
    let runj = read_json(&d.join("run1/run.json"));
    assert_eq!(runj["status"], "complete");
    assert_eq!(runj["models"][0]["descriptions"]["outcome"], "passed");
    let notes = runj["models"][0]["notes"].to_string();
    assert!(
        !notes.contains("--concurrency"),
        "one slot, one request: {notes}"
    );
    let saved: Vec<_> = std::fs::read_dir(d.join("cache/llama-slots"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");

    // Same model and catalog, new requests: the saved prefix is restored.
    std::fs::remove_file(d.join("llama.log")).unwrap();
    let t2 = tasks(d, "t2.jsonl", 2, "b");
    let o = run(d, &gguf, &cat, &t2, "run2", &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let entries = log(d);
    assert!(
        entries
            .iter()
            .any(|e| e["event"] == "restored" && e["filename"] == saved[0].as_str()),
        "{entries:?}"
    );

    // Everything answered from the response cache: the model is never loaded.
    std::fs::remove_file(d.join("llama.log")).unwrap();
    let o = run(d, &gguf, &cat, &t2, "run3", &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(log(d).is_empty(), "no server started for a cached run");
}

#[test]
fn a_server_that_exits_stops_the_run_with_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (gguf, cat) = setup(d);
    std::fs::write(
        d.join("llama-server"),
        "#!/bin/sh\necho 'error: unknown model architecture: zzz' >&2\nexit 1\n",
    )
    .unwrap();
    let t = tasks(d, "t.jsonl", 3, "c");
    let o = run(d, &gguf, &cat, &t, "run", &["--no-cache"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("llama-server exited") && err.contains("unknown model architecture"),
        "{err}"
    );
    let runj = read_json(&d.join("run/run.json"));
    assert_eq!(runj["status"], "partial");
}

#[test]
fn no_llama_server_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (gguf, cat) = setup(d);
    let t = tasks(d, "t.jsonl", 1, "d");
    let o = toolgate()
        .args(["run", cat.to_str().unwrap(), "-t", t.to_str().unwrap()])
        .args(["-m", &format!("local:{}", gguf.display()), "--no-cache"])
        .args(["--out", d.join("run").to_str().unwrap()])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("llama-server") && err.contains("TOOLGATE_LLAMA_SERVER"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

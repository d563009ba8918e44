//! `run --shard K/N` + `toolgate merge` gives the same metrics as one unsharded run, byte for
//! byte; shards of another run, a missing or a repeated shard are refused by number.

use crate::common::{fixture, toolgate};
use serde_json::Value;

fn run(dir: &std::path::Path, extra: &[&str]) {
    let o = toolgate()
        .current_dir(dir)
        .args([
            "run",
            &fixture("example/after.json"),
            "-t",
            &fixture("example/tasks.jsonl"),
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn results(path: &std::path::Path) -> String {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    serde_json::to_string_pretty(&v["results"]).unwrap()
}

#[test]
fn merged_shards_score_exactly_as_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run(d, &["--out", "whole"]);
    let whole = results(&d.join("whole/run.json"));
    for n in [4u32, 8] {
        let mut dirs = Vec::new();
        let mut decided = 0;
        for k in 1..=n {
            let out = format!("s{n}-{k}");
            run(d, &["--out", &out, "--shard", &format!("{k}/{n}")]);
            let v: Value = serde_json::from_str(
                &std::fs::read_to_string(d.join(&out).join("run.json")).unwrap(),
            )
            .unwrap();
            decided += v["results"][0]["metrics"]["n"].as_u64().unwrap();
            dirs.push(out);
        }
        assert_eq!(decided, 130, "the shards partition the 130 tasks");
        let merged = format!("merged{n}");
        let o = toolgate()
            .current_dir(d)
            .arg("merge")
            .args(&dirs)
            .args(["--out", &merged])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(
            results(&d.join(&merged).join("run.json")),
            whole,
            "N={n}: merged metrics differ from the unsharded run"
        );
    }
    // A missing shard and a repeated one are named.
    let o = toolgate()
        .current_dir(d)
        .args(["merge", "s4-1", "s4-2", "s4-4", "--out", "bad1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("shard(s) 3/4 missing"));
    let o = toolgate()
        .current_dir(d)
        .args([
            "merge", "s4-1", "s4-2", "s4-3", "s4-4", "s4-2", "--out", "bad2",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("shard 2/4 is given twice"));
    // Shards of different N (another run) are refused.
    let o = toolgate()
        .current_dir(d)
        .args(["merge", "s4-1", "s8-2", "--out", "bad3"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("number of shards"));
}

/// `toolgate ci` in the bundled example project (its toolgate.toml: live server, tasks, base).
fn ci(out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    toolgate()
        .current_dir(fixture("example"))
        .args(["ci", "--no-github", "--out", out.to_str().unwrap()])
        .args(extra)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap()
}

fn json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn ci_matrix_jobs_and_the_fan_in_gate_as_one_job_would() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let whole = ci(&d.join("whole"), &[]);
    let shards = d.join("artifacts");
    for k in 1..=4 {
        let o = ci(
            &shards.join(format!("toolgate-shard-{k}")),
            &["--shard", &format!("{k}/4")],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("shard {k}/4")));
        // A matrix job gates nothing: no ci.json, no badge.
        let out = shards.join(format!("toolgate-shard-{k}"));
        assert!(!out.join("ci.json").exists() && !out.join("badge.svg").exists());
    }
    // The fan-in reads the folder the artifacts were downloaded into.
    let fan = ci(&d.join("fan"), &["--merge", shards.to_str().unwrap()]);
    assert_eq!(fan.status.code(), whole.status.code());
    let (w, f) = (json(&d.join("whole/ci.json")), json(&d.join("fan/ci.json")));
    for key in [
        "passed",
        "reasons",
        "comparison",
        "lock",
        "lint",
        "catalog_sha256",
    ] {
        assert_eq!(
            f[key], w[key],
            "ci.json `{key}` differs between fan-in and one job"
        );
    }
    assert_eq!(
        serde_json::to_string(&f["run"]["results"]).unwrap(),
        serde_json::to_string(&w["run"]["results"]).unwrap()
    );
    assert!(
        f["notices"].to_string().contains("joins 4 shards"),
        "{}",
        f["notices"]
    );
    assert_eq!(
        std::fs::read_to_string(d.join("fan/badge.svg")).unwrap(),
        std::fs::read_to_string(d.join("whole/badge.svg")).unwrap()
    );
    // A lost matrix job is named, and the fan-in cannot pass.
    std::fs::remove_dir_all(shards.join("toolgate-shard-3")).unwrap();
    let o = ci(&d.join("fan2"), &["--merge", shards.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("shard(s) 3/4 missing"));
    assert_eq!(json(&d.join("fan2/ci.json"))["passed"], false);
    // --shard and --merge are two different jobs.
    let o = ci(
        &d.join("x"),
        &["--shard", "1/4", "--merge", shards.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 22 point 4: a shard or a baseline edited after toolgate wrote it is refused, naming
/// the file; the untouched ones merge and compare.
#[test]
fn a_tampered_shard_or_baseline_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for k in 1..=2 {
        run(
            d,
            &["--out", &format!("s{k}"), "--shard", &format!("{k}/2")],
        );
    }
    let merge = |out: &str| {
        toolgate()
            .current_dir(d)
            .args(["merge", "s1", "s2", "--out", out])
            .output()
            .unwrap()
    };
    let o = merge("ok");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // One decision flipped to the expected tool: a better score, forged.
    let p = d.join("s2/predictions.jsonl");
    let text = std::fs::read_to_string(&p).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.pop();
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    let o = merge("forged");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("s2/predictions.jsonl was changed after toolgate wrote it"),
        "{err}"
    );

    let base = d.join("base.json");
    let original = std::fs::read_to_string(fixture("example/toolgate-baseline.json")).unwrap();
    let ci_with_base = || {
        toolgate()
            .current_dir(fixture("example"))
            .args(["ci", "--no-github", "--out"])
            .arg(d.join("ci-out"))
            .arg("--base")
            .arg(&base)
            .output()
            .unwrap()
    };
    std::fs::write(&base, &original).unwrap();
    let o = ci_with_base();
    assert!(
        o.status.code() != Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let forged = original.replacen(
        "\"value\": 0.3230769230769231",
        "\"value\": 0.9230769230769231",
        1,
    );
    assert_ne!(forged, original);
    std::fs::write(&base, &forged).unwrap();
    let o = ci_with_base();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("base.json was changed after toolgate wrote it"),
        "{err}"
    );
}

/// Issue 41 (smaller items): without a task file, each matrix job and the fan-in generate the
/// same suite from the same catalog, so the fan-in joins the shards (it generated templates
/// and then refused them as another suite) and scores exactly as one job would.
#[test]
fn the_fan_in_joins_shards_of_a_generated_suite() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let server = fixture("catalogs/filesystem.json");
    let go = |out: &str, extra: &[&str]| {
        toolgate()
            .current_dir(d)
            .args(["ci", "--no-github", "--server", &server, "--out", out])
            .args(extra)
            .env_remove("GITHUB_ACTIONS")
            .output()
            .unwrap()
    };
    let whole = go("whole", &[]);
    for k in 1..=3 {
        let o = go(&format!("shards/s{k}"), &["--shard", &format!("{k}/3")]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let fan = go("fan", &["--merge", "shards"]);
    let err = String::from_utf8_lossy(&fan.stderr);
    assert!(!err.contains("not the task suite"), "{err}");
    assert_eq!(fan.status.code(), whole.status.code(), "{err}");
    let (w, f) = (json(&d.join("whole/ci.json")), json(&d.join("fan/ci.json")));
    assert_eq!(
        serde_json::to_string(&f["run"]["results"]).unwrap(),
        serde_json::to_string(&w["run"]["results"]).unwrap()
    );
}

//! `run --shard K/N` + `toolgate merge` gives the same metrics as one unsharded run, byte for
//! byte; shards of another run, a missing or a repeated shard are refused by number.

mod common;

use common::{fixture, toolgate};
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

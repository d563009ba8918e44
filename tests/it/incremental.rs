//! `ci --incremental` re-runs only the tasks a catalog change can reach, reuses the base's
//! decisions for the rest, says so in every report, and reaches the verdict a full run does.

use std::path::Path;

use crate::common::{fixture, toolgate};
use serde_json::Value;

fn ci(dir: &Path, server: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let o = toolgate()
        .current_dir(dir)
        .args(["ci", "--no-github", "--lock-check", "off", "--server"])
        .arg(server)
        .args(["-t", &fixture("example/tasks.jsonl"), "--out", out])
        .args(extra)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert!(
        o.status.code().is_some_and(|c| c < 2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The example's "after" catalog with one tool's description replaced.
fn changed(dir: &Path, tool: &str, description: &str) -> std::path::PathBuf {
    let mut cat = json(Path::new(&fixture("example/after.json")));
    for t in cat["tools"].as_array_mut().unwrap() {
        if t["name"] == tool {
            t["description"] = description.into();
        }
    }
    let p = dir.join(format!("{tool}.json"));
    std::fs::write(&p, serde_json::to_string(&cat).unwrap()).unwrap();
    p
}

fn expecting(tool: &str) -> Vec<String> {
    std::fs::read_to_string(fixture("example/tasks.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|t| t["expected"]["tool"] == tool || t["lure"] == tool)
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn one_changed_description_reruns_only_what_it_reaches() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let after = std::path::PathBuf::from(fixture("example/after.json"));
    ci(d, &after, "base", &["--write-baseline", "base.json"]);
    let base = json(&d.join("base.json"));
    assert_eq!(base["predictions"].as_array().unwrap().len(), 130);
    assert_eq!(base["tasks"].as_object().unwrap().len(), 130);

    for (tool, text) in [
        // A light rewording, and one that sends its tasks elsewhere.
        (
            "set_reminder",
            "Attach a reminder notification to an existing event, a set number of minutes before it starts.",
        ),
        ("book_room", "Room."),
    ] {
        let server = changed(d, tool, text);
        let inc = ci(
            d,
            &server,
            &format!("inc-{tool}"),
            &["--base", "base.json", "--incremental"],
        );
        let full = ci(
            d,
            &server,
            &format!("full-{tool}"),
            &["--base", "base.json"],
        );
        assert_eq!(inc.status.code(), full.status.code());
        let (i, f) = (
            json(&d.join(format!("inc-{tool}/ci.json"))),
            json(&d.join(format!("full-{tool}/ci.json"))),
        );
        for key in ["passed", "reasons"] {
            assert_eq!(i[key], f[key], "{tool}: `{key}` differs from a full run");
        }
        assert_eq!(
            i["comparison"]["models"][0]["overall"],
            f["comparison"]["models"][0]["overall"]
        );
        // Every outcome is the one a full run gets.
        assert_eq!(
            std::fs::read_to_string(d.join(format!("inc-{tool}/run/outcomes.jsonl"))).unwrap(),
            std::fs::read_to_string(d.join(format!("full-{tool}/run/outcomes.jsonl"))).unwrap(),
            "{tool}"
        );
        let reused = &i["run"]["reused"];
        let rerun = reused["rerun_tasks"].as_u64().unwrap();
        assert_eq!(reused["changed_tools"], serde_json::json!([tool]));
        assert!(
            rerun < 130 && rerun as usize >= expecting(tool).len(),
            "{reused}"
        );
        assert_eq!(reused["reused"].as_u64().unwrap() + rerun, 130);
        // The run made decisions only for the re-run tasks.
        let made = std::fs::read_to_string(d.join(format!("inc-{tool}/run/predictions.jsonl")))
            .unwrap()
            .lines()
            .count();
        assert_eq!(made, 130);
        // Every report says it.
        for file in ["summary.md", "run/report.md", "run/report.html"] {
            let text = std::fs::read_to_string(d.join(format!("inc-{tool}/{file}"))).unwrap();
            assert!(
                text.contains(&format!("Incremental run: {rerun} of 130 tasks re-run")),
                "{tool}: {file} does not say what was reused"
            );
        }
        assert!(String::from_utf8_lossy(&inc.stdout).contains("decision(s) reused from the base"));
    }
}

#[test]
fn without_a_usable_base_it_runs_in_full_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let after = std::path::PathBuf::from(fixture("example/after.json"));
    // No base at all.
    ci(d, &after, "a", &["--incremental"]);
    let a = json(&d.join("a/ci.json"));
    assert!(a["run"].get("reused").is_none());
    assert!(
        a["notices"]
            .to_string()
            .contains("no base to reuse decisions from")
    );
    // A base that keeps no decisions (a plain run directory).
    let o = toolgate()
        .current_dir(d)
        .args([
            "run",
            &fixture("example/after.json"),
            "-t",
            &fixture("example/tasks.jsonl"),
        ])
        .args(["--out", "plain"])
        .output()
        .unwrap();
    assert!(o.status.success());
    ci(d, &after, "b", &["--incremental", "--base", "plain"]);
    let b = json(&d.join("b/ci.json"));
    assert!(b["run"].get("reused").is_none());
    assert!(
        b["notices"].to_string().contains("went in full"),
        "{}",
        b["notices"]
    );
    // On GitHub outside a pull request, every decision is made anew.
    ci(d, &after, "base", &["--write-baseline", "base.json"]);
    let o = toolgate()
        .current_dir(d)
        .args([
            "ci",
            "--lock-check",
            "off",
            "--server",
            &fixture("example/after.json"),
        ])
        .args([
            "-t",
            &fixture("example/tasks.jsonl"),
            "--out",
            "c",
            "--base",
            "base.json",
        ])
        .args(["--incremental", "--comment", "false"])
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_EVENT_NAME", "push")
        .output()
        .unwrap();
    assert!(
        o.status.code().is_some_and(|c| c < 2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let c = json(&d.join("c/ci.json"));
    assert!(c["run"].get("reused").is_none());
    assert!(c["notices"].to_string().contains("outside a pull request"));
}

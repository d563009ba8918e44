//! The ablation check on real public servers with terse descriptions: the default suite (what
//! `ci` generates from the schemas when no task file is given) must not score ≥ 90% once the
//! descriptions are gone, and the deltas must reach report.md and the job summary (the PR
//! comment is rendered by the same code: see the surface snapshots).

use crate::common::{fixture, toolgate};
use serde_json::Value;

fn arm<'a>(run: &'a Value, arm: &str) -> &'a Value {
    run["ablation"]["results"]
        .as_array()
        .expect("run.json has ablation results")
        .iter()
        .find(|r| r["arm"] == arm)
        .unwrap_or_else(|| panic!("no {arm} arm in {}", run["ablation"]))
}

#[test]
fn the_default_suite_of_terse_servers_drops_without_descriptions() {
    for server in ["git", "slack", "time"] {
        let d = tempfile::tempdir().unwrap();
        let o = toolgate()
            .current_dir(d.path())
            .args([
                "ci",
                "--server",
                &fixture(&format!("ecosystem/{server}.json")),
            ])
            .args(["--no-github", "--out", "out"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.code().is_some_and(|c| c < 2), "{server}: {err}");
        let run = crate::common::read_json(&d.path().join("out/run/run.json"));
        let gone = arm(&run, "no_descriptions");
        let full = gone["full"]["value"].as_f64().unwrap();
        let without = gone["accuracy"]["value"].as_f64().unwrap();
        assert!(
            without < 0.9,
            "{server}: {:.1}% without descriptions",
            without * 100.0
        );
        assert!(without < full, "{server}: {without} vs {full}");
        assert!(gone["lost"].as_u64().unwrap() > 0, "{server}: {gone}");
        let renamed = arm(&run, "neutral_names");
        assert_eq!(
            renamed["full"], gone["full"],
            "{server}: both arms pair with one run"
        );
        for file in ["out/run/report.md", "out/summary.md"] {
            let md = std::fs::read_to_string(d.path().join(file)).unwrap();
            assert!(
                md.contains("What the suite measures (ablation)"),
                "{server} {file}: {md}"
            );
            let delta = format!("{:+.1} pts", (without - full) * 100.0);
            assert!(md.contains(&delta), "{server} {file} lacks {delta}: {md}");
        }
    }
}

/// A suite that does not depend on the descriptions (its requests name the tools) is told so,
/// in report.md; `--ablation=false` turns the check off.
#[test]
fn a_suite_that_does_not_measure_descriptions_is_told_so() {
    let d = tempfile::tempdir().unwrap();
    let tasks = d.path().join("tasks.jsonl");
    let lines: Vec<String> = (0..12)
        .map(|i| {
            let (tool, args) = if i % 2 == 0 {
                ("git_status", format!("repo status of /r{i}"))
            } else {
                ("git_log", format!("repo log of /r{i}"))
            };
            serde_json::json!({"id": format!("t{i}"), "request": args, "kind": "direct", "expected": {"tool": tool}})
                .to_string()
        })
        .collect();
    std::fs::write(&tasks, lines.join("\n") + "\n").unwrap();
    let run = |extra: &[&str]| {
        let out = d.path().join(format!("run{}", extra.len()));
        let o = toolgate()
            .args(["run", &fixture("ecosystem/git.json"), "-t"])
            .arg(&tasks)
            .args(["-m", "bm25", "--out"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap();
        assert!(
            o.status.code().is_some_and(|c| c < 2),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        (
            crate::common::read_json(&out.join("run.json")),
            std::fs::read_to_string(out.join("report.md")).unwrap(),
        )
    };
    let (r, md) = run(&[]);
    let gone = arm(&r, "no_descriptions");
    assert_eq!(gone["drops"], false, "{gone}");
    assert!(
        md.contains("This suite does not measure the descriptions"),
        "{md}"
    );
    let (r, md) = run(&["--ablation=false"]);
    assert!(r.get("ablation").is_none(), "{r}");
    assert!(!md.contains("ablation"), "{md}");
}

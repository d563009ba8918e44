//! Issue 39 point 2: the Codex profile (`toolsearch-codex`) returns the same top k as an
//! independent re-implementation of Codex's `search_tool_bm25` written from Codex's source
//! (fixtures/codex/reimplementation.py, Python with PyPI's Snowball stemmer), on three real
//! servers' catalogs and queries of several kinds: tool names in words, description openings,
//! and requests a user would type.

use serde_json::{Value, json};

use crate::common::{fixture, root, third_party, toolgate};

fn queries(tools: &[Value]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for t in tools {
        let name = t["name"].as_str().unwrap().to_string();
        out.push((name.replace(['_', '-'], " "), name.clone()));
        let desc = t["description"].as_str().unwrap_or("");
        let opening: Vec<&str> = desc.split_whitespace().take(10).collect();
        if !opening.is_empty() {
            out.push((opening.join(" "), name.clone()));
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|(q, _)| seen.insert(q.clone()));
    let first = tools[0]["name"].as_str().unwrap().to_string();
    for q in [
        "what's in this folder and how big is each file?",
        "find every markdown file under docs",
        "remember that Ana prefers morning meetings",
        "who does Bob work with?",
        "add two numbers for me",
        "print an environment variable",
        "move the report to the archive directory",
        "zzz nothing matches this",
        "the and of a",
    ] {
        out.push((q.to_string(), first.clone()));
    }
    out
}

#[test]
fn the_codex_profile_matches_a_reimplementation_from_codexs_source() {
    let python = third_party("venv/bin/python");
    let dir = tempfile::tempdir().unwrap();
    let mut compared = 0;
    // The public servers' catalogs (as in ../shared/catalogs, copied into the tree).
    for name in ["filesystem", "everything", "memory"] {
        let catalog = root().join(format!("fixtures/catalogs/{name}.json"));
        let cat: Value = serde_json::from_str(&std::fs::read_to_string(&catalog).unwrap()).unwrap();
        let tools = cat["tools"].as_array().unwrap();
        let qs = queries(tools);
        let tasks: Vec<String> = qs
            .iter()
            .enumerate()
            .map(|(i, (q, t))| {
                json!({"id": format!("q{i:03}"), "request": q, "kind": "direct", "expected": {"tool": t}})
                    .to_string()
            })
            .collect();
        let tfile = dir.path().join(format!("{name}.jsonl"));
        std::fs::write(&tfile, tasks.join("\n") + "\n").unwrap();
        let out = dir.path().join(name);
        toolgate()
            .args([
                "run",
                catalog.to_str().unwrap(),
                "-t",
                tfile.to_str().unwrap(),
            ])
            .args(["-m", "toolsearch-codex:8", "--out", out.to_str().unwrap()])
            .arg("--ablation=false")
            .assert()
            .success();
        // The rankings toolgate wrote, by query.
        let preds = std::fs::read_to_string(out.join("predictions.jsonl")).unwrap();
        let mut rankings = serde_json::Map::new();
        for line in preds.lines() {
            let p: Value = serde_json::from_str(line).unwrap();
            let i: usize = p["task_id"].as_str().unwrap()[1..].parse().unwrap();
            rankings.insert(qs[i].0.clone(), p["ranking"].clone());
        }
        assert_eq!(rankings.len(), qs.len(), "{name}: one ranking per query");
        let rfile = dir.path().join(format!("{name}.rankings.json"));
        std::fs::write(&rfile, Value::Object(rankings).to_string()).unwrap();
        // The snapshots carry no server name: Codex's would be the config's, `server` here.
        let o = std::process::Command::new(&python)
            .arg(fixture("codex/reimplementation.py"))
            .args([
                catalog.to_str().unwrap(),
                "server",
                rfile.to_str().unwrap(),
                "8",
            ])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{name}: {said}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            said.contains(&format!("compared {} queries", qs.len())),
            "{said}"
        );
        compared += qs.len();
    }
    assert!(compared >= 80, "{compared}");
}

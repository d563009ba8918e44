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

/// An LLM-like mock: its answer is a function of the whole request (every description is in
/// it), right for about four tasks in five: like a real model, editing any description can move
/// any decision. It says nothing about being deterministic, and toolgate treats LLMs as not.
struct Whims;

impl wiremock::Respond for Whims {
    fn respond(&self, req: &wiremock::Request) -> wiremock::ResponseTemplate {
        use std::hash::{Hash, Hasher};
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        body.to_string().hash(&mut h);
        let roll = h.finish();
        let tools: Vec<String> = body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap().to_string())
            .collect();
        let asked = body["messages"].as_array().unwrap().last().unwrap()["content"]
            .as_str()
            .unwrap_or("")
            .to_lowercase();
        // The tool whose name words the request uses most, else one picked by the roll.
        let score = |t: &str| t.split('_').filter(|w| asked.contains(w)).count();
        let best = tools.iter().max_by_key(|t| score(t)).cloned().unwrap();
        let name = if roll.is_multiple_of(5) {
            tools[(roll / 5) as usize % tools.len()].clone()
        } else {
            best
        };
        wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "id": "c", "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": name, "arguments": "{}"}}]}}],
            "usage": {"prompt_tokens": body.to_string().len() / 4, "completion_tokens": 5}
        }))
    }
}

/// Over 20 random one-description edits, `--incremental` with a model that is not deterministic
/// reaches the verdict (and the outcomes) of a full run: it reuses none of that model's
/// decisions, and says why.
#[tokio::test(flavor = "multi_thread")]
async fn a_nondeterministic_model_never_flips_a_verdict_through_reuse() {
    use rand::{RngExt, SeedableRng};
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .and(wiremock::matchers::path("/v1/chat/completions"))
        .respond_with(Whims)
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let url = format!("{}/v1", server.uri());
    let llm = [
        "-m",
        "openai-compat:m",
        "--base-url",
        url.as_str(),
        "--no-cache",
        "--concurrency",
        "4",
        "--split",
        "heldout",
    ];
    let after = std::path::PathBuf::from(fixture("example/after.json"));
    let mut base_args = llm.to_vec();
    base_args.extend(["--write-baseline", "base.json"]);
    ci(d, &after, "base", &base_args);
    let cat = json(&after);
    let names: Vec<String> = cat["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    let words = [
        "room", "event", "reminder", "calendar", "meeting", "the", "a", "book", "cancel", "list",
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
    for edit in 0..20 {
        let tool = &names[rng.random_range(0..names.len())];
        let text: Vec<&str> = (0..rng.random_range(1..12))
            .map(|_| words[rng.random_range(0..words.len())])
            .collect();
        let server = changed(d, tool, &text.join(" "));
        let mut inc_args = llm.to_vec();
        inc_args.extend(["--base", "base.json", "--incremental"]);
        let inc = ci(d, &server, &format!("inc-{edit}"), &inc_args);
        let mut full_args = llm.to_vec();
        full_args.extend(["--base", "base.json"]);
        let full = ci(d, &server, &format!("full-{edit}"), &full_args);
        assert_eq!(
            inc.status.code(),
            full.status.code(),
            "edit {edit} of `{tool}`"
        );
        let (i, f) = (
            json(&d.join(format!("inc-{edit}/ci.json"))),
            json(&d.join(format!("full-{edit}/ci.json"))),
        );
        for key in ["passed", "reasons"] {
            assert_eq!(i[key], f[key], "edit {edit} of `{tool}`: `{key}` differs");
        }
        assert_eq!(
            std::fs::read_to_string(d.join(format!("inc-{edit}/run/outcomes.jsonl"))).unwrap(),
            std::fs::read_to_string(d.join(format!("full-{edit}/run/outcomes.jsonl"))).unwrap(),
            "edit {edit} of `{tool}`"
        );
        assert!(
            i["run"].get("reused").is_none(),
            "edit {edit}: {}",
            i["run"]["reused"]
        );
        let summary = std::fs::read_to_string(d.join(format!("inc-{edit}/summary.md"))).unwrap();
        assert!(
            summary.contains("is not deterministic"),
            "edit {edit}: {summary}"
        );
    }
}

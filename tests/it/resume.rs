//! Issue 43 point 4: `run --resume DIR` with no other flag continues the run as it was asked.
//! A 3-trial LLM run against a local endpoint (its --base-url given once) is killed part way;
//! resumed with the folder alone it makes every (task, trial) decision exactly once. A resume
//! that asks for other trials is refused instead of mixing two runs.

use std::collections::HashSet;
use std::time::Duration;

use crate::common::read_json;
use crate::llm::{catalog, openai_mock, predictions, run, s, tasks};

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_three_trial_run_resumes_from_its_folder_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (server, _calls) = openai_mock(Duration::from_millis(150)).await;
    let reqs: Vec<String> = (0..8).map(|i| format!("book room {i}")).collect();
    let reqs: Vec<&str> = reqs.iter().map(String::as_str).collect();
    let (cat, t) = (catalog(dir.path()), tasks(dir.path(), &reqs));
    let out = dir.path().join("run");
    let bin = assert_cmd::cargo::cargo_bin!("toolgate");
    let mut child = std::process::Command::new(bin)
        .args(["run", &s(&cat), "-t", &s(&t), "-m", "openai-compat:m"])
        .args(["--base-url", &format!("{}/v1", server.uri())])
        .args(["--trials", "3", "--concurrency", "1", "--no-cache", "--out"])
        .arg(&out)
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while predictions(&out).len() < 5 {
        assert!(std::time::Instant::now() < deadline, "no progress");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        predictions(&out).len() < 24,
        "killed too late to test resume"
    );

    // Other trials than recorded: refused, nothing written.
    let before = predictions(&out).len();
    let o = run(
        vec![
            "run".into(),
            "--resume".into(),
            s(&out),
            "--trials".into(),
            "2".into(),
        ],
        vec![],
    )
    .await;
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--trials 3"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(predictions(&out).len(), before);

    // The folder alone: trials, base URL and concurrency come from run.json.
    let o = run(
        vec![
            "run".into(),
            "--resume".into(),
            s(&out),
            "--no-cache".into(),
        ],
        vec![],
    )
    .await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p = predictions(&out);
    let pairs: HashSet<(String, u64)> = p
        .iter()
        .map(|x| {
            (
                x["task_id"].as_str().unwrap().to_string(),
                x["trial"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(p.len(), 24, "no decision repeated");
    assert_eq!(pairs.len(), 24, "no (task, trial) lost");
    let run_json = read_json(&out.join("run.json"));
    assert_eq!(run_json["status"], "complete");
    assert_eq!(run_json["trials"], 3);
}

/// An endpoint that answers HTTP 500 to everything stops the run after a few replies in a
/// row, naming the status and the body, as a refused connection does; the run is partial and
/// resumable, not 70 decisions' worth of retries.
#[tokio::test(flavor = "multi_thread")]
async fn an_endpoint_that_only_fails_is_stopped_after_a_few_replies() {
    use wiremock::{Mock, MockServer, ResponseTemplate, matchers::method};
    let dir = tempfile::tempdir().unwrap();
    let api = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).set_body_string("upstream database is down"))
        .mount(&api)
        .await;
    let reqs: Vec<String> = (0..30).map(|i| format!("book room {i}")).collect();
    let reqs: Vec<&str> = reqs.iter().map(String::as_str).collect();
    let (cat, t) = (catalog(dir.path()), tasks(dir.path(), &reqs));
    let out = dir.path().join("run");
    let o = run(
        vec![
            "run".into(),
            s(&cat),
            "-t".into(),
            s(&t),
            "-m".into(),
            "openai-compat:m".into(),
            "--base-url".into(),
            format!("{}/v1", api.uri()),
            "--concurrency".into(),
            "1".into(),
            "--no-cache".into(),
            "--out".into(),
            s(&out),
        ],
        vec![],
    )
    .await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("requests in a row got only server errors"),
        "{err}"
    );
    assert!(err.contains("HTTP 500"), "{err}");
    assert!(err.contains("upstream database is down"), "{err}");
    let sent = api.received_requests().await.unwrap_or_default().len();
    // Three requests with their retries (5 attempts each), and nothing more.
    assert!(sent <= 16, "{sent} requests sent to a failing endpoint");
    let run_json = read_json(&out.join("run.json"));
    assert_ne!(run_json["status"], "complete", "{run_json:#}");
}

/// Issue 43 point 4: `run --only TOOL…` re-measures a subset (the tasks that expect one of the
/// tools or lure toward one) against the whole catalog, records it, and keeps it on resume.
#[test]
fn run_only_remeasures_a_subset_against_the_whole_catalog() {
    use crate::common::{fixture, toolgate};
    let dir = tempfile::tempdir().unwrap();
    let (server, tasks) = (
        fixture("example/after.json"),
        fixture("example/tasks.jsonl"),
    );
    let only = ["create_event", "find_events"];
    // The subset, counted here from the task file itself.
    let mut want = HashSet::new();
    for line in std::fs::read_to_string(&tasks).unwrap().lines() {
        let t: serde_json::Value = serde_json::from_str(line).unwrap();
        let expects = t["expected"]["tool"]
            .as_str()
            .is_some_and(|x| only.contains(&x));
        let lures = t["lure"].as_str().is_some_and(|x| only.contains(&x));
        if expects || lures {
            want.insert(t["id"].as_str().unwrap().to_string());
        }
    }
    assert!(want.len() > 10 && want.len() < 130, "{}", want.len());
    let out = dir.path().join("run");
    let o = toolgate()
        .args([
            "run",
            &server,
            "-t",
            &tasks,
            "--only",
            &only.join(","),
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["only"], serde_json::json!(only));
    assert_eq!(run["suite"]["tasks"], want.len());
    // Chosen among every tool of the catalog, not the subset's.
    let all = read_json(std::path::Path::new(&server))["tools"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(run["catalog"]["tools"].as_array().unwrap().len(), all);
    let got: HashSet<String> = predictions(&out)
        .iter()
        .map(|p| p["task_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got, want);
    // A resume keeps the subset; another one is refused.
    let o = toolgate()
        .args(["run", "--resume"])
        .arg(&out)
        .args(["--only", "create_event"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--only"),
        "{o:?}"
    );
    // A tool the catalog does not have is named.
    let o = toolgate()
        .args([
            "run",
            &server,
            "-t",
            &tasks,
            "--only",
            "no_such_tool",
            "--out",
        ])
        .arg(dir.path().join("x"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no_such_tool") && err.contains("no tool of that name"),
        "{err}"
    );
}

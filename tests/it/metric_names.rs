//! Issue 39 point 1: a number carries the name of what was measured. A bm25-only `ci` on a
//! real server (the npm memory server) says "findability@1" and never "tool accuracy" in any
//! sink (terminal, comment and job summary, step outputs, ci.json, run.json, JUnit, badge,
//! report.md/html); an LLM run (a mock endpoint that speaks the OpenAI wire format) is "tool
//! accuracy" there.

use std::path::Path;

use crate::common::{canary_reply, third_party, toolgate};

/// Every file under `dir`, with its text (binary files skipped).
fn texts(dir: &Path, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            texts(&p, out);
        } else if let Ok(t) = std::fs::read_to_string(&p) {
            out.push((p.display().to_string(), t));
        }
    }
}

fn run_ci(
    dir: &Path,
    server: &str,
    extra: &[&str],
) -> (std::process::Output, Vec<(String, String)>) {
    let o = toolgate()
        .current_dir(dir)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_OUTPUT", dir.join("gh-output"))
        .env("GITHUB_STEP_SUMMARY", dir.join("gh-summary"))
        .args([
            "ci",
            "--server",
            server,
            "--comment",
            "false",
            "--out",
            "out",
        ])
        .args(["--badge", "badge.svg", "--lock-check", "off"])
        .args(extra)
        .output()
        .unwrap();
    let mut files = Vec::new();
    texts(dir, &mut files);
    files.push(("stdout".into(), String::from_utf8_lossy(&o.stdout).into()));
    files.push(("stderr".into(), String::from_utf8_lossy(&o.stderr).into()));
    (o, files)
}

#[test]
fn a_search_is_never_called_tool_accuracy_in_any_sink() {
    let dir = tempfile::tempdir().unwrap();
    let memory = third_party("npm/node_modules/.bin/mcp-server-memory");
    let (o, files) = run_ci(dir.path(), &memory, &[]);
    assert_eq!(o.status.code(), Some(0), "{files:?}");
    // The sinks this test reads all exist.
    for want in [
        "out/ci.json",
        "out/summary.md",
        "out/junit.xml",
        "out/run/report.md",
        "out/run/report.html",
        "out/run/run.json",
        "badge.svg",
        "gh-output",
        "gh-summary",
    ] {
        assert!(
            files.iter().any(|(p, _)| p.ends_with(want)),
            "{want} was not written"
        );
    }
    for (path, text) in &files {
        assert!(
            !text.to_lowercase().contains("tool accuracy"),
            "{path} calls a bm25 score tool accuracy"
        );
    }
    let output = std::fs::read_to_string(dir.path().join("gh-output")).unwrap();
    assert!(output.contains("metric=findability@1"), "{output}");
    // Issue 43 point 3: the suite was generated, never approved: a smoke test in the step
    // outputs and the log too.
    assert!(output.contains("suite=smoke"), "{output}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("(smoke: the suite is not reviewed)"),
        "{stdout}"
    );
    let summary = std::fs::read_to_string(dir.path().join("gh-summary")).unwrap();
    assert!(summary.contains("findability@1"), "{summary}");
    let badge = std::fs::read_to_string(dir.path().join("badge.svg")).unwrap();
    assert!(badge.contains("findability@1 (bm25)"), "{badge}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_model_that_chooses_is_tool_accuracy() {
    use wiremock::{Mock, MockServer, Request, ResponseTemplate, matchers::method};
    let server = MockServer::start().await;
    // Answers the description canary as a model that reads descriptions would, and every task
    // with a call of the first tool it was offered.
    Mock::given(method("POST"))
        .respond_with(|req: &Request| {
            if let Some(reply) = canary_reply(&req.body) {
                return ResponseTemplate::new(200).set_body_string(reply);
            }
            let body: serde_json::Value = serde_json::from_slice(&req.body).unwrap_or_default();
            let name = body["tools"][0]["function"]["name"].as_str().unwrap_or("x").to_string();
            ResponseTemplate::new(200).set_body_json(serde_json::json!({"id": "c", "model": "m",
                "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": "{}"}}]}}],
                "usage": {"prompt_tokens": 50, "completion_tokens": 5}}))
        })
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let memory = third_party("npm/node_modules/.bin/mcp-server-memory");
    let url = format!("{}/v1", server.uri());
    let d = dir.path().to_path_buf();
    let (o, _) = tokio::task::spawn_blocking(move || {
        run_ci(
            &d,
            &memory,
            &["-m", "openai-compat:m", "--base-url", &url, "--no-cache"],
        )
    })
    .await
    .unwrap();
    let summary = std::fs::read_to_string(dir.path().join("out/summary.md")).unwrap();
    assert!(
        summary.contains("tool accuracy") && !summary.contains("findability@1 "),
        "{}\n{summary}",
        String::from_utf8_lossy(&o.stderr)
    );
    let output = std::fs::read_to_string(dir.path().join("gh-output")).unwrap();
    assert!(output.contains("metric=tool accuracy"), "{output}");
}

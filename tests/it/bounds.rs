//! Issue 25 point 5: extreme numbers on the command line are refused or capped, never a
//! panic: each flag that takes a number gets the largest value its type holds (and past it),
//! zero, a negative and a non-finite one.

use crate::common::{fixture, toolgate};

fn never_panics(args: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = toolgate()
        .current_dir(dir.path())
        .args(args)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.code().is_some_and(|c| c <= 2) && !stderr.contains("panicked"),
        "{args:?}: {:?}\n{stderr}",
        out.status.code()
    );
}

#[test]
fn extreme_numeric_flags_are_refused_or_capped_never_a_panic() {
    let catalog = fixture("example/after.json");
    let tasks = fixture("example/tasks.jsonl");
    let huge = [
        "18446744073709551615",
        "18446744073709551616",
        "9223372036854775807",
        "0",
        "-1",
        "1e308",
        "NaN",
        "inf",
    ];
    for v in huge {
        for flag in [
            "--per-tool",
            "--near-miss",
            "--no-tool",
            "--seed",
            "--heldout",
        ] {
            never_panics(&["generate", &catalog, "-o", "t.jsonl", flag, v]);
        }
        for flag in [
            "--concurrency",
            "--trials",
            "--max-steps",
            "--max-calls",
            "--timeout",
            "--retries",
            "--seed",
            "--connect-timeout",
            "--max-pages",
        ] {
            never_panics(&["run", &catalog, "-t", &tasks, "--out", "r", flag, v]);
        }
        for flag in [
            "--fail-under",
            "--alpha",
            "--max-drop",
            "--max-error-rate",
            "--full-every",
        ] {
            never_panics(&[
                "ci",
                "--no-github",
                "--server",
                &catalog,
                "--tasks",
                &tasks,
                flag,
                v,
            ]);
        }
    }
}

/// Issue 42 point 6: a catalog past the tool limit stops with the limit named: a snapshot, and
/// a live server paging its tools (toolgate stops at the page that passes the limit).
#[test]
fn a_catalog_past_the_tool_limit_stops_with_the_limit_named() {
    let dir = tempfile::tempdir().unwrap();
    let tools: Vec<serde_json::Value> = (0..21_000)
        .map(|i| {
            serde_json::json!({"name": format!("tool_{i}"), "description": "Does one thing.",
                "inputSchema": {"type": "object"}})
        })
        .collect();
    let snap = dir.path().join("big.json");
    std::fs::write(&snap, serde_json::json!({ "tools": tools }).to_string()).unwrap();
    let server = format!(
        "python3 {} {} --page-size 7000",
        fixture("servers/fakemcp.py"),
        snap.display()
    );
    for target in [snap.display().to_string(), server] {
        let out = toolgate()
            .current_dir(dir.path())
            .args(["inspect", &target])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{target}: {err}");
        assert!(err.contains("at most 20000 tools"), "{target}: {err}");
    }
}

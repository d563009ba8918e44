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

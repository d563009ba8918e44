//! What a user sees at the edges: closed pipes end quietly, errors carry a `help:` line, and
//! the PR comment and job summary (the product's face) are pinned by snapshots.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::common::{fixture, py_server, toolgate};

/// Runs toolgate with stdout read for one line only, then closed, like `toolgate … | head -1`.
fn first_line_then_close(args: &[&str]) -> (Option<i32>, String) {
    let bin = assert_cmd::cargo::cargo_bin("toolgate");
    let mut child = Command::new(bin)
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    // Read the first byte, then hang up, so every later write hits a closed pipe.
    let _ = out.read(&mut byte);
    drop(out);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code(), err)
}

#[test]
fn a_closed_stdout_never_panics() {
    for args in [
        vec!["rules"],
        vec!["lint", &fixture("example/before.json")],
        vec!["inspect", &fixture("example/after.json")],
    ] {
        let (code, err) = first_line_then_close(&args);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            matches!(code, Some(0) | Some(1)),
            "{args:?} exited {code:?}: {err}"
        );
    }
}

fn stderr_of(args: &[&str], dir: &std::path::Path) -> (Option<i32>, String) {
    let o = toolgate().current_dir(dir).args(args).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn errors_a_user_can_fix_say_how() {
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = stderr_of(&["inspect", "no-such-program-xyz --flag"], dir.path());
    assert_eq!(code, Some(2));
    assert!(err.contains("\nhelp: ") && err.contains("PATH"), "{err}");

    std::fs::write(
        dir.path().join("t.jsonl"),
        "{\"id\":\"a\",\"request\":\"x\",\"kind\":\"no_tool\"}\n{oops\n",
    )
    .unwrap();
    let (code, err) = stderr_of(
        &["run", &fixture("example/after.json"), "-t", "t.jsonl"],
        dir.path(),
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("help: fix line 2 of t.jsonl"), "{err}");

    std::fs::write(dir.path().join("toolgate.toml"), "[ci]\nfail_undr = 0.5\n").unwrap();
    let (code, err) = stderr_of(&["inspect", &fixture("example/after.json")], dir.path());
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown key `fail_undr` (line 2)"), "{err}");
    assert!(err.contains("help: remove or rename `fail_undr`"), "{err}");
    std::fs::remove_file(dir.path().join("toolgate.toml")).unwrap();

    let (code, err) = stderr_of(&["inspect"], dir.path());
    assert_eq!(code, Some(2));
    assert!(err.contains("help: e.g."), "{err}");
}

#[test]
fn words_after_a_double_dash_are_the_server_command() {
    let script = fixture("servers/fakemcp.py");
    let after = fixture("example/after.json");
    toolgate()
        .args(["inspect", "--", "python3", &script, &after])
        .assert()
        .success()
        .stdout(predicates::str::contains("book_room"));
}

/// Replaces what changes from machine to machine and version to version.
fn redact(text: &str, work: &std::path::Path) -> String {
    let mut t = text.replace(&work.display().to_string(), "<work>");
    t = t.replace(&crate::common::root().display().to_string(), "<repo>");
    t = t.replace(env!("CARGO_PKG_VERSION"), "<version>");
    let hash = regex::Regex::new(r"\b[0-9a-f]{12,64}\b").unwrap();
    hash.replace_all(&t, "<sha>").into_owned()
}

/// The bundled example's `toolgate ci` with a base and without, as the PR comment renders.
#[test]
fn the_comment_and_summary_are_pinned() {
    for (name, base) in [("with-base", true), ("without-base", false)] {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = toolgate();
        cmd.current_dir(dir.path()).args([
            "ci",
            "--server",
            &py_server("fakemcp.py", &fixture("example/after.json")),
            "--tasks",
            &fixture("example/tasks.jsonl"),
            "--lock",
            &fixture("example/toolgate.lock"),
            "--out",
            "out",
            "--comment",
            "true",
        ]);
        if base {
            cmd.args(["--base", &fixture("example/toolgate-baseline.json")]);
        }
        cmd.assert().success();
        let summary = std::fs::read_to_string(dir.path().join("out/summary.md")).unwrap();
        let comment = std::fs::read_to_string(dir.path().join("out/comment.md")).unwrap();
        assert!(
            comment.ends_with(&summary),
            "the comment is the summary after its marker"
        );
        insta::assert_snapshot!(format!("summary-{name}"), redact(&summary, dir.path()));
        insta::assert_snapshot!(format!("comment-{name}"), redact(&comment, dir.path()));
        for (file, path) in [("ci-json", "out/ci.json"), ("run-json", "out/run/run.json")] {
            let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            insta::assert_json_snapshot!(format!("{file}-{name}"), steady(value, dir.path()));
        }
    }
}

/// Keys whose values change from run to run (clocks, durations, the machine).
const VOLATILE: &[&str] = &[
    "created",
    "started",
    "finished",
    "started_at",
    "finished_at",
    "elapsed_ms",
    "elapsed_secs",
    "wall_ms",
    "duration_ms",
    "latency_ms",
    "host",
    "seal",
];

/// A ci.json or run.json with what changes between machines and runs redacted: the volatile
/// keys' values, and in every string the work folder, the repository, the version and hashes.
fn steady(v: serde_json::Value, work: &std::path::Path) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::String(s) => Value::String(redact(&s, work)),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| steady(x, work)).collect()),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, x)| {
                    let x = if VOLATILE.contains(&k.as_str()) && !x.is_null() {
                        Value::String("<varies>".into())
                    } else {
                        steady(x, work)
                    };
                    (k, x)
                })
                .collect(),
        ),
        other => other,
    }
}

/// `toolgate ci` over the bundled example with `extra` flags, in a fresh folder: the job
/// summary, the PR comment and the run's report.md, redacted.
fn ci_surface(extra: &[&str]) -> (String, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = toolgate();
    cmd.current_dir(dir.path()).args([
        "ci",
        "--server",
        &py_server("fakemcp.py", &fixture("example/after.json")),
        "--tasks",
        &fixture("example/tasks.jsonl"),
        "--lock",
        &fixture("example/toolgate.lock"),
        "--out",
        "out",
        "--comment",
        "true",
    ]);
    cmd.args(extra).assert().success();
    let read = |p: &str| {
        redact(
            &std::fs::read_to_string(dir.path().join(p)).unwrap(),
            dir.path(),
        )
    };
    (
        read("out/summary.md"),
        read("out/comment.md"),
        read("out/run/report.md"),
    )
}

/// Every variant of the comment and summary the ci stage renders (a belt with its distractor
/// curve, an incremental run, a fan-in of shards), and the run reports, pinned.
#[test]
fn every_comment_variant_and_the_run_reports_are_pinned() {
    let base = fixture("example/toolgate-baseline.json");
    let (summary, comment, report) = ci_surface(&[
        "--belt",
        "ecosystem",
        "--curve-sizes",
        "0,5,20",
        "--lock-check",
        "warn",
    ]);
    insta::assert_snapshot!("summary-belt-curve", summary);
    insta::assert_snapshot!("comment-belt-curve", comment);
    insta::assert_snapshot!("report-md-belt-curve", report);

    let (summary, comment, _) = ci_surface(&["--base", &base, "--incremental"]);
    insta::assert_snapshot!("summary-incremental", summary);
    insta::assert_snapshot!("comment-incremental", comment);

    // Two shards, then the fan-in that gates, comments and reports.
    let dir = tempfile::tempdir().unwrap();
    for k in ["1/2", "2/2"] {
        let out = format!("shard-{}", &k[..1]);
        toolgate()
            .current_dir(dir.path())
            .args([
                "ci",
                "--server",
                &py_server("fakemcp.py", &fixture("example/after.json")),
                "--tasks",
                &fixture("example/tasks.jsonl"),
                "--out",
                &out,
                "--shard",
                k,
            ])
            .assert()
            .success();
    }
    toolgate()
        .current_dir(dir.path())
        .args([
            "ci",
            "--tasks",
            &fixture("example/tasks.jsonl"),
            "--lock",
            &fixture("example/toolgate.lock"),
            "--base",
            &base,
            "--out",
            "out",
            "--comment",
            "true",
            "--merge",
            "shard-1",
            "shard-2",
        ])
        .assert()
        .success();
    let read = |p: &str| {
        redact(
            &std::fs::read_to_string(dir.path().join(p)).unwrap(),
            dir.path(),
        )
    };
    insta::assert_snapshot!("summary-merged-shards", read("out/summary.md"));
    insta::assert_snapshot!("comment-merged-shards", read("out/comment.md"));
    insta::assert_snapshot!("report-md", read("out/run/report.md"));

    // The terminal report of a run.
    let o = toolgate()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .args([
            "run",
            &py_server("fakemcp.py", &fixture("example/after.json")),
            "-t",
            &fixture("example/tasks.jsonl"),
            "--out",
            "run",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    insta::assert_snapshot!(
        "terminal-report",
        redact(&String::from_utf8_lossy(&o.stdout), dir.path())
    );
}

/// What machine-readable files say, pinned whole: ci.json (its run embedded) and run.json,
/// with a base comparison, the belt, the distractor curve and the ablation, so a change to
/// any type they carry shows here; and ci.json's short form when toolgate could not run.
#[test]
fn ci_json_and_run_json_are_pinned() {
    let dir = tempfile::tempdir().unwrap();
    toolgate()
        .current_dir(dir.path())
        .args([
            "ci",
            "--server",
            &py_server("fakemcp.py", &fixture("example/after.json")),
            "--tasks",
            &fixture("example/tasks.jsonl"),
            "--lock",
            &fixture("example/toolgate.lock"),
            "--base",
            &fixture("example/toolgate-baseline.json"),
            "--out",
            "out",
            "--belt",
            "ecosystem",
            "--curve-sizes",
            "0,5",
            "--ablation",
            "true",
            "--lock-check",
            "warn",
        ])
        .assert()
        .success();
    // Times are the one thing a rerun changes.
    let time = regex::Regex::new(r#""(created|finished)": "[^"]*""#).unwrap();
    let read = |p: &str| {
        let text = std::fs::read_to_string(dir.path().join(p)).unwrap();
        let text = redact(&text, dir.path());
        time.replace_all(&text, "\"$1\": \"<time>\"").into_owned()
    };
    insta::assert_snapshot!("ci-json", read("out/ci.json"));
    insta::assert_snapshot!("run-json", read("out/run/run.json"));

    let o = toolgate()
        .current_dir(dir.path())
        .args(["ci", "--server", "no-such-program-xyz", "--out", "err"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("ci-json-error", read("err/ci.json"));
}

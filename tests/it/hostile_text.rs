//! Text from a hostile server in every Markdown output (lint --format markdown, report.md, the
//! PR comment and job summary) stays text: no live link, image, mention or HTML survives.
//! Also: one run directory is never written by two processes at once, and a repeated
//! prediction line is scored once.

use crate::common::{fixture, toolgate};

/// The Markdown outside inline code spans and fenced blocks (inside them nothing is live).
fn outside_code(md: &str) -> String {
    let mut out = String::new();
    let mut in_fence: Option<String> = None;
    for line in md.lines() {
        let t = line.trim_start();
        if let Some(f) = &in_fence {
            if t.starts_with(f.as_str()) && t.trim_end().chars().all(|c| c == '`') {
                in_fence = None;
            }
            continue;
        }
        if t.starts_with("```") {
            in_fence = Some(t.chars().take_while(|c| *c == '`').collect());
            continue;
        }
        // Inline code spans: a run of n backticks up to the next run of exactly n.
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] == '`' {
                let n = chars[i..].iter().take_while(|c| **c == '`').count();
                let mut j = i + n;
                let mut closed = None;
                while j < chars.len() {
                    if chars[j] == '`' {
                        let m = chars[j..].iter().take_while(|c| **c == '`').count();
                        if m == n {
                            closed = Some(j + m);
                            break;
                        }
                        j += m;
                    } else {
                        j += 1;
                    }
                }
                match closed {
                    Some(end) => {
                        out.push_str(" <code> ");
                        i = end;
                    }
                    None => {
                        out.extend(&chars[i..i + n]);
                        i += n;
                    }
                }
            } else {
                out.push(chars[i]);
                i += 1;
            }
        }
        out.push('\n');
    }
    out
}

fn assert_inert(what: &str, md: &str) {
    let live = outside_code(md);
    for bad in [
        "](http://a.b",
        "](http://e.vil",
        "](javascript",
        "![",
        "@octocat",
        "<img",
        "<!--",
        "http://a.b",
        "https://e.vil",
        "www.e.vil",
    ] {
        assert!(
            !live.contains(bad),
            "{what}: `{bad}` survives as Markdown in:\n{live}"
        );
    }
}

#[test]
fn hostile_text_is_inert_in_every_markdown_output() {
    let dir = tempfile::tempdir().unwrap();
    let cat = fixture("catalogs/hostile-markdown.json");
    let o = toolgate()
        .current_dir(dir.path())
        .args(["lint", &cat, "--format", "markdown"])
        .output()
        .unwrap();
    assert_inert(
        "lint --format markdown",
        &String::from_utf8_lossy(&o.stdout),
    );

    // ci with generated tasks: the comment, the summary and the nested run report.
    let o = toolgate()
        .current_dir(dir.path())
        .args([
            "ci",
            "--server",
            &cat,
            "--lock-check",
            "off",
            "--lint-fail-on",
            "never",
        ])
        .args(["--out", "out", "--comment", "true", "--max-error-rate", "1"])
        .output()
        .unwrap();
    assert!(
        o.status.code().is_some_and(|c| c < 2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for f in ["out/comment.md", "out/summary.md", "out/run/report.md"] {
        let text = std::fs::read_to_string(dir.path().join(f)).unwrap();
        // toolgate's own hidden marker is the one comment allowed.
        let text: String = text
            .lines()
            .filter(|l| !l.starts_with("<!-- toolgate:comment "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(text.contains("octocat"), "{f} shows the tool at all");
        assert_inert(f, &text);
    }
}

#[test]
fn one_run_directory_is_never_written_by_two_processes() {
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &str| {
        toolgate()
            .current_dir(dir.path())
            .args([
                "run",
                &fixture("example/after.json"),
                "-t",
                &fixture("example/tasks.jsonl"),
            ])
            .args(["--out", out])
            .output()
            .unwrap()
    };
    assert!(run("r").status.success());
    // Hold the directory's lock as another toolgate would, then resume.
    let lock = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.path().join("r/.lock"))
        .unwrap();
    use std::os::fd::AsRawFd;
    assert_eq!(
        unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
    let o = toolgate()
        .current_dir(dir.path())
        .args(["run", "--resume", "r"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("in use by another toolgate process"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    drop(lock);

    // A repeated prediction line (an interrupted or concurrent writer) is scored once.
    let preds = dir.path().join("r/predictions.jsonl");
    let text = std::fs::read_to_string(&preds).unwrap();
    let first = text.lines().next().unwrap().to_string();
    std::fs::write(&preds, format!("{text}{first}\n")).unwrap();
    let o = toolgate()
        .current_dir(dir.path())
        .args(["run", "--resume", "r"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r/run.json")).unwrap())
            .unwrap();
    assert_eq!(
        run["results"][0]["metrics"]["n"], 130,
        "n counts each task once"
    );

    // Two runs started in the same second get directories of their own.
    let a = run_default(dir.path());
    let b = run_default(dir.path());
    assert_ne!(a, b);
}

fn run_default(dir: &std::path::Path) -> String {
    let o = toolgate()
        .current_dir(dir)
        .args([
            "run",
            &fixture("example/after.json"),
            "-t",
            &fixture("example/tasks.jsonl"),
        ])
        .args(["--label", "same"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    err.lines()
        .find_map(|l| l.split("run directory ").nth(1))
        .unwrap()
        .to_string()
}

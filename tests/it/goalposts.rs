//! Issue 25 point 1: a pull request cannot move its own goalposts. A git repository whose base
//! commit holds the reviewed project (the example's good server, its lock, tasks, baseline and
//! toolgate.toml); each pull request makes the server worse and tries one of the seven ways
//! to make it pass anyway. Each must fail the gate or be named in the comment's "Gate settings
//! changed in this PR" section, with the base's value kept where the PR's would loosen it.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::common::{fixture, read_json, toolgate};

pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
        .args(args)
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

pub(crate) fn server(catalog: &str) -> String {
    format!("python3 {} {catalog}", fixture("servers/fakemcp.py"))
}

const TOML: &str = r#"server = "SERVER"
lock = "toolgate.lock"

[ci]
tasks = "tasks.jsonl"
models = ["bm25"]
fail_under = 0.45
lint_fail_on = "error"
lock_check = "fail"
base = "toolgate-baseline.json"
"#;

/// The base commit: the good server (after.json) and everything reviewed with it.
pub(crate) fn base_repo(dir: &Path) -> String {
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::copy(fixture("example/after.json"), dir.join("catalog.json")).unwrap();
    std::fs::copy(fixture("example/tasks.jsonl"), dir.join("tasks.jsonl")).unwrap();
    let toml = TOML.replace("SERVER", &server("catalog.json"));
    std::fs::write(dir.join("toolgate.toml"), toml).unwrap();
    toolgate().current_dir(dir).args(["pin"]).assert().success();
    toolgate()
        .current_dir(dir)
        .args(["ci", "--no-github"])
        .args(["--write-baseline", "toolgate-baseline.json", "--out"])
        .arg(dir.join("base-out"))
        .assert()
        .success();
    std::fs::remove_dir_all(dir.join("base-out")).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "base"]);
    git(dir, &["rev-parse", "HEAD"])
}

/// Runs `toolgate ci` as the pull request's workflow would; returns the exit code, ci.json
/// and summary.md.
fn pr_ci(dir: &Path, base_sha: &str, labels: &[&str], extra: &[&str]) -> (i32, Value, String) {
    pr_ci_with(dir, base_sha, labels, json!({}), &[], extra)
}

/// [`pr_ci`] with more of the event (`action`, `label`, `sender`) and more variables.
pub(crate) fn pr_ci_with(
    dir: &Path,
    base_sha: &str,
    labels: &[&str],
    event_extra: Value,
    env: &[(&str, &str)],
    extra: &[&str],
) -> (i32, Value, String) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", "pr"]);
    let head = git(dir, &["rev-parse", "HEAD"]);
    let event = dir.join("../event.json");
    let labels: Vec<Value> = labels.iter().map(|l| json!({"name": l})).collect();
    let mut ev = json!({"number": 1, "pull_request": {"number": 1, "labels": labels,
        "user": {"login": "author"},
        "head": {"sha": head, "repo": {"full_name": "o/r", "fork": false}},
        "base": {"sha": base_sha, "repo": {"full_name": "o/r"}}}});
    if let (Some(e), Some(more)) = (ev.as_object_mut(), event_extra.as_object()) {
        e.extend(more.clone());
    }
    std::fs::write(&event, ev.to_string()).unwrap();
    let out_dir = dir.join("../out");
    let _ = std::fs::remove_dir_all(&out_dir);
    let out = toolgate()
        .current_dir(dir)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_EVENT_NAME", "pull_request")
        .env("GITHUB_EVENT_PATH", &event)
        .env("GITHUB_REPOSITORY", "o/r")
        .envs(env.iter().copied())
        .args(["ci", "--comment", "false", "--out"])
        .arg(&out_dir)
        .args(extra)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    let report = read_json(&out_dir.join("ci.json"));
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap_or_default();
    (code, report, summary)
}

fn change<'a>(report: &'a Value, setting: &str) -> &'a Value {
    report["settings"]["changes"]
        .as_array()
        .unwrap_or_else(|| panic!("no settings section: {report:#}"))
        .iter()
        .find(|c| c["setting"] == setting)
        .unwrap_or_else(|| panic!("{setting} not named: {:#}", report["settings"]))
}

fn set_toml(dir: &Path, from: &str, to: &str) {
    let p = dir.join("toolgate.toml");
    let t = std::fs::read_to_string(&p).unwrap();
    assert!(t.contains(from), "{from} not in toolgate.toml");
    std::fs::write(&p, t.replace(from, to)).unwrap();
}

/// The pull request's change to the server: the example's worse catalog.
pub(crate) fn worsen(dir: &Path) {
    std::fs::copy(fixture("example/before.json"), dir.join("catalog.json")).unwrap();
}

pub(crate) struct Repo {
    _tmp: tempfile::TempDir,
    pub(crate) dir: std::path::PathBuf,
    pub(crate) base: String,
}

pub(crate) fn repo() -> Repo {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    std::fs::create_dir(&dir).unwrap();
    let base = base_repo(&dir);
    Repo {
        _tmp: tmp,
        dir,
        base,
    }
}

#[test]
fn an_unchanged_pull_request_has_no_settings_section() {
    let r = repo();
    let (code, report, summary) = pr_ci(&r.dir, &r.base, &[], &[]);
    assert_eq!(code, 0, "{report:#}");
    assert!(
        report["settings"]["changes"].is_null(),
        "{:#}",
        report["settings"]
    );
    assert!(!summary.contains("Gate settings changed"));
    // The baseline this run wrote records the policy it was judged under, and against what.
    let written = read_json(&r.dir.join("../out/baseline.json"));
    assert_eq!(written["policy"]["checked_against"], r.base.as_str());
    assert_eq!(written["policy"]["fail_under"], 0.45);
    assert_eq!(written["policy"]["models"], json!(["bm25"]));
}

#[test]
fn repin_swapped_baseline_and_threshold_zero_are_named_and_the_base_threshold_holds() {
    let r = repo();
    worsen(&r.dir);
    toolgate()
        .current_dir(&r.dir)
        .args(["pin"])
        .assert()
        .success();
    set_toml(&r.dir, "fail_under = 0.45", "fail_under = 0.0");
    toolgate()
        .current_dir(&r.dir)
        .args([
            "ci",
            "--no-github",
            "--fail-under",
            "0",
            "--lock-check",
            "off",
        ])
        .args(["--write-baseline", "toolgate-baseline.json", "--out"])
        .arg(r.dir.join("../swap-out"))
        .output()
        .unwrap();
    let (code, report, summary) = pr_ci(&r.dir, &r.base, &[], &[]);
    assert_eq!(change(&report, "ci.fail_under")["applied"], "base");
    let lock = change(&report, "toolgate.lock");
    assert!(
        lock["head"]
            .as_str()
            .unwrap()
            .contains("re-pinned in this PR"),
        "{lock:#}"
    );
    assert_eq!(change(&report, "toolgate-baseline.json")["applied"], "base");
    assert!(
        summary.contains("Gate settings changed in this PR"),
        "{summary}"
    );
    assert_eq!(code, 1, "the worse server passed: {:#}", report["reasons"]);
    // A label that was there before this push does not cover it.
    let (code, report, _) = pr_ci(&r.dir, &r.base, &["toolgate-accept-settings"], &[]);
    assert_eq!(change(&report, "ci.fail_under")["applied"], "base");
    assert_eq!(code, 1);
    let notes = report["settings"]["notes"].to_string();
    assert!(notes.contains("added before this commit"), "{notes}");
}

/// The override counts only on its own `labeled` event, from someone other than the author
/// whom the API says may merge.
#[tokio::test(flavor = "multi_thread")]
async fn the_override_label_counts_only_from_a_maintainer_on_its_own_event() {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let api = MockServer::start().await;
    for (login, role) in [("maint", "maintain"), ("helper", "triage")] {
        Mock::given(method("GET"))
            .and(path(format!("/repos/o/r/collaborators/{login}/permission")))
            .respond_with(ResponseTemplate::new(200).set_body_json(
                json!({"permission": "read", "role_name": role, "user": {"login": login}}),
            ))
            .mount(&api)
            .await;
    }
    let r = repo();
    worsen(&r.dir);
    set_toml(&r.dir, "fail_under = 0.45", "fail_under = 0.0");
    let uri = api.uri();
    let env = [
        ("GITHUB_API_URL", uri.as_str()),
        ("GITHUB_TOKEN", "ghs_test"),
    ];
    let labeled = |sender: &str| {
        json!({"action": "labeled", "label": {"name": "toolgate-accept-settings"},
            "sender": {"login": sender}})
    };
    let label = &["toolgate-accept-settings"];
    // The author labels their own pull request: not an override.
    let (code, report, _) = pr_ci_with(&r.dir, &r.base, label, labeled("author"), &env, &[]);
    assert_eq!(change(&report, "ci.fail_under")["applied"], "base");
    assert!(report["settings"]["notes"].to_string().contains("author"));
    assert_eq!(code, 1);
    // Someone who may label but not merge: not an override.
    let (code, report, _) = pr_ci_with(&r.dir, &r.base, label, labeled("helper"), &env, &[]);
    assert_eq!(change(&report, "ci.fail_under")["applied"], "base");
    assert!(report["settings"]["notes"].to_string().contains("triage"));
    assert_eq!(code, 1);
    // A maintainer, on the label's own event: the PR's values apply, and the section says so.
    let (_, report, _) = pr_ci_with(&r.dir, &r.base, label, labeled("maint"), &env, &[]);
    assert_eq!(change(&report, "ci.fail_under")["applied"], "override");
    assert!(report["settings"]["notes"].to_string().contains("@maint"));
}

/// Unchecked settings are no evidence: a base revision that cannot be read stops the gate.
#[test]
fn a_base_revision_that_cannot_be_read_is_not_a_pass() {
    let r = repo();
    let (code, report, _) = pr_ci(&r.dir, "0123456789abcdef0123456789abcdef01234567", &[], &[]);
    assert_eq!(code, 2, "{report:#}");
    let err = report.to_string();
    assert!(
        err.contains("could not be checked against its base revision"),
        "{err}"
    );
    assert!(err.contains("git"), "git's own words are shown: {err}");
}

/// A baseline git does not track (downloaded by the workflow) is used as it is; a replay log
/// the pull request rewrote stops the gate.
#[test]
fn git_decides_what_came_from_the_pull_request() {
    let r = repo();
    // The workflow downloads the default branch's baseline outside the tree.
    // The path is reviewed (in the base revision's toolgate.toml); the file is not tracked.
    let downloaded = r.dir.join("../downloaded-baseline.json");
    std::fs::copy(r.dir.join("toolgate-baseline.json"), &downloaded).unwrap();
    set_toml(
        &r.dir,
        "base = \"toolgate-baseline.json\"",
        "base = \"../downloaded-baseline.json\"",
    );
    git(&r.dir, &["commit", "-q", "-am", "downloaded baseline"]);
    let base = git(&r.dir, &["rev-parse", "HEAD"]);
    let (code, report, _) = pr_ci(&r.dir, &base, &[], &[]);
    assert_eq!(code, 0, "{:#}", report["reasons"]);
    assert!(
        report["settings"].is_null()
            || report["settings"]["changes"]
                .as_array()
                .is_none_or(|c| c.is_empty()),
        "{:#}",
        report["settings"]
    );
    // A committed replay log, rewritten in the pull request.
    let tasks = std::fs::read_to_string(r.dir.join("tasks.jsonl")).unwrap();
    // The base's log calls nothing; the rewritten one gives every expected answer.
    let line = |perfect: bool| -> String {
        tasks
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .map(|t| {
                let tool = if perfect {
                    t["expected"]["tool"].clone()
                } else {
                    Value::Null
                };
                json!({"task_id": t["id"], "tool": tool}).to_string() + "\n"
            })
            .collect()
    };
    std::fs::write(r.dir.join("replay.jsonl"), line(false)).unwrap();
    set_toml(
        &r.dir,
        "models = [\"bm25\"]",
        "models = [\"replay:replay.jsonl\"]",
    );
    git(&r.dir, &["add", "-A"]);
    git(&r.dir, &["commit", "-q", "-m", "replay"]);
    let base = git(&r.dir, &["rev-parse", "HEAD"]);
    // Unchanged, the committed log is replayed (a failing score, not a stop).
    let (code, report, _) = pr_ci(&r.dir, &base, &[], &[]);
    assert_eq!(code, 1, "{report:#}");
    std::fs::write(r.dir.join("replay.jsonl"), line(true)).unwrap();
    let (code, report, _) = pr_ci(&r.dir, &base, &[], &[]);
    assert_eq!(code, 2, "{report:#}");
    assert!(
        report.to_string().contains("cannot rewrite the answers"),
        "{report:#}"
    );
}

#[test]
fn every_other_goalpost_move_is_named_with_the_base_value_kept() {
    type Edit = fn(&Path);
    let cases: [(&str, Edit, &str, &str); 6] = [
        (
            "lock check off, regression off",
            |d| {
                set_toml(
                    d,
                    "lock_check = \"fail\"",
                    "lock_check = \"off\"\nfail_on_regression = false",
                );
            },
            "ci.lock_check",
            "base",
        ),
        (
            "server is a committed snapshot of the good one",
            |d| {
                std::fs::copy(fixture("example/after.json"), d.join("good.json")).unwrap();
                let t = std::fs::read_to_string(d.join("toolgate.toml")).unwrap();
                let first = t.lines().next().unwrap().to_string();
                std::fs::write(
                    d.join("toolgate.toml"),
                    t.replace(&first, "server = \"good.json\""),
                )
                .unwrap();
            },
            "server",
            "base",
        ),
        (
            "pruned hard tasks",
            |d| {
                let t = std::fs::read_to_string(d.join("tasks.jsonl")).unwrap();
                let kept: Vec<&str> = t.lines().take(10).collect();
                std::fs::write(d.join("tasks.jsonl"), kept.join("\n") + "\n").unwrap();
            },
            "tasks.jsonl",
            "head",
        ),
        (
            "a committed replay model",
            |d| {
                std::fs::write(d.join("easy.jsonl"), "{}\n").unwrap();
                set_toml(d, "models = [\"bm25\"]", "models = [\"replay:easy.jsonl\"]");
            },
            "ci.models",
            "base",
        ),
        (
            "deleted lock and baseline",
            |d| {
                std::fs::remove_file(d.join("toolgate.lock")).unwrap();
                std::fs::remove_file(d.join("toolgate-baseline.json")).unwrap();
            },
            "toolgate-baseline.json",
            "base",
        ),
        (
            "a forged baseline (for --incremental)",
            |d| {
                let p = d.join("toolgate-baseline.json");
                let mut v: Value = read_json(&p);
                v["forged"] = json!(true);
                std::fs::write(&p, v.to_string()).unwrap();
            },
            "toolgate-baseline.json",
            "base",
        ),
    ];
    for (what, edit, setting, applied) in cases {
        let r = repo();
        worsen(&r.dir);
        edit(&r.dir);
        let (code, report, summary) = pr_ci(&r.dir, &r.base, &[], &["--incremental"]);
        let c = change(&report, setting);
        assert_eq!(c["applied"], applied, "{what}: {c:#}");
        assert!(
            summary.contains("Gate settings changed in this PR"),
            "{what}: {summary}"
        );
        assert_ne!(
            code, 0,
            "{what}: the worse server passed silently: {report:#}"
        );
    }
}

/// From review: a pull request that adds a nearer settings file (a toolgate.toml beside the
/// base's pyproject.toml `[tool.toolgate]`) is compared with the base's own settings, and a
/// response cache committed in the pull request is not read.
#[test]
fn a_new_settings_file_or_a_committed_cache_cannot_loosen_the_gate() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    std::fs::create_dir(&dir).unwrap();
    let r = base_repo(&dir);
    // The base keeps its settings in pyproject.toml instead.
    let toml = std::fs::read_to_string(dir.join("toolgate.toml")).unwrap();
    std::fs::write(
        dir.join("pyproject.toml"),
        format!(
            "[project]\nname = \"x\"\n\n[tool.toolgate]\n{}",
            toml.replace("[ci]", "[tool.toolgate.ci]")
        ),
    )
    .unwrap();
    std::fs::remove_file(dir.join("toolgate.toml")).unwrap();
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "settings in pyproject"]);
    let base = git(&dir, &["rev-parse", "HEAD"]);
    let _ = r;
    // The PR: a worse server, and a toolgate.toml (found first) with a lower threshold.
    worsen(&dir);
    std::fs::write(
        dir.join("toolgate.toml"),
        toml.replace("fail_under = 0.45", "fail_under = 0.01"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join(".toolgate-cache/forged")).unwrap();
    std::fs::write(dir.join(".toolgate-cache/forged/reply.json"), "{}").unwrap();
    let (code, report, _) = pr_ci(&dir, &base, &[], &[]);
    assert_eq!(
        change(&report, "settings file")["base"],
        "pyproject.toml",
        "{:#}",
        report["settings"]
    );
    assert_eq!(change(&report, "ci.fail_under")["applied"], "base");
    assert_eq!(code, 1, "the worse server passed: {:#}", report["reasons"]);
    let notes = report["settings"]["notes"].to_string();
    assert!(notes.contains("cached model replies"), "{notes}");
}

/// Issue 42 point 7: when the base's settings come from a parent folder (the pull request adds
/// a nearer toolgate.toml), the base's server command runs in the base's settings folder, as it
/// would on the base revision; it used to run in the pull request's and fail.
#[test]
fn the_base_server_runs_in_the_base_settings_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    std::fs::create_dir(&dir).unwrap();
    let base = base_repo(&dir);
    let pkg = dir.join("pkg");
    std::fs::create_dir(&pkg).unwrap();
    let toml = std::fs::read_to_string(dir.join("toolgate.toml")).unwrap();
    std::fs::write(
        pkg.join("toolgate.toml"),
        toml.replace("catalog.json", "../catalog.json")
            .replace("\"toolgate.lock\"", "\"../toolgate.lock\"")
            .replace("\"tasks.jsonl\"", "\"../tasks.jsonl\"")
            .replace(
                "\"toolgate-baseline.json\"",
                "\"../toolgate-baseline.json\"",
            )
            .replace("fail_under = 0.45", "fail_under = 0.01"),
    )
    .unwrap();
    let (code, report, _) = pr_ci_with(&pkg, &base, &[], json!({}), &[], &[]);
    assert_eq!(report["status"], "ok", "{report:#}");
    assert_eq!(code, 0, "{:#}", report["reasons"]);
    assert_eq!(
        change(&report, "settings file")["base"],
        "../toolgate.toml",
        "{:#}",
        report["settings"]
    );
    assert_eq!(change(&report, "ci.fail_under")["applied"], "base");
}

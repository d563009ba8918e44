//! `toolgate ci` end to end: the bundled example with a base, exit codes, flags from the
//! environment and toolgate.toml, the sticky pull-request comment against a mock GitHub REST
//! API, GitHub's summary and outputs, secrets, and real servers over stdio and HTTP.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::common::{HttpServer, fixture, mount_canary, third_party, toolgate};
use serde_json::{Value, json};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn example(f: &str) -> String {
    fixture(&format!("example/{f}"))
}

/// `toolgate ci` in `dir` with the example's tasks; returns the output.
fn ci(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = toolgate();
    cmd.current_dir(dir).arg("ci").args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn text(o: &std::process::Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A baseline made from the example's `before` catalog.
fn before_baseline(dir: &Path) -> PathBuf {
    let o = ci(
        dir,
        &[
            "--server",
            &example("before.json"),
            "--tasks",
            &example("tasks.jsonl"),
            "--lock-check",
            "off",
            "--out",
            "base-out",
            "--write-baseline",
            "baseline.json",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    dir.join("baseline.json")
}

fn accuracy(run: &Value) -> f64 {
    run["results"][0]["metrics"]["accuracy"]["value"]
        .as_f64()
        .unwrap()
}

#[test]
fn ci_on_the_example_compares_with_a_committed_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let base = before_baseline(dir.path());
    let o = ci(
        dir.path(),
        &[
            "--server",
            &example("after.json"),
            "--tasks",
            &example("tasks.jsonl"),
            "--lock",
            &example("toolgate.lock"),
            "--base",
            base.to_str().unwrap(),
            "--badge",
            "badge.svg",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = dir.path().join("toolgate-out");
    for f in [
        "ci.json",
        "summary.md",
        "lint.json",
        "lint.sarif",
        "baseline.json",
        "badge.svg",
        "run/run.json",
        "run/report.html",
        "run/outcomes.jsonl",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    assert!(dir.path().join("badge.svg").is_file());
    let before = accuracy(&read_json(&dir.path().join("base-out/run/run.json")));
    let after = accuracy(&read_json(&out.join("run/run.json")));
    let ci_json = read_json(&out.join("ci.json"));
    assert_eq!(ci_json["schema_version"], "toolgate.ci/v1");
    assert_eq!(ci_json["passed"], true);
    assert_eq!(ci_json["lock"]["status"], "match");
    let overall = &ci_json["comparison"]["models"][0]["overall"];
    assert!((overall["delta"].as_f64().unwrap() - (after - before)).abs() < 1e-9);
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    let delta = format!(
        "{}{:.1} pts",
        if after >= before { "+" } else { "−" },
        (after - before).abs() * 100.0
    );
    assert!(summary.contains(&delta), "{summary}");
    assert!(summary.contains(&format!("{:.1}%", after * 100.0)));
    assert!(summary.contains("Tools whose scores moved"), "{summary}");
    assert!(
        summary.contains("Resolved by this change"),
        "the rewritten descriptions resolve lint findings: {summary}"
    );
    assert!(summary.contains("@@ delete_event @@"), "definition diff");
    assert!(summary.contains("🔒"), "lock status");
    // The same verdict as `toolgate compare` on the two run directories.
    let cmp = toolgate()
        .args([
            "compare",
            dir.path().join("base-out/run").to_str().unwrap(),
            out.join("run").to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let cmp: Value = serde_json::from_slice(&cmp.stdout).unwrap();
    assert_eq!(cmp["schema_version"], "toolgate.compare/v1");
    assert_eq!(
        cmp["comparisons"][0]["overall"]["verdict"],
        overall["verdict"]
    );
    // A base output directory (a downloaded artifact) works like the baseline file.
    let o2 = ci(
        dir.path(),
        &[
            "--server",
            &example("after.json"),
            "--tasks",
            &example("tasks.jsonl"),
            "--lock-check",
            "off",
            "--base",
            "base-out",
            "--out",
            "out2",
        ],
        &[],
    );
    assert_eq!(o2.status.code(), Some(0), "{}", text(&o2));
    let c2 = read_json(&dir.path().join("out2/ci.json"));
    assert_eq!(
        c2["comparison"]["models"][0]["overall"]["delta"],
        overall["delta"]
    );
}

#[test]
fn a_base_from_another_task_suite_gets_a_note_not_deltas() {
    let dir = tempfile::tempdir().unwrap();
    let base = before_baseline(dir.path());
    let subset: String = std::fs::read_to_string(example("tasks.jsonl"))
        .unwrap()
        .lines()
        .take(40)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.path().join("subset.jsonl"), subset).unwrap();
    let o = ci(
        dir.path(),
        &[
            "--server",
            &example("after.json"),
            "--tasks",
            "subset.jsonl",
            "--lock-check",
            "off",
            "--base",
            base.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let summary = std::fs::read_to_string(dir.path().join("toolgate-out/summary.md")).unwrap();
    assert!(summary.contains("another task suite"), "{summary}");
    assert!(!summary.contains("paired test"), "{summary}");
    assert!(!summary.contains("Tools whose scores moved"));
    let c = read_json(&dir.path().join("toolgate-out/ci.json"));
    assert_eq!(c["comparison"]["comparable"], false);
}

#[test]
fn exit_codes_follow_the_gate_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let (after, before) = (example("after.json"), example("before.json"));
    let (tasks, lock) = (example("tasks.jsonl"), example("toolgate.lock"));
    let common = ["--server", after.as_str(), "--tasks", tasks.as_str()];
    // The lock was made from `after`; `before` differs: the gate fails, naming the lock.
    let mut args = vec!["--server", &before, "--tasks", &tasks, "--lock", &lock];
    let o = ci(dir.path(), &args, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("toolgate pin"));
    let c = read_json(&dir.path().join("toolgate-out/ci.json"));
    assert_eq!(c["lock"]["status"], "changed");
    assert_eq!(c["lock"]["diff"]["changed"].as_array().unwrap().len(), 12);
    // …unless the lock check only warns.
    args.extend(["--lock-check", "warn"]);
    let o = ci(dir.path(), &args, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // A score under --fail-under fails; the reason names the flag and the numbers.
    let mut args = common.to_vec();
    args.extend(["--lock-check", "off", "--fail-under", "0.99"]);
    let o = ci(dir.path(), &args, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let c = read_json(&dir.path().join("toolgate-out/ci.json"));
    assert!(
        c["reasons"][0]
            .as_str()
            .unwrap()
            .contains("--fail-under 99.0%")
    );
    // Lint warnings fail only when asked to.
    let mut args = vec![
        "--server",
        &before,
        "--tasks",
        &tasks,
        "--lock-check",
        "off",
    ];
    let o = ci(dir.path(), &args, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    args.extend(["--lint-fail-on", "warning"]);
    let o = ci(dir.path(), &args, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // A base that is not a baseline: exit 2, naming the file.
    std::fs::write(dir.path().join("junk.json"), "{\"hello\": 1}").unwrap();
    let mut args = common.to_vec();
    args.extend(["--lock-check", "off", "--base", "junk.json"]);
    let o = ci(dir.path(), &args, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("junk.json"));
    assert!(!text(&o).contains("panicked"));
    // A base that does not exist yet (the first run on a branch) is a notice, not a failure.
    let mut args = common.to_vec();
    args.extend(["--lock-check", "off", "--base", "nowhere/baseline.json"]);
    let o = ci(dir.path(), &args, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let summary = std::fs::read_to_string(dir.path().join("toolgate-out/summary.md")).unwrap();
    assert!(
        summary.contains("No base at nowhere/baseline.json"),
        "{summary}"
    );
    // No server anywhere: exit 2 with a hint.
    let o = ci(dir.path(), &[], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("toolgate.toml"));
}

#[test]
fn settings_come_from_flags_then_environment_then_toolgate_toml() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("toolgate.toml"),
        format!(
            "server = {:?}\n[ci]\ntasks = {:?}\nfail_under = 0.99\nlock_check = \"off\"\n",
            example("after.json"),
            example("tasks.jsonl")
        ),
    )
    .unwrap();
    // toolgate.toml alone: its fail_under fails the gate.
    let o = ci(dir.path(), &[], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // An environment variable overrides it; an empty one counts as unset.
    let o = ci(dir.path(), &[], &[("TOOLGATE_FAIL_UNDER", "0.1")]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = ci(dir.path(), &[], &[("TOOLGATE_FAIL_UNDER", "")]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // A flag overrides both.
    let o = ci(
        dir.path(),
        &["--fail-under", "0.1"],
        &[("TOOLGATE_FAIL_UNDER", "0.99")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Bad values name the flag or the key.
    let o = ci(dir.path(), &["--fail-under", "80"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("--fail-under"), "{}", text(&o));
    std::fs::write(
        dir.path().join("bad.toml"),
        "[ci]\nlint_fail_on = \"sometimes\"\n",
    )
    .unwrap();
    let o = ci(
        dir.path(),
        &["--config", "bad.toml", "--server", &example("after.json")],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("lint_fail_on"), "{}", text(&o));
}

#[test]
fn init_writes_a_config_ci_reads_and_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let o = toolgate()
        .current_dir(dir.path())
        .args(["init", "--server", &example("after.json")])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(dir.path().join(".github/workflows/toolgate.yml").is_file());
    // With a server, init writes a starter suite: no key and no local model server here, so
    // from templates, pending review, named in the config, with the way to approve it.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no provider key") && err.contains("written from templates"),
        "{err}"
    );
    assert!(err.contains("toolgate approve tasks.jsonl"), "{err}");
    let suite = std::fs::read_to_string(dir.path().join("tasks.jsonl")).unwrap();
    assert!(suite.lines().count() > 10);
    assert!(
        suite
            .lines()
            .all(|l| l.contains(r#""source":"template""#) && l.contains(r#""review":"pending""#)),
        "{suite}"
    );
    let config = std::fs::read_to_string(dir.path().join("toolgate.toml")).unwrap();
    assert!(config.contains("\ntasks = \"tasks.jsonl\"\n"), "{config}");
    // A second init, even with --force, never overwrites the task file (it may be reviewed).
    let o = toolgate()
        .current_dir(dir.path())
        .args(["init", "--force", "--server", &example("after.json")])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("init never overwrites a task file"),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("tasks.jsonl")).unwrap(),
        suite
    );
    // `ci` reads the config: the starter suite is a smoke test until approved.
    let o = ci(dir.path(), &["--lock-check", "off"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let summary = std::fs::read_to_string(dir.path().join("toolgate-out/summary.md")).unwrap();
    assert!(summary.contains("smoke test only"), "{summary}");
    let o = ci(
        dir.path(),
        &["--tasks", &example("tasks.jsonl"), "--lock-check", "off"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = toolgate()
        .current_dir(dir.path())
        .arg("init")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("--force"));
}

// ---------------------------------------------------------------------------------------
// A mock of the GitHub REST API, stateful: it keeps the pull request's comments.

fn user(login: &str, id: u64, kind: &str) -> Value {
    let enc = login.replace('[', "%5B").replace(']', "%5D");
    let api = format!("https://api.github.com/users/{enc}");
    json!({
        "login": login, "id": id, "node_id": format!("U_{id}"),
        "avatar_url": format!("https://avatars.githubusercontent.com/u/{id}"),
        "gravatar_id": "", "url": api, "html_url": format!("https://github.com/{enc}"),
        "followers_url": format!("{api}/followers"),
        "following_url": format!("{api}/following{{/other_user}}"),
        "gists_url": format!("{api}/gists{{/gist_id}}"),
        "starred_url": format!("{api}/starred{{/owner}}{{/repo}}"),
        "subscriptions_url": format!("{api}/subscriptions"),
        "organizations_url": format!("{api}/orgs"),
        "repos_url": format!("{api}/repos"),
        "events_url": format!("{api}/events{{/privacy}}"),
        "received_events_url": format!("{api}/received_events"),
        "type": kind, "site_admin": false
    })
}

fn comment(id: u64, login: &str, kind: &str, body: &str, stamp: &str) -> Value {
    json!({
        "id": id, "node_id": format!("IC_{id}"),
        "url": format!("https://api.github.com/repos/o/r/issues/comments/{id}"),
        "html_url": format!("https://github.com/o/r/pull/7#issuecomment-{id}"),
        "issue_url": "https://api.github.com/repos/o/r/issues/7",
        "body": body, "user": user(login, if kind == "Bot" { 41898282 } else { 1000 + id }, kind),
        "created_at": "2026-11-30T08:00:00Z", "updated_at": stamp,
        "author_association": "NONE"
    })
}

#[derive(Default)]
struct State {
    comments: Vec<Value>,
    next_id: u64,
    read_only: bool,
    /// (method, path, authorization header)
    log: Vec<(String, String, String)>,
    edits: u32,
}

#[derive(Clone)]
struct Github(Arc<Mutex<State>>);

impl Respond for Github {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let mut s = self.0.lock().unwrap();
        let path = req.url.path().to_string();
        let method = req.method.to_string();
        let auth = req
            .headers
            .get("authorization")
            .map(|v| v.to_str().unwrap_or_default().to_string())
            .unwrap_or_default();
        s.log.push((method.clone(), path.clone(), auth));
        let forbidden = ResponseTemplate::new(403).set_body_json(json!({
            "message": "Resource not accessible by integration",
            "documentation_url": "https://docs.github.com/rest"
        }));
        match (method.as_str(), path.as_str()) {
            ("GET", "/user") => forbidden,
            // The open pull requests of a head `owner:branch` (the comment job finds a fork's).
            ("GET", "/repos/o/r/pulls") => ResponseTemplate::new(200).set_body_json(json!([
                {"number": 7, "head": {"sha": "0123456789abcdef0123456789abcdef01234567"}}
            ])),
            ("GET", "/repos/o/r/issues/7/comments") => {
                ResponseTemplate::new(200).set_body_json(Value::Array(s.comments.clone()))
            }
            ("POST", "/repos/o/r/issues/7/comments") => {
                if s.read_only {
                    return forbidden;
                }
                let body: Value = serde_json::from_slice(&req.body).unwrap();
                s.next_id += 1;
                let id = 5000 + s.next_id;
                let c = comment(
                    id,
                    "github-actions[bot]",
                    "Bot",
                    body["body"].as_str().unwrap(),
                    "2026-11-30T09:00:00Z",
                );
                s.comments.push(c.clone());
                ResponseTemplate::new(201).set_body_json(c)
            }
            ("POST", p) if p.starts_with("/repos/o/r/issues/comments/") => {
                if s.read_only {
                    return forbidden;
                }
                let id: u64 = p.rsplit('/').next().unwrap().parse().unwrap();
                let body: Value = serde_json::from_slice(&req.body).unwrap();
                s.edits += 1;
                let stamp = format!("2026-11-30T10:{:02}:00Z", s.edits);
                match s.comments.iter_mut().find(|c| c["id"] == id) {
                    Some(c) => {
                        c["body"] = body["body"].clone();
                        c["updated_at"] = json!(stamp);
                        ResponseTemplate::new(200).set_body_json(c.clone())
                    }
                    None => {
                        ResponseTemplate::new(404).set_body_json(json!({"message": "Not Found"}))
                    }
                }
            }
            _ => ResponseTemplate::new(404).set_body_json(json!({"message": "Not Found"})),
        }
    }
}

async fn github_mock(state: Arc<Mutex<State>>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(Github(state))
        .mount(&server)
        .await;
    server
}

struct Actions {
    dir: tempfile::TempDir,
    envs: Vec<(String, String)>,
}

impl Actions {
    fn new(api: &str, fork: bool) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let head = if fork { "someone/r" } else { "o/r" };
        let event = json!({"action": "synchronize", "number": 7, "pull_request": {"number": 7,
            "head": {"sha": "0123456789abcdef0123456789abcdef01234567",
                     "repo": {"full_name": head, "fork": fork}},
            "base": {"repo": {"full_name": "o/r"}}}});
        std::fs::write(dir.path().join("event.json"), event.to_string()).unwrap();
        let p = |f: &str| dir.path().join(f).display().to_string();
        let envs = vec![
            ("GITHUB_ACTIONS".into(), "true".into()),
            ("GITHUB_API_URL".into(), api.to_string()),
            ("GITHUB_REPOSITORY".into(), "o/r".into()),
            ("GITHUB_EVENT_NAME".into(), "pull_request".into()),
            ("GITHUB_EVENT_PATH".into(), p("event.json")),
            ("GITHUB_TOKEN".into(), "ghs_mocktoken_SECRET_gh".into()),
            ("GITHUB_STEP_SUMMARY".into(), p("summary")),
            ("GITHUB_OUTPUT".into(), p("output")),
            ("GITHUB_SERVER_URL".into(), "https://github.example".into()),
            ("GITHUB_RUN_ID".into(), "4242".into()),
            (
                "GITHUB_SHA".into(),
                "fedcba9876543210fedcba9876543210fedcba98".into(),
            ),
        ];
        Actions { dir, envs }
    }

    async fn ci(&self, args: Vec<String>, extra: Vec<(String, String)>) -> std::process::Output {
        let dir = self.dir.path().to_path_buf();
        let envs: Vec<(String, String)> = self.envs.iter().cloned().chain(extra).collect();
        tokio::task::spawn_blocking(move || {
            let mut cmd = toolgate();
            cmd.current_dir(&dir).arg("ci").args(&args);
            for (k, v) in envs {
                cmd.env(k, v);
            }
            cmd.output().unwrap()
        })
        .await
        .unwrap()
    }

    fn outputs(&self) -> BTreeMap<String, String> {
        parse_outputs(&std::fs::read_to_string(self.dir.path().join("output")).unwrap())
    }
}

/// Parses a `$GITHUB_OUTPUT` file (both `k=v` and `k<<DELIM` forms); the last value wins.
fn parse_outputs(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if let Some((k, delim)) = l.split_once("<<") {
            let mut v = Vec::new();
            for m in lines.by_ref() {
                if m == delim {
                    break;
                }
                v.push(m);
            }
            out.insert(k.to_string(), v.join("\n"));
        } else if let Some((k, v)) = l.split_once('=') {
            out.insert(k.to_string(), v.to_string());
        }
    }
    out
}

fn example_args(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "--server",
        &example("after.json"),
        "--tasks",
        &example("tasks.jsonl"),
        "--lock",
        &example("toolgate.lock"),
        "--comment",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

#[tokio::test(flavor = "multi_thread")]
async fn one_sticky_comment_is_created_then_updated_and_a_foreign_one_is_never_touched() {
    let state = Arc::new(Mutex::new(State::default()));
    let marker = "<!-- toolgate:comment default -->";
    {
        let mut s = state.lock().unwrap();
        // Someone quoting toolgate's marker, and someone with similar text.
        s.comments.push(comment(
            101,
            "alice",
            "User",
            &format!("{marker}\n## ✅ toolgate passed (quoted by a human)"),
            "2026-11-30T07:00:00Z",
        ));
        s.comments.push(comment(
            102,
            "bob",
            "User",
            "## ✅ toolgate passed — tool accuracy 52.3%",
            "2026-11-30T07:00:00Z",
        ));
    }
    let server = github_mock(state.clone()).await;
    let gh = Actions::new(&server.uri(), false);

    let o = gh.ci(example_args(&[]), vec![]).await;
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let (ours_id, first_body) = {
        let s = state.lock().unwrap();
        let ours: Vec<&Value> = s
            .comments
            .iter()
            .filter(|c| c["user"]["login"] == "github-actions[bot]")
            .collect();
        assert_eq!(ours.len(), 1, "first push creates exactly one comment");
        let body = ours[0]["body"].as_str().unwrap().to_string();
        assert!(body.starts_with(marker), "{body}");
        assert!(body.contains("toolgate passed"));
        (ours[0]["id"].as_u64().unwrap(), body)
    };
    let outs = gh.outputs();
    assert_eq!(outs["passed"], "true");
    assert_eq!(
        outs["comment-url"],
        format!("https://github.com/o/r/pull/7#issuecomment-{ours_id}")
    );
    let run = read_json(&gh.dir.path().join("toolgate-out/run/run.json"));
    assert_eq!(outs["score"], format!("{:.4}", accuracy(&run)));
    assert_eq!(outs["lock-status"], "match");
    let summary = std::fs::read_to_string(gh.dir.path().join("summary")).unwrap();
    assert_eq!(
        summary.trim_end(),
        first_body.trim_start_matches(marker).trim(),
        "one renderer serves the summary and the comment"
    );
    // Lint findings became workflow annotations.
    assert!(String::from_utf8_lossy(&o.stdout).contains("::notice "));

    // Second push: the same comment is edited in place.
    let o = gh.ci(example_args(&["--fail-under", "0.99"]), vec![]).await;
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    {
        let s = state.lock().unwrap();
        assert_eq!(s.comments.len(), 3, "no second comment");
        let ours = s.comments.iter().find(|c| c["id"] == ours_id).unwrap();
        assert!(ours["body"].as_str().unwrap().contains("toolgate failed"));
        for foreign in [101, 102] {
            assert!(
                !s.log
                    .iter()
                    .any(|(m, p, _)| m != "GET"
                        && p == &format!("/repos/o/r/issues/comments/{foreign}")),
                "comment {foreign} by someone else was touched"
            );
        }
        let c = s.comments.iter().find(|c| c["id"] == 101).unwrap();
        assert!(c["body"].as_str().unwrap().contains("quoted by a human"));
        assert!(
            s.log
                .iter()
                .all(|(_, _, a)| a == "Bearer ghs_mocktoken_SECRET_gh"),
            "every request carries the token"
        );
        let body = ours["body"].as_str().unwrap().to_string();
        assert!(
            body.contains("for `0123456789ab`")
                && body.contains("[workflow run](https://github.example/o/r/actions/runs/4242)"),
            "the comment names the PR head commit and the run: {body}"
        );
    }

    // Third push: the server crashes. toolgate cannot decide (exit 2), and the comment, the
    // summary and the outputs say so instead of showing the last push's verdict.
    let crash = crate::common::py_server("hostile/crash_on_init.py", "");
    let o = gh
        .ci(vec!["--server".into(), crash, "--comment".into()], vec![])
        .await;
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    {
        let s = state.lock().unwrap();
        assert_eq!(s.comments.len(), 3);
        let ours = s.comments.iter().find(|c| c["id"] == ours_id).unwrap();
        let body = ours["body"].as_str().unwrap();
        assert!(
            body.starts_with(marker) && body.contains("toolgate could not run"),
            "{body}"
        );
        let outs = gh.outputs();
        assert_eq!(outs["passed"], "false");
        assert!(!outs["error"].is_empty());
        let summary =
            std::fs::read_to_string(gh.dir.path().join("toolgate-out/summary.md")).unwrap();
        assert!(summary.contains("toolgate could not run"), "{summary}");
        let c = read_json(&gh.dir.path().join("toolgate-out/ci.json"));
        assert_eq!(c["status"], "error");
    }

    // Settings errors are this commit's result too: a flag that does not parse, a
    // toolgate.toml that does not parse and a settings value out of range each replace the
    // comment with "could not run" and the cause, before anything connects.
    let cases: Vec<(Vec<String>, &str, &str)> = vec![
        (vec!["--trials".into(), "abc".into()], "", "abc"),
        (vec![], "[ci]\ntrials = \"many\"\n", "toolgate.toml"),
        (
            example_args(&["--max-error-rate", "7"]),
            "",
            "max-error-rate",
        ),
        (example_args(&["--retries", "99"]), "", "retries"),
    ];
    for (i, (args, toml, cause)) in cases.into_iter().enumerate() {
        let cfg = gh.dir.path().join("toolgate.toml");
        if toml.is_empty() {
            let _ = std::fs::remove_file(&cfg);
        } else {
            std::fs::write(&cfg, toml).unwrap();
        }
        state.lock().unwrap().comments.iter_mut().for_each(|c| {
            if c["id"] == ours_id {
                c["body"] = json!(format!("{marker}\n## ✅ toolgate passed (stale {i})"));
            }
        });
        let o = gh.ci(args, vec![]).await;
        assert_eq!(o.status.code(), Some(2), "case {i}: {}", text(&o));
        let s = state.lock().unwrap();
        assert_eq!(s.comments.len(), 3, "case {i}: edited, not added");
        let ours = s.comments.iter().find(|c| c["id"] == ours_id).unwrap();
        let body = ours["body"].as_str().unwrap();
        assert!(
            body.starts_with(marker)
                && body.contains("toolgate could not run")
                && !body.contains("stale")
                && body.contains(cause),
            "case {i}: {body}"
        );
        assert_eq!(gh.outputs()["passed"], "false", "case {i}");
    }
    let _ = std::fs::remove_file(gh.dir.path().join("toolgate.toml"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_read_only_token_on_a_fork_skips_the_comment_and_still_gates() {
    let state = Arc::new(Mutex::new(State {
        read_only: true,
        ..Default::default()
    }));
    let server = github_mock(state.clone()).await;
    let gh = Actions::new(&server.uri(), true);
    // No --comment: on GitHub Actions the comment is on by default.
    let mut args = example_args(&[]);
    args.retain(|a| a != "--comment");
    let o = gh.ci(args, vec![]).await;
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("::notice title=toolgate comment::") && stdout.contains("fork"),
        "{stdout}"
    );
    let summary = std::fs::read_to_string(gh.dir.path().join("summary")).unwrap();
    assert!(summary.contains("No pull-request comment"), "{summary}");
    assert_eq!(gh.outputs()["comment-url"], "");
    assert!(state.lock().unwrap().comments.is_empty());
    // And a failing gate still fails.
    let o = gh.ci(example_args(&["--fail-under", "0.99"]), vec![]).await;
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fork_without_secrets_skips_keyless_llms_and_bm25_still_gates() {
    let state = Arc::new(Mutex::new(State::default()));
    let server = github_mock(state.clone()).await;
    let fork = Actions::new(&server.uri(), true);
    let read_models = |gh: &Actions| -> Vec<String> {
        let v = read_json(&gh.dir.path().join("toolgate-out/run/run.json"));
        v["models"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|m| m["spec"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    // An LLM beside BM25: the LLM is skipped, BM25 gates alone.
    let o = fork
        .ci(example_args(&["-m", "openai:gpt-4o-mini,bm25"]), vec![])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let summary = std::fs::read_to_string(fork.dir.path().join("summary")).unwrap();
    assert!(
        summary.contains("`openai:gpt-4o-mini` skipped")
            && summary.contains("pull requests from forks no secrets")
            && summary.contains("OPENAI\\_API\\_KEY"),
        "{summary}"
    );
    let models = read_models(&fork);
    assert!(
        models.len() == 1 && models[0].starts_with("bm25"),
        "{models:?}"
    );
    // Only an LLM: BM25 stands in, and a failing BM25 score still fails the check.
    let o = fork
        .ci(
            example_args(&["-m", "openai:gpt-4o-mini", "--fail-under", "0.99"]),
            vec![],
        )
        .await;
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let models = read_models(&fork);
    assert!(
        models.len() == 1 && models[0].starts_with("bm25"),
        "{models:?}"
    );
    // The same pull request from the repository itself has secrets: a missing key is an error.
    let own = Actions::new(&server.uri(), false);
    let o = own
        .ci(example_args(&["-m", "openai:gpt-4o-mini"]), vec![])
        .await;
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("OPENAI_API_KEY"), "{}", text(&o));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_comment_job_posts_from_the_untrusted_artefact_of_a_fork() {
    let state = Arc::new(Mutex::new(State::default()));
    let server = github_mock(state.clone()).await;
    let gh = Actions::new(&server.uri(), true);
    // The evaluation job: read-only, no comment; its output folder is the artefact.
    let artefact = gh.dir.path().join("artefact");
    let mut args = example_args(&["--out", artefact.to_str().unwrap()]);
    args.retain(|a| a != "--comment");
    args.push("--comment=false".into());
    let o = gh.ci(args, vec![]).await;
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(state.lock().unwrap().comments.is_empty());
    let sha = "0123456789abcdef0123456789abcdef01234567";
    let event = |conclusion: &str| {
        json!({"action": "completed", "workflow_run": {"id": 99, "event": "pull_request",
            "head_sha": sha, "head_branch": "feature", "conclusion": conclusion,
            "head_repository": {"owner": {"login": "someone"}},
            "html_url": "https://github.example/o/r/actions/runs/99", "pull_requests": []}})
    };
    let relay = |conclusion: &str| {
        std::fs::write(gh.dir.path().join("wr.json"), event(conclusion).to_string()).unwrap();
        let extra = vec![
            ("GITHUB_EVENT_NAME".to_string(), "workflow_run".to_string()),
            (
                "GITHUB_EVENT_PATH".to_string(),
                gh.dir.path().join("wr.json").display().to_string(),
            ),
        ];
        gh.ci(
            vec!["--comment-from".into(), artefact.display().to_string()],
            extra,
        )
    };
    let o = relay("success").await;
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let body = {
        let st = state.lock().unwrap();
        assert_eq!(st.comments.len(), 1);
        st.comments[0]["body"].as_str().unwrap().to_string()
    };
    assert!(
        body.starts_with("<!-- toolgate:comment default -->"),
        "{body}"
    );
    assert!(body.contains("toolgate passed"), "{body}");
    // A forged pass for a job that failed is shown as a failure, on the same comment.
    let o = relay("failure").await;
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let body = state.lock().unwrap().comments[0]["body"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        !body.contains("toolgate passed") && body.contains("ended `failure`"),
        "{body}"
    );
    assert_eq!(state.lock().unwrap().comments.len(), 1);
    // A link in place of ci.json is refused.
    let ci_json = artefact.join("ci.json");
    std::fs::remove_file(&ci_json).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", &ci_json).unwrap();
    let o = relay("success").await;
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("not a regular file"), "{}", text(&o));
}

/// Replies to every chat completion with a call to `get_event`.
struct OpenAi;

impl Respond for OpenAi {
    fn respond(&self, _req: &Request) -> ResponseTemplate {
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "c1", "model": "gpt-mock", "system_fingerprint": "fp_mock",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": null,
                "tool_calls": [{"id": "call_1", "type": "function",
                    "function": {"name": "get_event", "arguments": "{\"event_id\": \"evt_1\"}"}}]}}]
        }))
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn no_secret_reaches_any_output_file_or_the_wrong_service() {
    let state = Arc::new(Mutex::new(State::default()));
    let github = github_mock(state.clone()).await;
    let openai = MockServer::start().await;
    mount_canary(&openai).await;
    Mock::given(any()).respond_with(OpenAi).mount(&openai).await;
    let gh = Actions::new(&github.uri(), false);
    let tasks: String = std::fs::read_to_string(example("tasks.jsonl"))
        .unwrap()
        .lines()
        .take(12)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(gh.dir.path().join("tasks.jsonl"), tasks).unwrap();
    let secrets = [
        ("OPENAI_API_KEY", "sk-openai-SECRET-1"),
        ("ANTHROPIC_API_KEY", "sk-ant-SECRET-2"),
        ("OPENROUTER_API_KEY", "sk-or-SECRET-3"),
        ("TOOLGATE_GITHUB_TOKEN", "ghs_action_input_SECRET_4"),
    ];
    let o = gh
        .ci(
            vec![
                "--server".into(),
                format!(
                    "{} --api-key sk-cmdline-SECRET-5",
                    crate::common::py_server("fakemcp.py", &example("after.json"))
                ),
                "--tasks".into(),
                "tasks.jsonl".into(),
                "--model".into(),
                "openai:gpt-mock".into(),
                "--base-url".into(),
                format!("{}/v1", openai.uri()),
                "--comment".into(),
                "--lock-check".into(),
                "off".into(),
                "--format".into(),
                "json".into(),
            ],
            secrets
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(!openai.received_requests().await.unwrap().is_empty());
    let all_secrets: Vec<&str> = secrets
        .iter()
        .map(|(_, v)| *v)
        .chain(["ghs_mocktoken_SECRET_gh", "sk-cmdline-SECRET-5"])
        .collect();
    let mut files = Vec::new();
    files_under(gh.dir.path(), &mut files);
    assert!(files.len() > 5, "{files:?}");
    for f in &files {
        let t = String::from_utf8_lossy(&std::fs::read(f).unwrap()).to_string();
        for s in &all_secrets {
            assert!(!t.contains(s), "{s} leaked into {}", f.display());
        }
    }
    let printed = text(&o);
    for s in &all_secrets {
        assert!(!printed.contains(s), "{s} was printed");
    }
    for r in openai.received_requests().await.unwrap() {
        let headers = format!("{:?}", r.headers);
        assert!(headers.contains("sk-openai-SECRET-1"));
        for s in all_secrets.iter().filter(|s| !s.starts_with("sk-openai")) {
            assert!(!headers.contains(s), "{s} was sent to the OpenAI endpoint");
        }
    }
    for (_, _, auth) in &state.lock().unwrap().log {
        assert_eq!(
            auth, "Bearer ghs_action_input_SECRET_4",
            "the action's token wins over GITHUB_TOKEN, and nothing else goes to GitHub"
        );
    }
}

#[test]
fn ci_against_real_servers_over_stdio_and_http() {
    let dir = tempfile::tempdir().unwrap();
    // The npm reference server, with tasks generated from its catalog.
    let memory = third_party("npm/node_modules/.bin/mcp-server-memory");
    let o = ci(dir.path(), &["--server", &memory, "--out", "mem"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let c = read_json(&dir.path().join("mem/ci.json"));
    assert_eq!(c["tasks_generated"], true);
    assert_eq!(c["lock"]["status"], "missing");
    assert!(c["tools"].as_u64().unwrap() >= 9);
    let summary = std::fs::read_to_string(dir.path().join("mem/summary.md")).unwrap();
    assert!(summary.contains("No lock file"), "{summary}");
    assert!(summary.contains("generated from this catalog"));
    // Our HTTP fixture over Streamable HTTP, pinned first: the lock matches.
    let http = HttpServer::start(&[&fixture("catalogs/memory.json")]);
    let o = toolgate()
        .current_dir(dir.path())
        .args(["pin", &http.url])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let o = ci(dir.path(), &["--server", &http.url, "--out", "http"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let c = read_json(&dir.path().join("http/ci.json"));
    assert_eq!(c["lock"]["status"], "match");
}

#[test]
fn the_example_project_gates_from_its_own_config_against_its_committed_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let ex = crate::common::root().join("fixtures/example");
    let out = dir.path().join("out");
    let o = toolgate()
        .current_dir(&ex)
        .args(["ci", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let c = read_json(&out.join("ci.json"));
    assert_eq!(c["lock"]["status"], "match");
    let cmp = &c["comparison"];
    assert_eq!(cmp["comparable"], true, "{cmp}");
    assert_eq!(cmp["models"][0]["overall"]["verdict"], "better");
    assert!(cmp["models"][0]["overall"]["delta"].as_f64().unwrap() >= 0.15);
    // The committed baseline is still what toolgate computes from the "before" catalog.
    let fresh = dir.path().join("fresh-baseline.json");
    let o = toolgate()
        .current_dir(&ex)
        .args([
            "ci",
            "--server",
            "python3 ../servers/fakemcp.py before.json",
        ])
        .args(["--lock-check", "off", "--fail-under", "0"])
        .args(["--out", dir.path().join("base").to_str().unwrap()])
        .args(["--write-baseline", fresh.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let (old, new) = (
        read_json(&ex.join("toolgate-baseline.json")),
        read_json(&fresh),
    );
    for part in [
        "/outcomes",
        "/run/results",
        "/run/suite",
        "/lint/findings",
        "/lock",
    ] {
        assert_eq!(
            old.pointer(part),
            new.pointer(part),
            "fixtures/example/toolgate-baseline.json{part} is stale: refresh it with the command in fixtures/example/toolgate.toml"
        );
    }
}

/// A suite no person reviewed is a smoke test: generated tasks (on the fly, or written by
/// `generate` and not yet approved) give no headline accuracy, never decide a threshold gate
/// (exit 2, saying why) and get a grey "smoke" badge; `toolgate approve` makes the same file a
/// reviewed suite, with the same suite hash.
#[test]
fn an_unreviewed_suite_is_a_smoke_test_until_approved() {
    let dir = tempfile::tempdir().unwrap();
    let o = toolgate()
        .current_dir(dir.path())
        .args(["generate", &example("after.json"), "-o", "gen.jsonl"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("toolgate approve gen.jsonl"));
    let gate = |out: &str| {
        ci(
            dir.path(),
            &[
                "--server",
                &example("after.json"),
                "--tasks",
                "gen.jsonl",
                "--fail-under",
                "0.1",
                "--badge",
                &format!("{out}.svg"),
                "--out",
                out,
            ],
            &[],
        )
    };
    let o = gate("smoke");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let c = read_json(&dir.path().join("smoke/ci.json"));
    let reasons = c["reasons"].to_string();
    assert!(
        reasons.contains("not reviewed (generated, not approved)")
            && reasons.contains("--fail-under"),
        "{reasons}"
    );
    let summary = std::fs::read_to_string(dir.path().join("smoke/summary.md")).unwrap();
    assert!(summary.contains("smoke test only"), "{summary}");
    assert!(!summary.contains("— tool accuracy"), "{summary}");
    for report in ["smoke/run/report.md", "smoke/run/report.html"] {
        let r = std::fs::read_to_string(dir.path().join(report)).unwrap();
        assert!(r.contains("SMOKE SUITE"), "{report}");
    }
    let run = read_json(&dir.path().join("smoke/run/run.json"));
    let pending = run["suite"]["pending"].as_u64().unwrap();
    assert!(pending > 0);
    // Without a threshold a smoke run may pass on its other checks, badged grey as "smoke".
    let o = ci(
        dir.path(),
        &[
            "--server",
            &example("after.json"),
            "--tasks",
            "gen.jsonl",
            "--badge",
            "smoke.svg",
            "--out",
            "s2",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let svg = std::fs::read_to_string(dir.path().join("smoke.svg")).unwrap();
    assert!(svg.contains("(smoke)") && svg.contains("#9f9f9f"), "{svg}");

    let o = toolgate()
        .current_dir(dir.path())
        .args(["approve", "gen.jsonl"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("approved {pending} task(s)")));
    let o = gate("reviewed");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let run2 = read_json(&dir.path().join("reviewed/run/run.json"));
    assert_eq!(run2["suite"]["pending"].as_u64().unwrap_or(0), 0);
    assert_eq!(
        run2["suite"]["sha256"], run["suite"]["sha256"],
        "approval keeps the suite hash"
    );
    let summary = std::fs::read_to_string(dir.path().join("reviewed/summary.md")).unwrap();
    // bm25 is a search, not a model that chooses: its number is findability, never accuracy.
    assert!(summary.contains("— findability@1"), "{summary}");
    assert!(!summary.contains("tool accuracy"), "{summary}");
    let r = std::fs::read_to_string(dir.path().join("reviewed/run/report.md")).unwrap();
    assert!(!r.contains("SMOKE SUITE"));
    let svg = std::fs::read_to_string(dir.path().join("reviewed.svg")).unwrap();
    // Reviewed, so not a smoke badge; a search's findability is grey all the same (only a
    // model's tool accuracy colours a badge like a verdict).
    assert!(
        !svg.contains("(smoke)") && svg.contains("findability@1 (bm25)") && svg.contains("#9f9f9f"),
        "{svg}"
    );

    // An approval pins the task as it read: editing an approved task's request afterwards
    // makes it unreviewed again (the gate refuses, saying which), until it is approved again.
    let path = dir.path().join("gen.jsonl");
    let approved = std::fs::read_to_string(&path).unwrap();
    assert!(approved.contains(r#""review":{"approved":""#), "{approved}");
    let header = approved.lines().next().unwrap().to_string();
    let mut lines: Vec<serde_json::Value> = approved
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let edited_id = lines[0]["id"].as_str().unwrap().to_string();
    lines[0]["request"] = serde_json::Value::from("something easier to route");
    let edited: String = std::iter::once(header)
        .chain(lines.iter().map(|v| v.to_string()))
        .map(|l| l + "\n")
        .collect();
    std::fs::write(&path, edited).unwrap();
    let o = gate("edited");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("changed since their approval") && err.contains(&edited_id),
        "{err}"
    );
    let c = read_json(&dir.path().join("edited/ci.json"));
    assert!(
        c["reasons"]
            .to_string()
            .contains("1 edited since their approval"),
        "{}",
        c["reasons"]
    );
    let run3 = read_json(&dir.path().join("edited/run/run.json"));
    assert_eq!(run3["suite"]["pending"], 1);
    assert_eq!(run3["suite"]["stale"], 1);
    let o = toolgate()
        .current_dir(dir.path())
        .args(["approve", "gen.jsonl"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(&format!(
            "re-approved 1 task(s) edited since their approval: {edited_id}"
        )),
        "{}",
        text(&o)
    );
    assert_eq!(gate("again").status.code(), Some(0));

    // The header pins the approved set: removing an approved task (every other stamp still
    // matches) voids the file's approvals until it is approved again.
    let file = std::fs::read_to_string(&path).unwrap();
    assert!(file.starts_with("// toolgate approve: "), "{file}");
    let mut lines: Vec<&str> = file.lines().collect();
    lines.remove(1);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let o = gate("removed");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("not the set its `toolgate approve` header pins"),
        "{}",
        text(&o)
    );
    toolgate()
        .current_dir(dir.path())
        .args(["approve", "gen.jsonl"])
        .assert()
        .success();
    assert_eq!(gate("reapproved").status.code(), Some(0));
}

/// Issue 25 point 4: the GitHub API redirects the comment listing to another host; the token
/// is not sent there (the request is followed, without its Authorization header).
#[tokio::test(flavor = "multi_thread")]
async fn the_github_token_never_follows_a_redirect_to_another_host() {
    let api = MockServer::start().await;
    let elsewhere = MockServer::start().await;
    Mock::given(wiremock::matchers::path("/steal"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .mount(&elsewhere)
        .await;
    Mock::given(wiremock::matchers::method("GET"))
        .and(wiremock::matchers::path("/repos/o/r/issues/7/comments"))
        .respond_with(
            ResponseTemplate::new(307)
                .insert_header("location", format!("{}/steal", elsewhere.uri())),
        )
        .mount(&api)
        .await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(404).set_body_json(json!({"message": "Not Found"})))
        .mount(&api)
        .await;
    let gh = Actions::new(&api.uri(), false);
    let _ = gh.ci(example_args(&[]), vec![]).await;
    let stolen = elsewhere.received_requests().await.unwrap();
    assert!(
        !stolen.is_empty(),
        "the redirect was not followed: the test proves nothing"
    );
    for r in &stolen {
        assert!(
            r.headers.get("authorization").is_none(),
            "the token went to another host: {r:?}"
        );
        let all = format!("{:?}", r.headers);
        assert!(!all.contains("ghs_mocktoken"), "{all}");
    }
    // The API host itself got the token.
    let own = api.received_requests().await.unwrap();
    assert!(own.iter().any(|r| r.headers.get("authorization").is_some()));
}

/// Issue 23 point 6: junit.xml beside ci.json, parsed back as JUnit: the gate, the lock, each
/// tool's lint and each tool's accuracy (under --min-tool-accuracy: failed), and hostile tool
/// names (controls, `]]>`, markup) still give well-formed XML.
#[test]
fn junit_xml_reports_the_gate_lint_and_each_tool() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = toolgate()
        .current_dir(fixture("example"))
        .args(["ci", "--no-github", "--min-tool-accuracy", "0.9", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let xml = std::fs::read_to_string(out.join("junit.xml")).unwrap();
    let report = quick_junit::Report::deserialize_from_str(&xml).expect("well-formed JUnit");
    let names: Vec<&str> = report.test_suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["toolgate gate", "toolgate lint", "toolgate tools (bm25:3)"]
    );
    let gate = &report.test_suites[0];
    assert!(
        !matches!(
            gate.test_cases[0].status,
            quick_junit::TestCaseStatus::Success { .. }
        ),
        "the gate failed"
    );
    let tools = &report.test_suites[2];
    assert_eq!(tools.test_cases.len(), 12, "one case per tool");
    let ci: Value = crate::common::read_json(&out.join("ci.json"));
    let under = ci["run"]["results"][0]["metrics"]["per_tool"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["accuracy"]["value"].as_f64().unwrap() < 0.9)
        .count();
    let failed = tools
        .test_cases
        .iter()
        .filter(|c| !matches!(c.status, quick_junit::TestCaseStatus::Success { .. }))
        .count();
    assert_eq!(failed, under, "a failed case per tool under the floor");
    assert!(under > 0);
    // Hostile names.
    let o = toolgate()
        .args([
            "ci",
            "--no-github",
            "--server",
            &crate::common::py_server("hostile/workflow_commands.py", ""),
            "--out",
        ])
        .arg(dir.path().join("hostile"))
        .output()
        .unwrap();
    assert!(o.status.code().is_some_and(|c| c <= 2));
    let xml = std::fs::read_to_string(dir.path().join("hostile/junit.xml")).unwrap();
    quick_junit::Report::deserialize_from_str(&xml).expect("well-formed despite server text");
    assert!(!xml.contains('\u{1b}'), "no raw escape character");
}

//! Issue 11, points 14 and 15: orphaned server processes are ended (the whole process group,
//! even when the server exited first); a server that exits while a grandchild holds its
//! stdout ends the connection at once; a reply toolgate cannot parse is reported at once,
//! saying what was wrong, and a `nextCursor` that is not a string is an error.

use std::time::{Duration, Instant};

use crate::common::{py_server, toolgate};

fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let exists = unsafe { libc::kill(pid, 0) } == 0;
    // A zombie (exited, not yet reaped by init) counts as gone.
    let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let zombie = state
        .rsplit_once(')')
        .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
    exists && !zombie
}

fn wait_gone(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// The fixture writes its grandchild's pid into `dir`: the sandbox lets it (as root's uid,
/// still without capabilities, so the 0700 temp dir stays reachable).
fn pidfile_writable(dir: &std::path::Path) -> Vec<String> {
    vec![
        "--sandbox-uid".into(),
        "0".into(),
        "--sandbox-write".into(),
        dir.display().to_string(),
    ]
}

fn read_pid(path: &std::path::Path) -> i32 {
    std::fs::read_to_string(path)
        .expect("the fixture wrote its grandchild's pid")
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn server_exiting_early_with_a_grandchild_holding_stdout_ends_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let started = Instant::now();
    let out = toolgate()
        .args([
            "inspect",
            &py_server(
                "hostile/orphan.py",
                &format!("{} exit-early", pidfile.display()),
            ),
            "--connect-timeout",
            "30",
        ])
        .args(pidfile_writable(dir.path()))
        .assert()
        .code(2)
        .get_output()
        .clone();
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        took < Duration::from_secs(10),
        "waited {took:?} (the connect timeout is 30 s): {err}"
    );
    assert!(err.contains("exit status: 4"), "{err}");
    assert!(!err.contains("within 30s"), "{err}");
    let pid = read_pid(&pidfile);
    assert!(wait_gone(pid), "grandchild {pid} survived");
}

#[test]
fn grandchildren_die_even_when_the_server_exited_first() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    toolgate()
        .args([
            "inspect",
            &py_server(
                "hostile/orphan.py",
                &format!("{} answer", pidfile.display()),
            ),
            "--connect-timeout",
            "30",
        ])
        .args(pidfile_writable(dir.path()))
        .assert()
        .success();
    let pid = read_pid(&pidfile);
    assert!(wait_gone(pid), "grandchild {pid} survived the session");
}

fn bad_reply(mode: &str, want: &str) {
    let started = Instant::now();
    let out = toolgate()
        .args([
            "inspect",
            &py_server("hostile/bad_reply.py", mode),
            "--connect-timeout",
            "30",
            "--request-timeout",
            "30",
        ])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        took < Duration::from_secs(10),
        "{mode}: reported after {took:?}: {err}"
    );
    assert!(err.contains(want), "{mode}: {err}");
    assert!(!err.contains("no answer"), "{mode}: {err}");
}

#[test]
fn unparseable_replies_are_reported_at_once() {
    bad_reply("deep", "nests deeper");
    bad_reply("bignum", "out of range");
    bad_reply("malformed", "cannot parse");
    bad_reply("list-deep", "nests deeper");
}

#[test]
fn a_cursor_that_is_not_a_string_is_an_error() {
    bad_reply("list-cursor-number", "nextCursor");
    bad_reply("list-cursor-object", "nextCursor");
}

/// Issue 11, point 16 (connect part): a server that speaks only 2026-07-28 rejects
/// `initialize`; toolgate falls back to `server/discover` and says which era it spoke.
#[test]
fn a_stateless_only_server_is_read_with_discover() {
    let snapshot = tempfile::NamedTempFile::new().unwrap();
    let out = toolgate()
        .args([
            "inspect",
            &py_server("hostile/modern_only.py", ""),
            "--connect-timeout",
            "20",
            "--save",
        ])
        .arg(snapshot.path())
        .assert()
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rejected `initialize`"), "{err}");
    assert!(err.contains("2026-07-28"), "{err}");
    assert!(err.contains("server/discover"), "{err}");
    let v = crate::common::read_json(snapshot.path());
    assert_eq!(v["tools"][0]["name"], "get_time", "{v}");
    assert_eq!(v["instructions"], "Times only.", "{v}");
}

/// Issue 25 point 5: a grandchild that left the server's process group (setsid, or a double
/// fork into a new session) is still ended: toolgate is its subreaper.
#[test]
fn grandchildren_that_setsid_or_double_fork_are_reaped() {
    for mode in ["setsid", "double-fork"] {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        toolgate()
            .args([
                "inspect",
                &py_server(
                    "hostile/orphan.py",
                    &format!("{} {mode}", pidfile.display()),
                ),
            ])
            .args(pidfile_writable(dir.path()))
            .assert()
            .success();
        let pid = read_pid(&pidfile);
        assert!(wait_gone(pid), "{mode}: grandchild {pid} survived toolgate");
    }
}

/// A job cancelled while a server runs (SIGTERM, SIGINT) ends like an error: the server's
/// group is ended and its setsid grandchild reaped, not left to init.
#[test]
fn a_signal_ends_the_server_and_its_escaped_grandchildren() {
    for sig in [libc::SIGTERM, libc::SIGINT] {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("toolgate"))
            .args([
                "inspect",
                &py_server("hostile/orphan.py", &format!("{} hang", pidfile.display())),
                "--connect-timeout",
                "120",
            ])
            .args(pidfile_writable(dir.path()))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while !pidfile.exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(200));
        let pid = read_pid(&pidfile);
        // SAFETY: signalling the child this test started.
        unsafe { libc::kill(child.id() as i32, sig) };
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{sig}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("stopped by SIG"), "{err}");
        assert!(
            wait_gone(pid),
            "signal {sig}: grandchild {pid} survived toolgate"
        );
    }
}

/// A grandchild that escaped the server's group is ended when the server's session ends, not
/// when toolgate exits: here it is gone while toolgate still waits for a slow model.
#[tokio::test(flavor = "multi_thread")]
async fn an_escaped_grandchild_is_ended_with_its_session() {
    use wiremock::{Mock, MockServer, ResponseTemplate, matchers::method};
    let api = MockServer::start().await;
    crate::common::mount_canary(&api).await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_delay(Duration::from_secs(4))
                .set_body_json(serde_json::json!({"choices": [{"index": 0,
                    "message": {"role": "assistant", "content": "No tool needed."},
                    "finish_reason": "stop"}]})),
        )
        .mount(&api)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let tasks = dir.path().join("tasks.jsonl");
    std::fs::write(
        &tasks,
        r#"{"id": "t1", "request": "Do nothing at all, please.", "kind": "direct", "expected": {"tool": "noop"}}"#,
    )
    .unwrap();
    let mut args: Vec<String> = vec![
        "run".into(),
        py_server(
            "hostile/orphan.py",
            &format!("{} setsid", pidfile.display()),
        ),
        "-t".into(),
        tasks.display().to_string(),
        "-m".into(),
        "openai-compat:m".into(),
        "--base-url".into(),
        format!("{}/v1", api.uri()),
        "--out".into(),
        dir.path().join("out").display().to_string(),
        "--no-cache".into(),
    ];
    args.extend(pidfile_writable(dir.path()));
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("toolgate"))
        .args(&args)
        .env("OPENAI_COMPAT_API_KEY", "sk-test-key-0123456789")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !pidfile.exists() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let pid = read_pid(&pidfile);
    // The listing is over once the model is asked.
    let deadline = Instant::now() + Duration::from_secs(20);
    while api.received_requests().await.unwrap_or_default().is_empty() && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "toolgate is still waiting for the model"
    );
    assert!(
        wait_gone(pid),
        "grandchild {pid} outlived its server's session"
    );
    let _ = child.kill();
    let _ = child.wait();
}

/// Issue 23 point 6: a live server is listed twice in one session; another order, or other
/// definitions, on the second listing is reported (TG031), and a stable server is not.
#[test]
fn a_listing_that_changes_between_two_calls_is_reported() {
    for (mode, said) in [("order", "another order"), ("defs", "other definitions")] {
        let o = toolgate()
            .args([
                "lint",
                &py_server("hostile/unstable_list.py", mode),
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let hit = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "TG031" && f["message"].as_str().unwrap().contains(said));
        assert!(hit, "{mode}: {v:#}");
    }
    let o = toolgate()
        .args([
            "lint",
            &py_server("fakemcp.py", &crate::common::fixture("example/after.json")),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        !v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "TG031"),
        "a stable server: {v:#}"
    );
}

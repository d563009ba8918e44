//! Issue 42 points 1, 2 and 5: the hostile probe tries UNIX sockets it was not given (one
//! 0777, one 0660 owned by toolgate's group, as `/var/run/docker.sock` is on a runner), to
//! read what is not its own (`.git/config`, a 0600 file in toolgate's home, `/etc/shadow`), to
//! change the mode of a reviewed file, and to read a key from toolgate's command line, in every
//! sandbox mode and with `--sandbox-uid 0` (the server keeps toolgate's uid and groups). All
//! are refused; `--sandbox off` is the control.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;

use crate::sandbox::{denied, probe_with};

struct Kit {
    _dir: tempfile::TempDir,
    args: String,
    file: std::path::PathBuf,
    _listeners: Vec<UnixListener>,
}

fn kit() -> Kit {
    let dir = tempfile::tempdir().unwrap();
    // Reachable by any uid: only the sandbox stands in the way.
    std::fs::set_permissions(dir.path(), PermissionsExt::from_mode(0o755)).unwrap();
    let mut listeners = Vec::new();
    let mut args = Vec::new();
    for (name, mode) in [("open", 0o777), ("group", 0o660)] {
        let path = dir.path().join(format!("{name}.sock"));
        listeners.push(UnixListener::bind(&path).unwrap());
        std::fs::set_permissions(&path, PermissionsExt::from_mode(mode)).unwrap();
        args.push(format!("--unix {name}={}", path.display()));
    }
    let file = dir.path().join("toolgate.toml");
    std::fs::write(&file, "[gate]\nfail_under = 0.8\n").unwrap();
    std::fs::set_permissions(&file, PermissionsExt::from_mode(0o644)).unwrap();
    args.push(format!("--chmod reviewed={}", file.display()));
    Kit {
        _dir: dir,
        args: args.join(" "),
        file,
        _listeners: listeners,
    }
}

fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn no_mode_reaches_a_unix_socket_or_changes_a_reviewed_files_mode() {
    let mut modes: Vec<Vec<&str>> = vec![vec![], vec!["--sandbox", "strict"]];
    if crate::sandbox::root() {
        modes.push(vec!["--sandbox-uid", "0"]);
        modes.push(vec!["--sandbox", "strict", "--sandbox-uid", "0"]);
    }
    for flags in modes {
        let kit = kit();
        let found = probe_with(&flags, None, &kit.args);
        denied(&found, "unix:open");
        denied(&found, "unix:group");
        // Another uid is not the owner; toolgate's own uid may not make a file world-writable.
        denied(&found, "chmod:reviewed");
        assert_eq!(mode(&kit.file), 0o644, "{flags:?}");
    }
}

/// A server that keeps toolgate's uid may chmod a file toolgate owns to a harmless mode (npm
/// and uv must set the modes of what they unpack): the change to a reviewed file is caught
/// after the session, put back, and the run refused, naming the file.
#[test]
fn a_reviewed_files_mode_changed_by_a_server_of_toolgates_uid_is_put_back_and_refused() {
    if !crate::sandbox::root() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), PermissionsExt::from_mode(0o755)).unwrap();
    let tasks = dir.path().join("tasks.jsonl");
    std::fs::write(
        &tasks,
        r#"{"id": "t1", "request": "Report, please.", "kind": "direct", "expected": {"tool": "escape_report"}}"#,
    )
    .unwrap();
    std::fs::set_permissions(&tasks, PermissionsExt::from_mode(0o644)).unwrap();
    let server = crate::common::py_server(
        "hostile/escape.py",
        &format!("--chmod reviewed={} --chmod-mode 600", tasks.display()),
    );
    let out = crate::common::toolgate()
        .args(["run", &server, "-t"])
        .arg(&tasks)
        .args(["-m", "bm25", "--sandbox-uid", "0", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("permissions changed from 0644 to 0600"),
        "{err}"
    );
    assert!(err.contains("tasks.jsonl"), "{err}");
    assert_eq!(mode(&tasks), 0o644, "put back");
}

#[test]
fn sandbox_off_is_the_control_sockets_connect() {
    let kit = kit();
    let found = probe_with(&["--sandbox", "off"], None, &kit.args);
    assert_eq!(found["unix:open"], "connected", "{found:?}");
    if crate::sandbox::root() {
        assert_eq!(found["unix:group"], "connected", "{found:?}");
        assert_eq!(found["chmod:reviewed"], "changed", "{found:?}");
    }
}

/// Issue 42 point 5: a key given as `--api-key` is not in `/proc/<toolgate>/cmdline` when the
/// server reads it (the control: the flag itself is there, so the probe did read it).
#[test]
fn an_api_key_flag_is_not_in_toolgates_command_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), PermissionsExt::from_mode(0o777)).unwrap();
    let report = dir.path().join("report.txt");
    let tasks = dir.path().join("tasks.jsonl");
    std::fs::write(
        &tasks,
        r#"{"id": "t1", "request": "Report, please.", "kind": "direct", "expected": {"tool": "escape_report"}}"#,
    )
    .unwrap();
    let server = crate::common::py_server(
        "hostile/escape.py",
        &format!("--report {}", report.display()),
    );
    let key = "sk-cmdline-secret-0042";
    let _ = crate::common::toolgate()
        .args(["run", &server, "-t"])
        .arg(&tasks)
        .args([
            "-m",
            "openai-compat:m",
            "--base-url",
            "http://127.0.0.1:9/v1",
        ])
        .args(["--api-key", key, "--retries", "0", "--no-cache", "--out"])
        .arg(dir.path().join("out"))
        .args(["--sandbox-write"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&report).expect("the probe wrote its report");
    let cmdline = text
        .split_whitespace()
        .find(|w| w.starts_with("cmdline="))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        cmdline.contains("--api-key"),
        "the probe read it: {cmdline}"
    );
    assert!(!cmdline.contains(key), "{cmdline}");
    assert!(!text.contains("cmdline-secret"), "{text}");
}

/// Reads: a checkout's `.git/config` holding the job's token (as `actions/checkout` leaves it),
/// a 0600 file in toolgate's home, `/etc/shadow`: refused in every mode; the workspace's own
/// files stay readable. `--sandbox off` is the control.
#[test]
fn no_mode_reads_git_credentials_toolgates_home_or_shadow() {
    let tmp = tempfile::tempdir().unwrap();
    let checkout = tmp.path().join("repo");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(checkout.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    for d in [tmp.path(), checkout.as_path(), home.as_path()] {
        std::fs::set_permissions(d, PermissionsExt::from_mode(0o755)).unwrap();
    }
    let git_config = checkout.join(".git/config");
    std::fs::write(
        &git_config,
        "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldA==\n",
    )
    .unwrap();
    std::fs::set_permissions(&git_config, PermissionsExt::from_mode(0o644)).unwrap();
    let private = home.join(".netrc");
    std::fs::write(&private, "machine github.com password ghp_home_secret\n").unwrap();
    std::fs::set_permissions(&private, PermissionsExt::from_mode(0o600)).unwrap();
    let own = checkout.join("server.json");
    std::fs::write(&own, "{}").unwrap();
    // The rest of .git is the repository a git server opens: readable.
    let head = checkout.join(".git/HEAD");
    std::fs::write(&head, "ref: refs/heads/main\n").unwrap();
    let args = format!(
        "--read git={} --read home={} --read shadow=/etc/shadow --read own={} --read head={}",
        git_config.display(),
        private.display(),
        own.display(),
        head.display()
    );
    let run = |flags: &[&str]| -> std::collections::BTreeMap<String, String> {
        let snap = tmp.path().join("snap.json");
        let out = crate::common::toolgate()
            .current_dir(&checkout)
            .env("HOME", &home)
            .args([
                "inspect",
                &crate::common::py_server("hostile/escape.py", &args),
            ])
            .args(flags)
            .arg("--save")
            .arg(&snap)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let desc = crate::common::read_json(&snap)["tools"][0]["description"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(!desc.contains("ghp_home_secret"), "{desc}");
        desc.split_whitespace()
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let mut modes: Vec<Vec<&str>> = vec![vec![], vec!["--sandbox", "strict"]];
    if crate::sandbox::root() {
        modes.push(vec!["--sandbox-uid", "0"]);
    }
    for flags in modes {
        let found = run(&flags);
        for route in ["read:git", "read:home", "read:shadow"] {
            assert!(
                found[route].starts_with("denied"),
                "{flags:?} {route}: {found:?}"
            );
        }
        for route in ["read:own", "read:head"] {
            assert!(
                found[route].starts_with("read("),
                "{flags:?} {route}: {found:?}"
            );
        }
    }
    let control = run(&["--sandbox", "off"]);
    assert!(control["read:git"].starts_with("read("), "{control:?}");
    if crate::sandbox::root() {
        assert!(control["read:shadow"].starts_with("read("), "{control:?}");
    }
}

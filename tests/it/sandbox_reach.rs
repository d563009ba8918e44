//! Issue 42 points 1 and 2: the hostile probe tries UNIX sockets it was not given (one 0777,
//! one 0660 owned by toolgate's group, as `/var/run/docker.sock` is on a runner) and to change
//! the mode of a reviewed file, in every sandbox mode and with `--sandbox-uid 0` (the server
//! keeps toolgate's uid and groups). All are refused; `--sandbox off` is the control.

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
        let chmod = &found["chmod:reviewed"];
        assert!(
            chmod.starts_with("denied") || chmod == "unchanged",
            "{flags:?}: chmod = {chmod}: {found:?}"
        );
        assert_eq!(mode(&kit.file), 0o644, "{flags:?}");
    }
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

//! Issue 25 points 2 and 5: the files a reviewer saw (lock, tasks, base) are read and hashed
//! before any server starts, so a server that rewrites them first is caught, naming the file;
//! and input files are regular files only: `/dev/zero`, a FIFO and a symbolic link out of the
//! workspace are refused with the reason, never read (or waited on).

use std::path::Path;

use crate::common::{fixture, toolgate};

/// The reviewed lock (the example's, pinned from after.json), a lock forged for the server's
/// changed tools (before.json), and a server that copies the forgery over the reviewed lock
/// before it answers, then serves the changed tools.
fn attack(dir: &Path) -> (String, std::path::PathBuf, String) {
    let lock = dir.join("toolgate.lock");
    std::fs::copy(fixture("example/toolgate.lock"), &lock).unwrap();
    let forged = dir.join("forged.lock");
    toolgate()
        .args(["pin", &fixture("example/before.json"), "--lock"])
        .arg(&forged)
        .assert()
        .success();
    let server = format!(
        "python3 {} {} --copy {} {}",
        fixture("servers/hostile/rewrite_files.py"),
        fixture("example/before.json"),
        forged.display(),
        lock.display()
    );
    let reviewed = std::fs::read_to_string(&lock).unwrap();
    (server, lock, reviewed)
}

#[test]
fn a_server_that_rewrites_the_lock_before_listing_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let (server, lock, _) = attack(dir.path());
    let out = toolgate()
        .args(["pin", "--check", &server, "--sandbox", "off", "--lock"])
        .arg(&lock)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("toolgate.lock"), "{err}");
    assert!(
        err.contains("changed after toolgate first read it"),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("matches"));
}

#[test]
fn in_the_sandbox_the_rewrite_fails_and_the_change_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    let (server, lock, reviewed) = attack(dir.path());
    let out = toolgate()
        .args(["pin", "--check", &server, "--sandbox-uid", "0", "--lock"])
        .arg(&lock)
        .output()
        .unwrap();
    // The server could not write the workspace: the lock is what was reviewed, and the
    // changed tools fail the check.
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), reviewed);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
}

#[test]
fn ci_catches_a_rewritten_task_file_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = dir.path().join("tasks.jsonl");
    std::fs::copy(fixture("example/tasks.jsonl"), &tasks).unwrap();
    let easy = dir.path().join("easy.jsonl");
    let first = std::fs::read_to_string(&tasks).unwrap();
    std::fs::write(&easy, first.lines().next().unwrap().to_string() + "\n").unwrap();
    let server = format!(
        "python3 {} {} --copy {} {}",
        fixture("servers/hostile/rewrite_files.py"),
        fixture("example/before.json"),
        easy.display(),
        tasks.display()
    );
    let out = toolgate()
        .current_dir(dir.path())
        .args([
            "ci",
            "--server",
            &server,
            "--sandbox",
            "off",
            "--no-github",
            "--tasks",
        ])
        .arg(&tasks)
        .args(["--lock-check", "off", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("tasks.jsonl") && err.contains("changed after toolgate first read it"),
        "{err}"
    );
}

#[test]
fn special_files_and_links_out_of_the_workspace_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let snap = fixture("example/before.json");
    let validate = |tasks: &str| {
        toolgate()
            .current_dir(dir.path())
            .args(["validate", &snap, "-t", tasks])
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap()
    };
    let out = validate("/dev/zero");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a regular file"),
        "{out:?}"
    );

    let fifo = dir.path().join("tasks.fifo");
    let c = std::ffi::CString::new(fifo.display().to_string()).unwrap();
    // SAFETY: mkfifo with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let out = validate("tasks.fifo");
    assert_eq!(
        out.status.code(),
        Some(2),
        "a FIFO must not be waited on: {out:?}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));

    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("id_rsa");
    std::fs::write(&secret, "-----BEGIN OPENSSH PRIVATE KEY-----\n").unwrap();
    std::os::unix::fs::symlink(&secret, dir.path().join("tasks.jsonl")).unwrap();
    let out = validate("tasks.jsonl");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("outside the workspace"), "{err}");
    assert!(!err.contains("BEGIN OPENSSH"), "{err}");

    // Control: a link that stays inside the workspace is read.
    std::fs::copy(
        fixture("example/tasks.jsonl"),
        dir.path().join("real.jsonl"),
    )
    .unwrap();
    std::os::unix::fs::symlink("real.jsonl", dir.path().join("inside.jsonl")).unwrap();
    let out = validate("inside.jsonl");
    assert_ne!(out.status.code(), Some(2), "{out:?}");
}

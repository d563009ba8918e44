//! Issue 42 point 4: no server outlives toolgate. toolgate is killed by SIGKILL, SIGQUIT,
//! SIGABRT and SIGSEGV while a server that never answers runs with a grandchild that left its
//! session (setsid); afterwards no process of that server is left, the grandchild included.

use std::time::{Duration, Instant};

use crate::common::py_server;

fn alive(pid: i32) -> bool {
    let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Gone, or a zombie (exited, waiting for a parent that may be a test harness's init).
    !state.is_empty()
        && !state
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
}

/// Live processes whose command line names `marker`.
fn naming(marker: &str) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains(marker) && alive(pid) {
            found.push(pid);
        }
    }
    found
}

fn killed_by(signal: i32) {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let marker = pidfile.display().to_string();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("toolgate"))
        .args([
            "inspect",
            &py_server("hostile/orphan.py", &format!("{marker} hang")),
            "--connect-timeout",
            "60",
            "--sandbox-uid",
            "0",
            "--sandbox-write",
        ])
        .arg(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !pidfile.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let grandchild: i32 = std::fs::read_to_string(&pidfile)
        .expect("the server wrote its grandchild's pid")
        .trim()
        .parse()
        .unwrap();
    assert!(alive(grandchild), "the grandchild runs before the kill");
    assert!(
        !naming(&marker).is_empty(),
        "the server runs before the kill"
    );
    // SAFETY: a signal to the toolgate this test started.
    unsafe { libc::kill(child.id() as i32, signal) };
    let status = child.wait().unwrap();
    assert!(
        status.code().is_none(),
        "toolgate died of the signal: {status:?}"
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut left = naming(&marker);
    while (!left.is_empty() || alive(grandchild)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = naming(&marker);
    }
    assert!(
        left.is_empty() && !alive(grandchild),
        "signal {signal}: left {left:?}, grandchild {grandchild} alive: {}",
        alive(grandchild)
    );
}

#[test]
fn kill_9_of_toolgate_leaves_no_server_process() {
    killed_by(libc::SIGKILL);
}

#[test]
fn sigquit_sigabrt_and_sigsegv_of_toolgate_leave_no_server_process() {
    for signal in [libc::SIGQUIT, libc::SIGABRT, libc::SIGSEGV] {
        killed_by(signal);
    }
}

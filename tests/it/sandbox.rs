//! Issue 22 point 1: a hostile stdio server, run by a toolgate that is root with every
//! capability (CAP_SYS_PTRACE among them), tries each route to a key — toolgate's environ and
//! memory, ptrace, another root process's environment — and to the workspace, the network and
//! toolgate's signals. The sandbox must close each; `--sandbox off` is the control showing
//! the probe finds what is there.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::process::{Child, Command};

use crate::common::{py_server, read_json, toolgate};

pub(crate) fn root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// A process of toolgate's own uid holding a key in its environment, as the runner's shell
/// that started toolgate would.
struct Decoy(Child);

impl Decoy {
    fn start() -> Decoy {
        Decoy(
            Command::new("sleep")
                .arg("120")
                .env("DECOY_API_KEY", "decoy-secret-0001")
                .spawn()
                .expect("sleep"),
        )
    }
}

impl Drop for Decoy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs the escape probe under `flags` and returns its `route=result` findings.
fn probe(flags: &[&str], cwd: Option<&std::path::Path>) -> BTreeMap<String, String> {
    probe_with(flags, cwd, "")
}

/// As [`probe`], with more arguments for the probe (`--unix NAME=PATH`, `--read NAME=PATH`,
/// `--chmod NAME=PATH`).
pub(crate) fn probe_with(
    flags: &[&str],
    cwd: Option<&std::path::Path>,
    extra: &str,
) -> BTreeMap<String, String> {
    let _decoy = Decoy::start();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("snap.json");
    let server = py_server("hostile/escape.py", &format!("--port {port} {extra}"));
    let mut cmd = toolgate();
    cmd.args(["inspect", &server, "--save"])
        .arg(&snap)
        .args(flags)
        .env("OPENAI_API_KEY", "sk-sandbox-0001")
        .env("GITHUB_TOKEN", "ghp_sandbox0002");
    if let Some(cwd) = cwd {
        cmd.current_dir(cwd);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let desc = read_json(&snap)["tools"][0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    for secret in ["sk-sandbox-0001", "ghp_sandbox0002", "decoy-secret-0001"] {
        assert!(!desc.contains(secret), "{secret} in {desc}");
    }
    desc.split_whitespace()
        .filter_map(|w| w.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

pub(crate) fn denied(found: &BTreeMap<String, String>, route: &str) {
    let v = &found[route];
    assert!(v.starts_with("denied"), "{route} = {v}: {found:?}");
}

#[test]
fn a_hostile_server_finds_no_key_and_cannot_write_the_workspace() {
    let found = probe(&[], None);
    for route in ["environ", "mem", "ptrace", "write_cwd", "write_tmp"] {
        denied(&found, route);
    }
    assert!(
        ["0000000000000000", "0000000000000004"].contains(&found["capeff"].as_str()),
        "{found:?}"
    );
    assert_eq!(found["nnp"], "1", "{found:?}");
    assert!(!found["foreign"].contains("DECOY_API_KEY"), "{found:?}");
    assert_eq!(found["write_home"], "allowed", "its own HOME: {found:?}");
    assert_eq!(
        found["net"], "connected",
        "standard keeps the network: {found:?}"
    );
    if root() {
        assert_eq!(found["uid"], "65534", "{found:?}");
        // At most CAP_DAC_READ_SEARCH (bit 2), kept where Landlock's read rules stand over it.
        for set in ["capeff", "capbnd"] {
            assert!(
                ["0000000000000000", "0000000000000004"].contains(&found[set].as_str()),
                "{set}: {found:?}"
            );
        }
    }
}

#[test]
fn strict_also_cuts_the_network() {
    let found = probe(&["--sandbox", "strict"], None);
    denied(&found, "net");
    denied(&found, "environ");
}

#[test]
fn sandbox_off_is_the_control_the_probe_sees_what_is_there() {
    let found = probe(&["--sandbox", "off"], None);
    assert_eq!(found["net"], "connected", "{found:?}");
    assert_eq!(found["write_tmp"], "allowed", "{found:?}");
    if root() {
        // Root with every capability reads another root process's environment.
        assert!(found["foreign"].contains("DECOY_API_KEY"), "{found:?}");
        assert_ne!(found["capeff"], "0000000000000000", "{found:?}");
    }
}

/// Issue 25 point 4: header values (`Authorization: Bearer …`) leave toolgate's environment
/// once parsed, so even a server that can read it (root, no sandbox) finds none.
#[test]
fn header_values_leave_the_environment_once_parsed() {
    if !root() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("snap.json");
    toolgate()
        .args([
            "inspect",
            &py_server("hostile/escape.py", ""),
            "--sandbox",
            "off",
            "--save",
        ])
        .arg(&snap)
        .env(
            "TOOLGATE_HEADERS",
            "Authorization: Bearer hdr-secret-000111",
        )
        .assert()
        .success();
    let desc = read_json(&snap)["tools"][0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        desc.contains("environ=read"),
        "the control: root reads it: {desc}"
    );
    assert!(desc.contains("headers=absent"), "{desc}");
    assert!(!desc.contains("hdr-secret-000111"), "{desc}");
}

#[test]
fn sandbox_write_opens_one_directory() {
    let dir = tempfile::tempdir().unwrap();
    // Writable by any uid, so only the sandbox stands in the way.
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let found = probe(&[], Some(dir.path()));
    denied(&found, "write_cwd");
    let shown = dir.path().display().to_string();
    let found = probe(&["--sandbox-write", &shown], Some(dir.path()));
    assert_eq!(found["write_cwd"], "allowed", "{found:?}");
    denied(&found, "write_tmp");
}

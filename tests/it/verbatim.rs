//! Issue 40 point 4: the catalog that is hashed, pinned, linted and evaluated is byte for byte
//! what the server sent, whatever the environment holds. Masking applies only to what a person
//! or a log reads, and only to secret-shaped values.

use std::path::Path;

use crate::common::{fixture, third_party, toolgate};

/// The lock, the snapshot and the lint output (JSON and text) of one run of the real npm
/// `server-everything`, with `extra` in the environment and on the command line.
fn outputs(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Vec<(String, Vec<u8>)> {
    let bin = third_party("npm/node_modules/.bin/mcp-server-everything");
    let run = |cmd: &[&str]| {
        let mut c = toolgate();
        c.args(cmd).args(args).current_dir(dir);
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{cmd:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let lock = dir.join("toolgate.lock");
    let snap = dir.join("snapshot.json");
    run(&["pin", &bin, "--lock", lock.to_str().unwrap()]);
    run(&["inspect", &bin, "--save", snap.to_str().unwrap()]);
    let lint_json = run(&["lint", &bin, "--format", "json"]);
    let lint_text = run(&["lint", &bin, "--format", "terminal"]);
    vec![
        ("lock".into(), std::fs::read(&lock).unwrap()),
        ("snapshot".into(), std::fs::read(&snap).unwrap()),
        ("lint json".into(), lint_json),
        ("lint text".into(), lint_text),
    ]
}

#[test]
fn ordinary_words_in_credential_variables_never_rewrite_a_real_server() {
    let plain = tempfile::tempdir().unwrap();
    let noisy = tempfile::tempdir().unwrap();
    let base = outputs(plain.path(), &[("MODE", "unset")], &["--pass-env", "MODE"]);
    // Words the server's text uses 10 to 43 times, each in a credential-named variable or
    // handed to the server.
    let env = [
        ("FOO_TOKEN", "resource"),
        ("POSTGRES_PASSWORD", "postgres"),
        ("SCHEMA_SECRET", "schema"),
        ("MODE", "default"),
    ];
    let with = outputs(noisy.path(), &env, &["--pass-env", "MODE"]);
    let snapshot = String::from_utf8_lossy(&base[1].1).to_string();
    for word in ["resource", "schema", "\"default\""] {
        assert!(snapshot.contains(word), "{word} is in the server's text");
    }
    for ((what, a), (_, b)) in base.iter().zip(&with) {
        assert!(
            a == b,
            "{what} differs with credential-named variables set:\n{}\n---\n{}",
            String::from_utf8_lossy(a),
            String::from_utf8_lossy(b)
        );
        assert!(!String::from_utf8_lossy(b).contains("***"), "{what}");
    }
}

#[test]
fn a_token_a_server_publishes_is_kept_as_sent_noted_and_masked_where_shown() {
    let dir = tempfile::tempdir().unwrap();
    let key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let catalog = dir.path().join("leaky.json");
    std::fs::write(
        &catalog,
        serde_json::json!({"tools": [{
            "name": "fetch_report",
            "description": format!("Fetches the weekly report. Uses the token {key} for the API."),
            "inputSchema": {"type": "object", "properties": {"week": {"type": "integer", "description": "ISO week number."}}}
        }]})
        .to_string(),
    )
    .unwrap();
    let server = format!(
        "python3 {} {}",
        fixture("servers/fakemcp.py"),
        catalog.display()
    );
    let snap = dir.path().join("snap.json");
    let lock = dir.path().join("toolgate.lock");
    let out = toolgate()
        .args(["inspect", &server, "--save"])
        .arg(&snap)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let shown = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!shown.contains(key), "{shown}");
    assert!(shown.contains("credential-looking value"), "{shown}");
    assert!(std::fs::read_to_string(&snap).unwrap().contains(key));
    toolgate()
        .args(["pin", &server, "--lock"])
        .arg(&lock)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&lock).unwrap().contains(key));
    // A report a person reads masks it.
    let report = dir.path().join("lint.sarif");
    toolgate()
        .args(["lint", &server, "--output-sarif"])
        .arg(&report)
        .assert()
        .code(predicates::ord::le(1));
    let sarif = std::fs::read_to_string(&report).unwrap();
    assert!(!sarif.contains(key), "{sarif}");
}

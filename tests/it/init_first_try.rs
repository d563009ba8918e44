//! Issue 43: the first try in a real repository. `init` takes the connection flags (and their
//! variables) every command that starts a server takes, writes the ones given into
//! toolgate.toml's `[connect]`, and still writes the settings and workflows when the server
//! cannot start yet, saying what to do.

use crate::common::{fixture, toolgate};

#[test]
fn init_takes_the_connection_flags_and_writes_them_to_the_settings() {
    let dir = tempfile::tempdir().unwrap();
    let o = toolgate()
        .current_dir(dir.path())
        .args([
            "init",
            "--server",
            &fixture("example/after.json").to_string(),
        ])
        .args(["--sandbox-uid", "0", "--connect-timeout", "90"])
        .env("TOOLGATE_PASS_ENV", "MY_SERVICE_TOKEN")
        .args(["--header", "Authorization: Bearer init-secret-1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let config = std::fs::read_to_string(dir.path().join("toolgate.toml")).unwrap();
    let parsed: toml::Value = toml::from_str(&config).expect("the settings parse");
    let connect = &parsed["connect"];
    assert_eq!(connect["sandbox_uid"].as_integer(), Some(0), "{config}");
    assert_eq!(
        connect["connect_timeout"].as_float(),
        Some(90.0),
        "{config}"
    );
    assert_eq!(
        connect["pass_env"].as_array().unwrap()[0].as_str(),
        Some("MY_SERVICE_TOKEN"),
        "the variable counts like the flag: {config}"
    );
    assert!(!config.contains("init-secret-1"), "{config}");
    assert!(err.contains("header values are not written"), "{err}");
}

#[test]
fn a_server_that_cannot_start_yet_still_gets_its_settings_and_workflows() {
    let dir = tempfile::tempdir().unwrap();
    let o = toolgate()
        .current_dir(dir.path())
        .args(["init", "--server", "node dist/index.js"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for f in [
        "toolgate.toml",
        ".github/workflows/toolgate.yml",
        ".github/workflows/toolgate-comment.yml",
    ] {
        assert!(dir.path().join(f).is_file(), "{f} was not written: {err}");
    }
    assert!(!dir.path().join("tasks.jsonl").exists());
    assert!(
        err.contains("the settings and workflows are written"),
        "{err}"
    );
    assert!(err.contains("could not be started"), "{err}");
    let config = std::fs::read_to_string(dir.path().join("toolgate.toml")).unwrap();
    assert!(
        config.contains("server = \"node dist/index.js\""),
        "{config}"
    );
}

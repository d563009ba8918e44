//! Issue 11, points 1–3: a stdio server that reads `/proc/<toolgate>/environ`, its own
//! environment, and prints what it found, must not see any key toolgate holds; its stderr,
//! quoted in an error, must not publish one.

use std::process::Command;

use crate::common::{py_server, read_json, toolgate};
use toolgate::testing::catalog::{self, ConnectOptions, ServerSpec};
use toolgate::testing::secrets as env;

const KEYS: &[(&str, &str)] = &[
    ("OPENAI_API_KEY", "sk-hostile-openai-0001"),
    ("ANTHROPIC_API_KEY", "sk-ant-hostile-0002"),
    ("GITHUB_TOKEN", "ghp_hostile0003"),
    ("OPENAI_COMPAT_API_KEY", "compat-hostile-0004"),
    ("LLAMACPP_API_KEY", "llamacpp-hostile-0005"),
    ("TOOLGATE_GITHUB_TOKEN", "ghs_hostile0006"),
];

/// Re-runs this test binary as a child that does what `main` must do (or nothing, for the
/// control), then connects to the hostile server and prints the description it published.
fn run_child(test: &str, mode: &str) -> String {
    let exe = std::env::current_exe().expect("test binary");
    // The attack is a server of toolgate's own uid. As root (with CAP_SYS_PTRACE) /proc is
    // readable whatever the dumpable flag says, so drop to `nobody` (and every capability).
    let mut cmd = if unsafe { libc::geteuid() } == 0 {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(exe);
        c
    } else {
        Command::new(exe)
    };
    // The test's full name in this binary: its module path without the crate's name.
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let full = format!("{module}::{test}");
    cmd.args([full.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env("HOSTILE_CHILD", mode);
    for (k, v) in KEYS {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run child");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "child failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .find_map(|l| l.split_once("DESCRIPTION: ").map(|(_, d)| d))
        .unwrap_or_else(|| panic!("no description in child output: {stdout}"))
        .to_string()
}

fn child_connect(mode: &str) {
    if mode == "harden" {
        env::harden_process().expect("prctl");
        // SAFETY: the test harness runs this test alone in the child (--test-threads=1); no
        // other thread touches the environment, and the runtime starts afterwards.
        let taken = unsafe { env::take_secrets() };
        assert!(taken.iter().any(|n| n == "OPENAI_API_KEY"), "{taken:?}");
        assert_eq!(
            env::secret_var("OPENAI_API_KEY").as_deref(),
            Some("sk-hostile-openai-0001")
        );
        assert!(std::env::var("OPENAI_API_KEY").is_err());
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let spec = ServerSpec::parse(&py_server("hostile/proc_environ.py", ""), &[]).expect("spec");
    // The hardening alone, without the sandbox (whose Landlock domain would also stop the
    // probe from reading /proc of a process outside it).
    let mut opts = ConnectOptions {
        connect_timeout: std::time::Duration::from_secs(20),
        ..Default::default()
    };
    opts.sandbox.mode = toolgate::testing::sandbox::SandboxMode::Off;
    let catalog = rt.block_on(catalog::load(&spec, &opts)).expect("connect");
    println!(
        "DESCRIPTION: {}",
        catalog.tools[0].description().unwrap_or("")
    );
}

#[test]
fn hardened_process_hides_keys_from_proc_environ() {
    if let Ok(mode) = std::env::var("HOSTILE_CHILD") {
        child_connect(&mode);
        return;
    }
    // Control: without hardening the probe does read the parent's keys (so the test can fail).
    let plain = run_child("hardened_process_hides_keys_from_proc_environ", "none");
    assert!(plain.contains("parent environ readable"), "{plain}");
    // It read the key, and published it: the catalog keeps what the server sent (toolgate
    // masks it only where it shows it).
    assert!(
        plain.contains("OPENAI_API_KEY=sk-hostile-openai-0001"),
        "{plain}"
    );

    let hardened = run_child("hardened_process_hides_keys_from_proc_environ", "harden");
    for (name, value) in KEYS {
        assert!(!hardened.contains(value), "{name} leaked: {hardened}");
    }
    assert!(hardened.contains("parent environ unreadable"), "{hardened}");
}

/// main calls `env::harden_process()` and `env::take_secrets()` first thing, before the
/// runtime starts: the binary's environment is not readable through /proc.
#[test]
fn binary_hides_keys_from_proc_environ() {
    let snapshot = tempfile::NamedTempFile::new().unwrap();
    let mut cmd = toolgate();
    cmd.args([
        "inspect",
        &py_server("hostile/proc_environ.py", ""),
        "--save",
    ])
    .arg(snapshot.path());
    for (k, v) in KEYS {
        cmd.env(k, v);
    }
    cmd.assert().success();
    let desc = read_json(snapshot.path())["tools"][0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    for (name, value) in KEYS {
        assert!(!desc.contains(value), "{name} leaked: {desc}");
    }
    // As root with CAP_SYS_PTRACE /proc stays readable (the values are wiped all the same).
    if unsafe { libc::geteuid() } != 0 {
        assert!(desc.contains("parent environ unreadable"), "{desc}");
    }
}

/// Point 2: toolgate's own provider variables (derived from the provider table) and the
/// runner's command files never reach the server's environment.
#[test]
fn own_provider_keys_and_runner_files_are_stripped() {
    let snapshot = tempfile::NamedTempFile::new().unwrap();
    let runner = tempfile::tempdir().unwrap();
    let github_env = runner.path().join("github_env");
    std::fs::write(&github_env, "").unwrap();
    toolgate()
        .args(["inspect", &py_server("env_probe.py", ""), "--save"])
        .arg(snapshot.path())
        .env("OPENAI_COMPAT_API_KEY", "compat-key-123")
        .env("LLAMACPP_API_KEY", "llamacpp-key-123")
        .env("ACTIONS_CACHE_URL", "https://cache.example/TOKEN")
        .env("ACTIONS_RESULTS_URL", "https://results.example/")
        .env("MY_SERVER_API_KEY", "server-own-key")
        .assert()
        .success();
    let desc = read_json(snapshot.path())["tools"][0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(desc.contains("MY_SERVER_API_KEY"), "{desc}");
    for stripped in ["OPENAI_COMPAT_API_KEY", "LLAMACPP_API_KEY"] {
        assert!(!desc.contains(stripped), "{stripped} leaked: {desc}");
    }
    // The runner variables, checked through a probe that lists every variable name.
    let out = toolgate()
        .args([
            "inspect",
            "python3 -c \"import os,sys; sys.stderr.write(' '.join(k for k in sorted(os.environ) if k.startswith(('GITHUB_', 'ACTIONS_')))); sys.exit(3)\"",
            "--connect-timeout",
            "10",
        ])
        .env("GITHUB_ENV", &github_env)
        .env("GITHUB_PATH", &github_env)
        .env("GITHUB_OUTPUT", &github_env)
        .env("GITHUB_STEP_SUMMARY", &github_env)
        .env("GITHUB_EVENT_PATH", &github_env)
        .env("ACTIONS_RUNTIME_URL", "https://runtime.example/")
        .env("GITHUB_WORKSPACE", runner.path())
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(err.contains("GITHUB_WORKSPACE"), "{err}");
    for v in [
        "GITHUB_ENV",
        "GITHUB_PATH",
        "GITHUB_OUTPUT",
        "GITHUB_STEP_SUMMARY",
        "GITHUB_EVENT_PATH",
        "ACTIONS_RUNTIME_URL",
    ] {
        assert!(
            !err.split_whitespace().any(|w| w == v),
            "{v} reached the server: {err}"
        );
    }
}

/// Point 3: a failing server that prints its environment (and a header value it was given)
/// on stderr: the error toolgate shows masks every secret-looking value.
#[test]
fn server_stderr_is_masked_in_errors() {
    let out = toolgate()
        .args([
            "inspect",
            &py_server("hostile/proc_environ.py", "--crash --show=PASSED_THROUGH"),
            "--connect-timeout",
            "20",
            "--pass-env",
            "PASSED_THROUGH",
        ])
        .env("MY_SERVER_API_KEY", "server-own-key-777")
        .env("DB_PASSWORD", "hunter2-password")
        .env("PASSED_THROUGH", "passed-through-value-888")
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(err.contains("own secrets"), "the stderr is shown: {err}");
    for value in [
        "server-own-key-777",
        "hunter2-password",
        "passed-through-value-888",
    ] {
        assert!(!err.contains(value), "{value} published: {err}");
    }
}

/// Point 3: secrets a server prints on stdout (junk lines toolgate quotes in a note) are
/// masked too.
#[test]
fn junk_stdout_quoted_in_notes_is_masked() {
    let out = toolgate()
        .args([
            "inspect",
            &py_server("hostile/proc_environ.py", "--junk-env"),
            "--connect-timeout",
            "20",
        ])
        .env("MY_SERVER_API_KEY", "server-own-key-999")
        .assert()
        .success()
        .get_output()
        .clone();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        all.contains("non-protocol line"),
        "the junk is noted: {all}"
    );
    assert!(all.contains("MY_SERVER_API_KEY=***"), "{all}");
    assert!(!all.contains("server-own-key-999"), "{all}");
}

/// Issue 25 point 4: in a belt, a `--pass-env` credential reaches only the server whose own
/// section names it; the server beside it never sees it.
#[test]
fn a_belt_server_sees_only_the_credentials_its_own_section_names() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("mcp.json");
    let probe = crate::common::fixture("servers/env_probe.py");
    std::fs::write(
        &cfg,
        serde_json::json!({"mcpServers": {
            "needs_token": {"command": "python3", "args": [probe], "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
            "beside": {"command": "python3", "args": [probe]}
        }})
        .to_string(),
    )
    .unwrap();
    let lock = dir.path().join("belt.lock");
    let out = toolgate()
        .args(["pin", "--mcp-config"])
        .arg(&cfg)
        .arg("--lock")
        .arg(&lock)
        .args(["--pass-env", "GITHUB_TOKEN"])
        .env("GITHUB_TOKEN", "ghp_belttoken000000000000000000000001")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&lock).unwrap();
    // Each server's probe lists the credential variables it saw in its description.
    let seen = |server: &str| -> bool {
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let section = v["servers"]
            .get(server)
            .map(|s| s.to_string())
            .unwrap_or_else(|| panic!("no server {server} in {text}"));
        assert!(section.contains("Variables seen"), "{section}");
        section.contains("GITHUB_TOKEN")
    };
    assert!(seen("needs_token"), "{text}");
    assert!(!seen("beside"), "{text}");
}

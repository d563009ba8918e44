//! Spawns real MCP servers — our fixtures over stdio and Streamable HTTP, hostile fixtures, and
//! third-party servers installed from npm and PyPI by .ci/run — and reads their catalogs.

use crate::common::*;
use predicates::prelude::*;
use serde_json::Value;

fn inspect_json(server: &str, extra: &[&str]) -> Value {
    let out = toolgate()
        .args(["inspect", server, "--json"])
        .args(extra)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "inspect failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json output")
}

fn snapshot_hash(path: &str) -> String {
    inspect_json(path, &[])["catalog_sha256"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn stdio_fixture_all_pages_same_hash_as_snapshot() {
    let memory = fixture("catalogs/memory.json");
    let live = inspect_json(
        &py_server("fakemcp.py", &format!("{memory} --page-size 4")),
        &[],
    );
    assert_eq!(live["tools"].as_array().unwrap().len(), 9);
    assert_eq!(live["server"]["name"], "fakemcp");
    assert_eq!(
        live["catalog_sha256"].as_str().unwrap(),
        snapshot_hash(&memory)
    );
}

#[test]
fn http_fixture_json_and_sse_with_credentials() {
    let memory = fixture("catalogs/memory.json");
    let expected = snapshot_hash(&memory);
    let json_srv = HttpServer::start(&[&memory, "--token", "tok-123", "--page-size", "5"]);
    let out = toolgate()
        .args([
            "inspect",
            &json_srv.url,
            "--json",
            "--bearer-env",
            "FIXTURE_TOKEN",
        ])
        .env("FIXTURE_TOKEN", "tok-123")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["catalog_sha256"].as_str().unwrap(), expected);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("tok-123"));

    let sse_srv = HttpServer::start(&[&memory, "--sse", "--require-header", "X-Team: blue"]);
    let v = inspect_json(&sse_srv.url, &["--header", "X-Team: blue"]);
    assert_eq!(v["catalog_sha256"].as_str().unwrap(), expected);
}

#[test]
fn http_without_credentials_is_a_clear_error() {
    let srv = HttpServer::start(&[&fixture("catalogs/memory.json"), "--token", "tok-123"]);
    toolgate()
        .args(["inspect", &srv.url])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--bearer-env"))
        .stderr(predicate::str::contains("rmcp::").not());
}

#[test]
fn unreachable_url_is_exit_2() {
    let port = free_port();
    toolgate()
        .args([
            "inspect",
            &format!("http://127.0.0.1:{port}/mcp"),
            "--connect-timeout",
            "2",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("could not read the tools"))
        .stderr(predicate::str::contains("does not answer yet"))
        .stderr(predicate::str::contains(
            "attempts over 2 s (--connect-timeout)",
        ));
}

#[test]
fn hostile_crash_during_handshake_shows_stderr() {
    toolgate()
        .args(["inspect", &py_server("hostile/crash_on_init.py", "")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("exit status: 3"))
        .stderr(predicate::str::contains("missing DATABASE_URL"))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn hostile_hang_ends_at_the_timeout() {
    let started = std::time::Instant::now();
    toolgate()
        .args([
            "inspect",
            &py_server("hostile/hang.py", ""),
            "--connect-timeout",
            "2",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("within 2s (--connect-timeout)"));
    assert!(started.elapsed().as_secs() < 60);
}

#[test]
fn hostile_junk_on_stdout_is_skipped() {
    toolgate()
        .args(["inspect", &py_server("hostile/junk_stdout.py", "")])
        .assert()
        .success()
        .stdout(predicate::str::contains("echo"))
        .stderr(predicate::str::contains("non-protocol line"));
}

#[test]
fn hostile_repeated_cursor_and_endless_pages() {
    toolgate()
        .args(["inspect", &py_server("hostile/endless_cursor.py", "repeat")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "returned the cursor `page-2` twice",
        ));
    toolgate()
        .args([
            "inspect",
            &py_server("hostile/endless_cursor.py", "endless"),
            "--max-pages",
            "7",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("after 7 pages (--max-pages)"));
}

#[test]
fn hostile_ten_megabyte_description_is_a_finding() {
    toolgate()
        .args([
            "lint",
            &py_server("hostile/huge_description.py", ""),
            "--format",
            "json",
        ])
        .assert()
        .code(predicate::in_iter([0, 1]))
        .stdout(predicate::str::contains("\"code\": \"TG012\""))
        .stdout(predicate::str::contains("\"code\": \"TG022\""));
}

#[test]
fn hostile_self_referencing_ref_is_a_finding() {
    let out = toolgate()
        .args([
            "lint",
            &py_server("hostile/self_ref_schema.py", ""),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tools: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "TG011")
        .map(|f| f["tool"].as_str().unwrap())
        .collect();
    assert!(tools.contains(&"loop_forever"), "{tools:?}");
    assert!(tools.contains(&"self_root"), "{tools:?}");
    assert!(!tools.contains(&"make_tree"), "{tools:?}");
}

#[test]
fn provider_keys_never_reach_the_server() {
    let snapshot = tempfile::NamedTempFile::new().unwrap();
    toolgate()
        .args(["inspect", &py_server("env_probe.py", ""), "--save"])
        .arg(snapshot.path())
        .env("OPENAI_API_KEY", "sk-test-1")
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .env("GITHUB_TOKEN", "ghp_test")
        .env("MY_SERVER_API_KEY", "server-own-key")
        .env("INPUT_GITHUB-TOKEN", "ghs_action_input")
        .env("TOOLGATE_GITHUB_TOKEN", "ghs_action_input")
        .assert()
        .success();
    let desc = read_json(snapshot.path())["tools"][0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(desc.contains("MY_SERVER_API_KEY"), "{desc}");
    for stripped in [
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "GITHUB_TOKEN",
        "INPUT_GITHUB-TOKEN",
        "TOOLGATE_GITHUB_TOKEN",
    ] {
        assert!(!desc.contains(stripped), "{stripped} leaked: {desc}");
    }
    toolgate()
        .args([
            "inspect",
            &py_server("env_probe.py", ""),
            "--pass-env",
            "GITHUB_TOKEN",
            "--save",
        ])
        .arg(snapshot.path())
        .env("GITHUB_TOKEN", "ghp_test")
        .assert()
        .success();
    let desc = read_json(snapshot.path())["tools"][0]["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(desc.contains("GITHUB_TOKEN"), "{desc}");
}

#[test]
fn third_party_npm_memory_server_over_stdio_matches_its_published_catalog() {
    let bin = third_party("npm/node_modules/.bin/mcp-server-memory");
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("memory.json");
    toolgate()
        .args(["inspect", &bin, "--save"])
        .arg(&snap)
        .env("MEMORY_FILE_PATH", dir.path().join("memory.jsonl"))
        .assert()
        .success()
        .stdout(predicate::str::contains("search_nodes"));
    let saved = read_json(&snap);
    // fixtures/catalogs/memory.json is the published catalog of this exact package version.
    let published = read_json(std::path::Path::new(&fixture("catalogs/memory.json")));
    assert_eq!(
        saved["tools"], published["tools"],
        "raw capture must keep every field"
    );
    let lock = dir.path().join("toolgate.lock");
    toolgate()
        .args(["pin", &bin, "--lock"])
        .arg(&lock)
        .env("MEMORY_FILE_PATH", dir.path().join("memory.jsonl"))
        .assert()
        .success();
    toolgate()
        .args(["pin", "--check", &bin, "--lock"])
        .arg(&lock)
        .env("MEMORY_FILE_PATH", dir.path().join("memory.jsonl"))
        .assert()
        .success()
        .stdout(predicate::str::contains("matches"));
}

#[test]
fn third_party_npm_everything_server_over_streamable_http() {
    let bin = third_party("npm/node_modules/.bin/mcp-server-everything");
    let port = free_port();
    let srv = HttpServer::start_on_port(
        std::process::Command::new(bin)
            .arg("streamableHttp")
            .env("PORT", port.to_string()),
        port,
        "/mcp",
    );
    let v = inspect_json(&srv.url, &["--connect-timeout", "20"]);
    let names: Vec<&str> = v["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"get-sum"), "{names:?}");
    assert!(v["instructions"].is_string());
}

#[test]
fn third_party_pypi_time_server_over_stdio() {
    let bin = third_party("venv/bin/mcp-server-time");
    // The venv's python may link under /root (mode 0700): as root, keep root's uid (without
    // capabilities) rather than 65534, which cannot reach it.
    let v = inspect_json(&bin, &["--connect-timeout", "30", "--sandbox-uid", "0"]);
    let names: Vec<&str> = v["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["get_current_time", "convert_time"]);
}

#[test]
fn hostile_tool_without_input_schema_is_read_raw_and_reported() {
    let out = toolgate()
        .args([
            "lint",
            &py_server("hostile/no_input_schema.py", ""),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("used the raw JSON"));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tool_count"], 2, "both pages were read");
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "TG010" && f["tool"] == "noschema")
    );
}

/// Issue 23 point 6: a legacy HTTP+SSE server (the official Python SDK's `sse` transport) is
/// named as such, and a wrong path gets URL-specific help, not "is it installed".
#[test]
fn a_legacy_sse_server_and_a_wrong_path_get_their_own_help() {
    let port = free_port();
    let _server = HttpServer::start_on_port(
        std::process::Command::new(third_party("venv/bin/python"))
            .arg(fixture("servers/legacy_sse.py"))
            .arg(port.to_string()),
        port,
        "/sse",
    );
    let o = toolgate()
        .args(["inspect", &format!("http://127.0.0.1:{port}/sse")])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("legacy HTTP+SSE server"), "{err}");
    assert!(
        err.contains("session_id"),
        "the announced endpoint is shown: {err}"
    );
    let o = toolgate()
        .args(["inspect", &format!("http://127.0.0.1:{port}/api")])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("is the endpoint `/mcp`?"), "{err}");
    assert!(
        err.contains(&format!("http://127.0.0.1:{port}/mcp")),
        "{err}"
    );
    assert!(!err.contains("on PATH"), "{err}");
}

/// Issue 23 point 2: a registry `server.json` is a SERVER: its npm package is started the way a
/// client would (`npx -y <id>@<version>`; npx finds the copy .ci/run installed), and the
/// server's real catalog is read.
#[test]
fn a_registry_server_json_starts_its_package() {
    let dir = tempfile::tempdir().unwrap();
    let sj = dir.path().join("server.json");
    std::fs::write(
        &sj,
        serde_json::json!({
            "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
            "name": "io.github.modelcontextprotocol/server-memory",
            "version": "2026.8.31",
            "packages": [{"registryType": "npm", "identifier": "@modelcontextprotocol/server-memory",
                "version": "2026.8.31", "transport": {"type": "stdio"}}]
        })
        .to_string(),
    )
    .unwrap();
    let o = toolgate()
        .current_dir(third_party("npm"))
        .args(["inspect", "--json", "--sandbox-uid", "0", "--sandbox-write"])
        .arg(dir.path())
        .arg(&sj)
        .env("MEMORY_FILE_PATH", dir.path().join("memory.jsonl"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("started as the npm package"), "{err}");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        v["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "create_entities"),
        "{v}"
    );
}

/// A service behind a published port that is still starting: the port's proxy accepts each
/// connection and closes it at once. toolgate says so once and tries the handshake again
/// until the server behind it answers (here: after two seconds of closed connections).
#[test]
fn a_service_still_starting_behind_a_port_proxy_is_waited_for() {
    let port = free_port();
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).unwrap();
    listener.set_nonblocking(true).unwrap();
    let proxy = std::thread::spawn(move || {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
        let mut closed = 0;
        while std::time::Instant::now() < until {
            match listener.accept() {
                Ok((conn, _)) => {
                    drop(conn);
                    closed += 1;
                }
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
            }
        }
        closed
    });
    let gate = std::thread::spawn(move || {
        toolgate()
            .args([
                "inspect",
                "--json",
                &format!("http://127.0.0.1:{port}/mcp"),
                "--connect-timeout",
                "30",
            ])
            .output()
            .unwrap()
    });
    let closed = proxy.join().unwrap();
    assert!(
        closed > 0,
        "toolgate tried while the port only closed connections"
    );
    let _server = HttpServer::start(&[
        &fixture("catalogs/memory.json"),
        "--port",
        &port.to_string(),
    ]);
    let o = gate.join().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("does not answer yet"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(!v["tools"].as_array().unwrap().is_empty());
}

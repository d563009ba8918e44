//! Issue 22 point 6: `toolgate contract` calls tools only because it was asked, only read-only
//! ones without --allow-writes, and reports how each answered schema-invalid and valid
//! arguments. Over stdio and HTTP with the fixture whose tools each keep or break a part of
//! the contract, and on real third-party servers (their writing tools never called).

use std::process::Command;

use serde_json::Value;

use crate::common::{HttpServer, fixture, py_server, third_party, toolgate};

fn probes<'a>(report: &'a Value, tool: &str) -> &'a Vec<Value> {
    static EMPTY: Vec<Value> = Vec::new();
    report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tool"] == tool)
        .unwrap_or_else(|| panic!("no tool {tool} in {report:#}"))["probes"]
        .as_array()
        .unwrap_or(&EMPTY)
}

fn probe<'a>(report: &'a Value, tool: &str, kind: &str) -> &'a Value {
    probes(report, tool)
        .iter()
        .find(|p| p["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} probe of {tool}: {report:#}"))
}

fn contract(server: &str, flags: &[&str]) -> (i32, Value, String) {
    let out = toolgate()
        .args(["contract", server, "--json", "--call-timeout", "1"])
        .args(flags)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code().unwrap_or(-1), report, stderr)
}

fn called(calls: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(calls)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The fixture's verdicts, whatever the transport; `failing` are the tools expected to fail.
fn check_fixture_verdicts(r: &Value, failing: &[&str]) {
    for kind in [
        "missing_required",
        "wrong_type",
        "unknown_argument",
        "valid_sample",
    ] {
        let p = probe(r, "lookup_city", kind);
        assert_eq!(p["verdict"], "pass", "{p:#}");
    }
    assert_eq!(probe(r, "lookup_city", "wrong_type")["answer"], "is_error");
    let broken = probe(r, "broken_output", "valid_sample");
    assert_eq!(broken["verdict"], "fail");
    assert!(
        broken["detail"]
            .as_str()
            .unwrap()
            .contains("does not conform"),
        "{broken:#}"
    );
    let lax = probe(r, "lax_echo", "missing_required");
    assert_eq!(
        (&lax["answer"], &lax["verdict"]),
        (&"result".into(), &"fail".into())
    );
    let rpc = probe(r, "strict_rpc", "wrong_type");
    assert_eq!(
        (&rpc["answer"], &rpc["verdict"]),
        (&"protocol_error".into(), &"warn".into())
    );
    let slow = &probes(r, "slow_report")[0];
    assert_eq!(slow["answer"], "timeout", "{slow:#}");
    let failing_tools: Vec<&str> = r["summary"]["failing_tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(failing_tools, failing);
}

#[test]
fn over_stdio_read_only_tools_are_judged_and_the_writing_one_is_never_called() {
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls.txt");
    let server = py_server("contract.py", &format!("--calls {}", calls.display()));
    let dirs = dir.path().display().to_string();
    let (code, r, stderr) = contract(&server, &["--sandbox-uid", "0", "--sandbox-write", &dirs]);
    assert_eq!(code, 1, "{stderr}");
    check_fixture_verdicts(&r, &["broken_output", "lax_echo", "slow_report"]);
    let wipe = r["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tool"] == "wipe_records")
        .unwrap();
    assert_eq!(wipe["effects"], "may_write");
    assert!(wipe["skipped"].as_str().unwrap().contains("--allow-writes"));
    let seen = called(&calls);
    assert!(!seen.is_empty(), "the fixture recorded no call");
    assert!(!seen.iter().any(|c| c == "wipe_records"), "{seen:?}");
    // The summary adds up to what the tools hold.
    let s = &r["summary"];
    let n: u64 = ["passed", "warned", "failed"]
        .iter()
        .map(|k| s[k].as_u64().unwrap())
        .sum();
    assert_eq!(n, s["calls"].as_u64().unwrap());
    // Every call but the slow tool's (queued behind its first, never read) reached the server.
    let slow = probes(&r, "slow_report").len();
    let answered = seen.iter().filter(|c| *c != "slow_report").count();
    assert_eq!(s["calls"].as_u64().unwrap() as usize - slow, answered);
}

#[test]
fn over_http_allow_writes_calls_the_writing_tool_too() {
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls.txt");
    let srv = HttpServer::start_cmd(
        Command::new("python3")
            .arg(fixture("servers/contract.py"))
            .args(["--http", "--calls"])
            .arg(&calls),
    );
    let (code, r, stderr) = contract(&srv.url, &["--allow-writes"]);
    assert_eq!(code, 1, "{stderr}");
    // The writing tool, which ignores its arguments, fails the invalid-argument calls too.
    check_fixture_verdicts(
        &r,
        &["broken_output", "lax_echo", "wipe_records", "slow_report"],
    );
    assert_eq!(r["allow_writes"], true);
    assert!(!probes(&r, "wipe_records").is_empty(), "{r:#}");
    assert!(called(&calls).iter().any(|c| c == "wipe_records"));
}

#[test]
fn a_snapshot_or_a_catalog_without_read_only_tools_tests_nothing_and_says_so() {
    let out = toolgate()
        .args(["contract", &fixture("example/before.json")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a live server"));
    // Tools without readOnlyHint: none is called, exit 2, and why.
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("cat.json");
    std::fs::write(
        &cat,
        r#"{"tools": [{"name": "send_mail", "description": "Send an email.", "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}}]}"#,
    )
    .unwrap();
    let server = py_server("fakemcp.py", &cat.display().to_string());
    let out = toolgate()
        .args(["contract", &server, "--sandbox-uid", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no tool was called"), "{err}");
}

#[test]
fn on_the_memory_server_writing_tools_stay_uncalled_and_the_graph_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let memory = dir.path().join("memory.jsonl");
    let seeded = "{\"type\":\"entity\",\"name\":\"Lyon\",\"entityType\":\"city\",\"observations\":[\"on the Rhône\"]}\n";
    std::fs::write(&memory, seeded).unwrap();
    let bin = third_party("npm/node_modules/.bin/mcp-server-memory");
    let out = toolgate()
        .args([
            "contract",
            &bin,
            "--json",
            "--sandbox-uid",
            "0",
            "--sandbox-write",
        ])
        .arg(dir.path())
        .env("MEMORY_FILE_PATH", &memory)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let r: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_ne!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&memory).unwrap(),
        seeded,
        "a tool wrote the graph"
    );
    for t in r["tools"].as_array().unwrap() {
        let writes = t["effects"] == "may_write";
        assert_eq!(writes, t["probes"].as_array().is_none(), "{t:#}");
    }
    // The read-only tools were called with invalid arguments, and each answer is recorded.
    let invalid: Vec<&Value> = ["read_graph", "search_nodes", "open_nodes"]
        .iter()
        .flat_map(|t| probes(&r, t).iter())
        .filter(|p| p["kind"] != "valid_sample")
        .collect();
    assert!(!invalid.is_empty(), "{r:#}");
    for p in &invalid {
        assert!(
            ["is_error", "protocol_error", "result"].contains(&p["answer"].as_str().unwrap()),
            "{p:#}"
        );
    }
    let open = probe(&r, "open_nodes", "valid_sample");
    assert_ne!(open["answer"], "timeout", "{open:#}");
}

#[test]
fn on_the_everything_server_only_read_only_tools_are_called() {
    let bin = third_party("npm/node_modules/.bin/mcp-server-everything");
    let (code, r, stderr) = contract(&bin, &["--sandbox-uid", "0"]);
    assert_ne!(code, 2, "{stderr}");
    let mut called_tools = 0;
    for t in r["tools"].as_array().unwrap() {
        let read_only = t["effects"] == "read_only";
        let called = t["probes"].as_array().is_some_and(|p| !p.is_empty());
        assert!(
            read_only || !called,
            "a tool that may write was called: {t:#}"
        );
        called_tools += usize::from(called);
    }
    assert!(called_tools >= 5, "{r:#}");
    // `get-sum` takes two numbers: a string for one must not pass silently.
    let sum = probe(&r, "get-sum", "wrong_type");
    assert_ne!(sum["answer"], "timeout", "{sum:#}");
    assert_eq!(
        probe(&r, "get-sum", "valid_sample")["verdict"],
        "pass",
        "{r:#}"
    );
}

#[test]
fn ci_calls_no_tool_unless_asked_and_with_contract_fails_the_gate_in_every_report() {
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls.txt");
    let server = py_server("contract.py", &format!("--calls {}", calls.display()));
    let dirs = dir.path().display().to_string();
    let ci = |extra: &[&str], out: &str| {
        toolgate()
            .current_dir(dir.path())
            .args([
                "ci",
                "--server",
                &server,
                "--no-github",
                "--lock-check",
                "off",
            ])
            .args(["--sandbox-uid", "0", "--sandbox-write", &dirs, "--out", out])
            .args(extra)
            .output()
            .unwrap()
    };
    // Without --contract: listed and evaluated, never called.
    let plain = ci(&[], "plain");
    assert_ne!(plain.status.code(), Some(2), "{plain:?}");
    assert!(called(&calls).is_empty(), "ci called a tool unasked");
    let report: Value = crate::common::read_json(&dir.path().join("plain/ci.json"));
    assert!(report.get("contract").is_none());

    let out = ci(&["--contract", "--call-timeout", "1"], "with");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let report: Value = crate::common::read_json(&dir.path().join("with/ci.json"));
    assert_eq!(
        report["contract"]["summary"]["failing_tools"][0],
        "broken_output"
    );
    let reason = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "contract")
        .unwrap_or_else(|| panic!("no contract reason: {report:#}"));
    assert_eq!(reason["failed"], report["contract"]["summary"]["failed"]);
    let summary = std::fs::read_to_string(dir.path().join("with/summary.md")).unwrap();
    assert!(summary.contains("### Contract tests"), "{summary}");
    assert!(summary.contains("`lax_echo`"), "{summary}");
    assert!(summary.contains("contract call\\(s\\) failed"), "{summary}");
    assert!(dir.path().join("with/contract.json").is_file());
    assert!(!called(&calls).iter().any(|c| c == "wipe_records"));
}

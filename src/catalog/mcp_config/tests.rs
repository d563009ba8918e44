use super::*;
use serde_json::json;

fn lookup(name: &str) -> Result<Option<String>, String> {
    match name {
        "HOME" => Ok(Some("/home/u".into())),
        "MEM_DIR" => Ok(Some("/tmp/mem".into())),
        "TOKEN_VAR" => Ok(Some("tok-123456".into())),
        "GITHUB_TOKEN" => Err("is a credential toolgate keeps from servers".into()),
        _ => Ok(None),
    }
}

fn parse_at(path: &str, text: &str) -> Result<McpConfig, String> {
    let vars = Vars {
        lookup: &lookup,
        workspace: workspace_of(Path::new(path)).display().to_string(),
    };
    parse(Path::new(path), text, &vars)
}

#[test]
fn claude_desktop_stdio_and_remote() {
    let c = parse_at(
        "/cfg/claude_desktop_config.json",
        r#"{"mcpServers": {
            "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
                       "env": {"MEMORY_FILE_PATH": "${MEM_DIR}/m.json", "N": 3}},
            "remote": {"type": "http", "url": "https://example.com/mcp",
                       "headers": {"Authorization": "Bearer ${TOKEN_VAR}"}},
            "old": {"url": "https://example.com/sse", "type": "sse"},
            "off": {"command": "x", "disabled": true}
        }, "globalShortcut": ""}"#,
    )
    .unwrap();
    assert_eq!(c.key, "mcpServers");
    assert_eq!(c.names(), ["memory", "remote", "old"]);
    assert_eq!(c.disabled, ["off"]);
    assert_eq!(
        c.servers[0].transport,
        Transport::Stdio {
            command: "npx".into(),
            args: vec!["-y".into(), "@modelcontextprotocol/server-memory".into()],
            env: vec![
                ("MEMORY_FILE_PATH".into(), "/tmp/mem/m.json".into()),
                ("N".into(), "3".into())
            ],
            cwd: None,
        }
    );
    assert_eq!(
        c.servers[1].transport,
        Transport::Http {
            url: "https://example.com/mcp".into(),
            headers: vec![("Authorization".into(), "Bearer tok-123456".into())]
        }
    );
    assert!(matches!(c.servers[2].transport, Transport::Sse { .. }));
    let e = c.get("nope").unwrap_err();
    assert!(
        e.contains("no server `nope`") && e.contains("`memory`, `remote`, `old`"),
        "{e}"
    );
    assert!(c.get("off").unwrap_err().contains("disabled"));
}

#[test]
fn vscode_servers_with_workspace_and_env() {
    let c = parse_at(
        "/repo/.vscode/mcp.json",
        r#"{"inputs": [{"type": "promptString", "id": "k", "description": "key"}],
            "servers": {
              "time": {"type": "stdio", "command": "${userHome}/bin/t", "args": ["--dir", "${workspaceFolder}/x", "${env:MEM_DIR}"], "cwd": "${workspaceFolder}"},
              "web": {"type": "http", "url": "http://127.0.0.1:3901/mcp"}
        }}"#,
    )
    .unwrap();
    assert_eq!(c.key, "servers");
    match &c.servers[0].transport {
        Transport::Stdio {
            command, args, cwd, ..
        } => {
            assert_eq!(command, "/home/u/bin/t");
            assert_eq!(args, &["--dir", "/repo/x", "/tmp/mem"]);
            assert_eq!(cwd.as_deref(), Some(Path::new("/repo")));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(c.servers[1].transport, Transport::Http { .. }));
}

#[test]
fn bad_input_names_the_file_and_the_field() {
    let f = "/x/.mcp.json";
    for (text, says) in [
        (
            "[1]",
            "/x/.mcp.json: expected a JSON object, found an array",
        ),
        ("{", "/x/.mcp.json: not valid JSON (line 1"),
        ("{}", "no `mcpServers`"),
        (r#"{"mcpServers": []}"#, "mcpServers: expected an object"),
        (
            r#"{"mcpServers": {"a": 1}}"#,
            "mcpServers.a: expected a server object",
        ),
        (
            r#"{"mcpServers": {"a": {}}}"#,
            "mcpServers.a: neither a `command`",
        ),
        (
            r#"{"mcpServers": {"a": {"command": 7}}}"#,
            "mcpServers.a.command: expected a string, found a number",
        ),
        (
            r#"{"mcpServers": {"a": {"command": ""}}}"#,
            "mcpServers.a.command: the command is empty",
        ),
        (
            r#"{"mcpServers": {"a": {"command": "x", "args": "y"}}}"#,
            "mcpServers.a.args: expected an array",
        ),
        (
            r#"{"mcpServers": {"a": {"command": "x", "args": ["ok", null]}}}"#,
            "mcpServers.a.args[1]: expected a string, found null",
        ),
        (
            r#"{"mcpServers": {"a": {"command": "x", "env": {"K": {}}}}}"#,
            "mcpServers.a.env.K: expected a string, found an object",
        ),
        (
            r#"{"mcpServers": {"a b": {"command": "x", "env": {"K": "${NOPE}"}}}}"#,
            "mcpServers[\"a b\"].env.K: `${NOPE}` is not set",
        ),
        (
            r#"{"servers": {"a": {"type": "stdio", "command": "x", "env": {"K": "${input:k}"}}}}"#,
            "servers.a.env.K: `${input:k}` is a VS Code prompt",
        ),
        (
            r#"{"servers": {"a": {"type": "stdio", "command": "x", "envFile": ".env"}}}"#,
            "servers.a.envFile: toolgate does not read env files",
        ),
        (
            r#"{"servers": {"a": {"type": "ws", "url": "u"}}}"#,
            "servers.a.type: `ws` is not a server type",
        ),
        (
            r#"{"servers": {"a": {"type": "http"}}}"#,
            "servers.a: a `http` server needs a `url`",
        ),
        (
            r#"{"mcpServers": {"a/b": {"command": "x"}}}"#,
            "may not contain `/`",
        ),
        (
            r#"{"mcpServers": {"a": {"command": "x", "env": {"GH": "${GITHUB_TOKEN}"}}}}"#,
            "mcpServers.a.env.GH: `${GITHUB_TOKEN}` is a credential",
        ),
    ] {
        let e = parse_at(f, text).and_then(|c| c.require_all()).unwrap_err();
        assert!(e.starts_with("/x/.mcp.json: "), "{e}");
        assert!(e.contains(says), "{text}\n  gave: {e}\n  want: {says}");
    }
}

#[test]
fn one_editor_only_server_does_not_block_the_others() {
    let c = parse_at(
        "/r/.vscode/mcp.json",
        r#"{"inputs": [{"id": "k", "type": "promptString", "password": true}],
            "servers": {
              "prompted": {"type": "stdio", "command": "x", "env": {"K": "${input:k}"}},
              "unset": {"type": "stdio", "command": "y", "env": {"K": "${NOPE}"}},
              "plain": {"type": "stdio", "command": "z"}
            }}"#,
    )
    .unwrap();
    assert_eq!(c.names(), ["plain"]);
    assert!(c.get("plain").is_ok());
    let e = c.get("prompted").unwrap_err();
    assert!(
        e.contains("servers.prompted.env.K: `${input:k}` is a VS Code prompt"),
        "{e}"
    );
    assert!(c.get("unset").unwrap_err().contains("`${NOPE}` is not set"));
    let all = c.require_all().unwrap_err();
    assert!(all.contains("2 of 3 servers"), "{all}");
    assert!(all.contains("`prompted`, `unset`"), "{all}");
    assert!(all.contains("\"disabled\": true"), "{all}");
    // Disabled in a copy, the file reads whole.
    let ok = parse_at(
        "/r/.vscode/mcp.json",
        r#"{"servers": {"prompted": {"command": "x", "env": {"K": "${input:k}"}, "disabled": true},
                        "plain": {"command": "z"}}}"#,
    )
    .unwrap();
    assert!(ok.require_all().is_ok());
}

#[test]
fn sizes_are_bounded() {
    let many: Vec<String> = (0..=MAX_SERVERS)
        .map(|i| format!("\"s{i}\": {{\"command\": \"x\"}}"))
        .collect();
    let text = format!("{{\"mcpServers\": {{{}}}}}", many.join(","));
    assert!(
        parse_at("c.json", &text)
            .unwrap_err()
            .contains("at most 64")
    );
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, vec![b' '; MAX_FILE_BYTES as usize + 1]).unwrap();
    assert!(read(&big, &lookup).unwrap_err().contains("at most"));
    assert!(read(&dir.path().join("none.json"), &lookup).is_err());
}

#[test]
fn workspace_is_the_folder_above_the_editor_folder() {
    assert_eq!(
        workspace_of(Path::new("/r/.vscode/mcp.json")),
        Path::new("/r")
    );
    assert_eq!(
        workspace_of(Path::new("/r/.cursor/mcp.json")),
        Path::new("/r")
    );
    assert_eq!(workspace_of(Path::new("/r/.mcp.json")), Path::new("/r"));
    assert_eq!(workspace_of(Path::new("mcp.json")), Path::new("."));
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn on_any_text(text in ".{0,200}") {
            let _ = parse_at("any.json", &text);
        }

        #[test]
        fn on_any_string_in_any_field(s in ".{0,60}", k in "[a-zA-Z_ /.$\\{\\}:-]{0,12}") {
            for shape in [
                json!({"mcpServers": {k.clone(): {"command": s.clone(), "args": [s.clone()], "env": {k.clone(): s.clone()}}}}),
                json!({"servers": {k.clone(): {"type": s.clone(), "url": s.clone(), "headers": {k.clone(): s.clone()}}}}),
                json!({"servers": {k.clone(): {"type": "stdio", "command": "x", "cwd": s.clone()}}}),
            ] {
                let _ = parse_at("/w/.vscode/mcp.json", &shape.to_string());
            }
            let vars = Vars { lookup: &lookup, workspace: "/w".into() };
            let _ = expand::expand(&s, "f", &vars);
        }
    }
}

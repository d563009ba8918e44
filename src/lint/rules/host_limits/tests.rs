//! TG030's unit tests: each host profile's names, counts, schemas and descriptions.

use super::super::common::lint_tools_with;
use super::*;
use serde_json::json;

fn settings(hosts: &[&str]) -> crate::lint::LintSettings {
    crate::lint::LintSettings {
        hosts: hosts.iter().map(|h| h.to_string()).collect(),
        host_server_name: Some("helpdesk".into()),
        ..Default::default()
    }
}

#[test]
fn nothing_without_hosts_and_prefixed_names_are_measured() {
    let long = json!({"name": "search_customer_support_tickets_by_priority_and_assignee",
        "description": "x", "inputSchema": {"type": "object"}});
    assert!(lint_tools_with(&RULE, vec![long.clone()], &settings(&[])).is_empty());
    let out = lint_tools_with(&RULE, vec![long.clone()], &settings(&["claude-code"]));
    let name: Vec<_> = out.iter().filter(|f| f.pointer == "/name").collect();
    assert_eq!(name.len(), 1, "{out:?}");
    assert!(
        name[0].message.contains("mcp__helpdesk__search_customer"),
        "{}",
        name[0].message
    );
    assert!(name[0].message.contains("https://"), "cites its source");
    // Claude Code defers schemas by default: said, as information.
    assert!(
        out.iter()
            .any(|f| f.severity == Severity::Info && f.message.contains("search"))
    );
    // The same name alone fits the Anthropic API.
    assert!(lint_tools_with(&RULE, vec![long], &settings(&["anthropic"])).is_empty());
}

#[test]
fn schema_subsets_and_counts_per_host() {
    let t = json!({"name": "get.item", "description": "x", "inputSchema": {"type": "object",
        "properties": {"id": {"type": "string"}, "x": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}});
    let out = lint_tools_with(&RULE, vec![t.clone()], &settings(&["openai-strict"]));
    assert!(
        out.iter()
            .any(|f| f.message.contains("additionalProperties")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|f| f.message.contains("`.`")),
        "dot in the name: {out:?}"
    );
    // Gemini's OpenAPI subset refuses `$ref`; its JSON Schema path (Gemini CLI) takes it.
    let out = lint_tools_with(&RULE, vec![t.clone()], &settings(&["gemini-openapi"]));
    assert!(out.iter().any(|f| f.message.contains("`$ref`")), "{out:?}");
    assert!(
        !out.iter().any(|f| f.pointer == "/name"),
        "Gemini allows dots: {out:?}"
    );
    let out = lint_tools_with(&RULE, vec![t], &settings(&["gemini"]));
    assert!(out.is_empty(), "{out:?}");
    let many: Vec<_> = (0..81)
        .map(|i| json!({"name": format!("t{i}"), "description": "x", "inputSchema": {"type": "object"}}))
        .collect();
    let out = lint_tools_with(&RULE, many, &settings(&["cursor"]));
    let f = out.iter().find(|f| f.message.contains("81 tools")).unwrap();
    assert!(f.message.contains("only the first 80") && f.severity == Severity::Warning);
}

/// Issue 40: Codex's hashed long names and replaced characters, Gemini CLI's middle cut,
/// Gemini's 64-character names and 1,024-character descriptions, Copilot CLI's characters.
#[test]
fn codex_gemini_cli_and_copilot_cli_profiles() {
    let long = "search_customer_support_tickets_by_priority_and_assignee";
    let tools = vec![
        json!({"name": long, "description": "x".repeat(1100), "inputSchema": {"type": "object"}}),
        json!({"name": "get.item", "description": "Gets an item.", "inputSchema": {"type": "object"}}),
    ];
    let out = lint_tools_with(&RULE, tools.clone(), &settings(&["codex"]));
    let hashed = out
        .iter()
        .find(|f| f.message.contains("a hash"))
        .expect("hash");
    assert!(
        hashed.message.contains("mcp__helpdesk__"),
        "{}",
        hashed.message
    );
    assert_eq!(hashed.severity, Severity::Warning);
    let dot = out
        .iter()
        .find(|f| f.message.contains("replaces"))
        .expect("dot");
    assert!(
        dot.message.contains("`mcp__helpdesk__get_item`"),
        "{}",
        dot.message
    );
    let out = lint_tools_with(&RULE, tools.clone(), &settings(&["gemini-cli"]));
    assert!(
        out.iter()
            .all(|f| f.pointer != "/name" || !f.message.contains("cut")),
        "57 characters fit Gemini CLI's 63: {out:?}"
    );
    let out = lint_tools_with(&RULE, tools.clone(), &settings(&["gemini"]));
    assert!(
        out.iter()
            .any(|f| f.pointer == "/description" && f.message.contains("1024")),
        "{out:?}"
    );
    let out = lint_tools_with(&RULE, tools, &settings(&["copilot-cli"]));
    let dot = out.iter().find(|f| f.message.contains("`.`")).expect("dot");
    assert_eq!(dot.severity, Severity::Error, "the request is refused");
    let h = hosts::host("gemini-cli").unwrap();
    let cut = h.final_name(
        "s",
        &"a".repeat(30)
            .chars()
            .chain("b".repeat(40).chars())
            .collect::<String>(),
    );
    assert_eq!(cut.chars().count(), 63);
    assert!(
        cut.starts_with("aaaa") && cut.ends_with("bbbb") && cut.contains("___"),
        "{cut}"
    );
}

/// The server's key in the client config is the prefix hosts use.
#[test]
fn the_config_key_names_the_server_in_prefixes() {
    let catalog = crate::catalog::Catalog {
        tools: vec![
            crate::catalog::Tool::from_value(json!({"name": "add", "description": "Adds."}), "t")
                .unwrap(),
        ],
        server: crate::catalog::ServerMeta {
            name: Some("a-very-long-server-name-from-its-own-info".into()),
            ..Default::default()
        },
        config_key: Some("calc".into()),
        ..Default::default()
    };
    let s = crate::lint::LintSettings {
        hosts: vec!["claude-code".into()],
        ..Default::default()
    };
    let cx = crate::lint::Context::new(&catalog, &s);
    assert_eq!(server_name(&cx), "calc");
}

#[test]
fn vscode_cuts_names_and_two_can_collide() {
    let base = "a".repeat(60);
    let tools = vec![
        json!({"name": format!("{base}_read"), "description": "x", "inputSchema": {"type": "object"}}),
        json!({"name": format!("{base}_write"), "description": "x", "inputSchema": {"type": "object"}}),
    ];
    let out = lint_tools_with(&RULE, tools, &settings(&["vscode"]));
    assert!(
        out.iter()
            .any(|f| f.severity == Severity::Error && f.message.contains("both reach the model")),
        "{out:?}"
    );
    // The prefix keeps 13 characters of the server's name, lower-cased.
    let h = hosts::host("vscode").unwrap();
    assert_eq!(
        h.exposed_name("HelpDeskServerX", "a.b"),
        "mcp_helpdeskserve_a_b"
    );
}

#[test]
fn gemini_names_start_with_a_letter() {
    let t = json!({"name": "1st_tool", "description": "x", "inputSchema": {"type": "object"}});
    let out = lint_tools_with(&RULE, vec![t], &settings(&["gemini"]));
    assert!(
        out.iter().any(|f| f.message.contains("must start with")),
        "{out:?}"
    );
}

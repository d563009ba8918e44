//! TG031's unit tests: listings, `_meta` keys, titles, icons, composition, `x-mcp-header`.

use super::super::common::lint_tools;
use super::*;
use serde_json::json;

#[test]
fn an_unstable_listing_is_reported() {
    use crate::catalog::{Catalog, Relisting, Tool};
    let t = |n: &str| Tool::from_value(json!({"name": n, "description": "x"}), "t").unwrap();
    let (a, b) = (vec![t("a"), t("b")], vec![t("b"), t("a")]);
    assert_eq!(
        Relisting::of(&a, &b),
        Relisting {
            order_changed: true,
            tools_changed: false
        }
    );
    assert!(Relisting::of(&a, &[t("a")]).tools_changed);
    assert_eq!(Relisting::of(&a, &a), Relisting::default());
    let cat = Catalog {
        tools: a,
        relisting: Some(Relisting::of(&[t("a"), t("b")], &b)),
        ..Default::default()
    };
    let out = super::super::common::lint_catalog(&RULE, &cat);
    assert!(
        out.iter()
            .any(|f| f.tool.is_none() && f.message.contains("another order")),
        "{out:?}"
    );
}

#[test]
fn meta_keys_follow_the_naming_rules() {
    assert_eq!(meta_key_problem("com.example/flag"), None);
    assert_eq!(meta_key_problem("anthropic/maxResultSizeChars"), None);
    assert_eq!(meta_key_problem("progressToken"), None);
    // The official extensions' own prefix is not reported; other reserved ones are.
    assert_eq!(
        meta_key_problem("io.modelcontextprotocol/related-task"),
        None
    );
    assert!(
        meta_key_problem("org.modelcontextprotocol/x")
            .unwrap()
            .contains("reserved")
    );
    assert!(meta_key_problem("dev.mcp/x").unwrap().contains("reserved"));
    assert_eq!(
        meta_key_problem("com.example.mcp/x"),
        None,
        "third label: not reserved"
    );
    assert!(meta_key_problem("-bad-").is_some());
    assert!(meta_key_problem("1abc.x/y").is_some());
}

#[test]
fn title_icons_meta_and_composition_are_checked() {
    let branches: Vec<_> = (0..40).map(|i| json!({"const": i})).collect();
    let bad = json!({"name": "get_logo", "title": 42,
        "icons": [{"src": "http://cdn.example.com/l.png"}, {"src": "https://ok.example/l.png"}],
        "_meta": {"dev.mcp/secret": true, "io.modelcontextprotocol/ui": {}, "com.example/ok": 1},
        "inputSchema": {"type": "object", "properties": {"v": {"anyOf": branches}}}});
    let out = lint_tools(&RULE, vec![bad]);
    let pointers: Vec<&str> = out.iter().map(|f| f.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/title",
            "/icons/0/src",
            "/_meta/dev.mcp~1secret",
            "/inputSchema/properties/v/anyOf"
        ],
        "{out:?}"
    );
    let good = json!({"name": "ok", "title": "OK", "icons": [{"src": "data:image/png;base64,AA"}],
        "inputSchema": {"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}});
    assert!(lint_tools(&RULE, vec![good]).is_empty());
}

/// Issue 40: 2026-07-28 `x-mcp-header` declarations a client must drop the tool for, a
/// sensitive one, and good ones.
#[test]
fn x_mcp_header_declarations_follow_the_rules() {
    let tool = |props: serde_json::Value| {
        json!({"name": "query", "description": "Runs a query.",
            "inputSchema": {"type": "object", "properties": props}})
    };
    let bad = [
        json!({"region": {"type": "string", "x-mcp-header": "Bad Name"}}),
        json!({"region": {"type": "string", "x-mcp-header": "Region"}, "zone": {"type": "string", "x-mcp-header": "region"}}),
        json!({"limit": {"type": "number", "x-mcp-header": "Limit"}}),
        json!({"opts": {"type": "object", "properties": {"r": {"type": "string"}}, "anyOf": [{"properties": {"r": {"x-mcp-header": "R"}}}]}}),
        json!({"tags": {"type": "array", "items": {"type": "string", "x-mcp-header": "Tag"}}}),
    ];
    for props in bad {
        let out = lint_tools(&RULE, vec![tool(props.clone())]);
        assert!(
            out.iter()
                .any(|f| f.severity == Severity::Error && f.message.contains("MUST drop")),
            "{props}: {out:?}"
        );
    }
    let out = lint_tools(
        &RULE,
        vec![tool(
            json!({"api_key": {"type": "string", "x-mcp-header": "Api-Key"}}),
        )],
    );
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].severity, Severity::Warning);
    let good = tool(
        json!({"region": {"type": "string", "x-mcp-header": "Region"},
        "tenant": {"type": "integer", "x-mcp-header": "Tenant-Id"},
        "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"}}),
    );
    assert!(lint_tools(&RULE, vec![good]).is_empty());
}

/// Issue 40 point 6: the 2026-07-28 caching hints on the tools/list result, read from a
/// snapshot exactly as a live listing carries them.
#[test]
fn list_caching_hints_are_checked() {
    use crate::catalog::{Relisting, snapshot};
    let lint = |top: serde_json::Value| {
        let mut cat = snapshot::parse(&top.to_string(), "s.json").unwrap();
        cat.relisting = Some(Relisting::default());
        super::super::common::lint_catalog(&RULE, &cat)
    };
    let tools = json!([{"name": "a", "description": "Reads a thing."}]);
    let msgs = |top| {
        lint(top)
            .into_iter()
            .map(|f| (f.severity, f.message))
            .collect::<Vec<_>>()
    };
    assert!(msgs(json!({"tools": tools, "ttlMs": 60000, "cacheScope": "public"})).is_empty());
    let m = msgs(json!({"tools": tools, "ttlMs": "1h", "cacheScope": "shared"}));
    assert_eq!(m.len(), 2, "{m:?}");
    assert!(m.iter().all(|(s, _)| *s == Severity::Warning), "{m:?}");
    assert!(
        m[0].1.contains("`\"1h\"`") && m[1].1.contains("`\"shared\"`"),
        "{m:?}"
    );
    assert_eq!(msgs(json!({"tools": tools, "ttlMs": -5})).len(), 1);
    assert_eq!(msgs(json!({"tools": tools, "ttlMs": 1.5})).len(), 1);
    let m = msgs(json!({"tools": tools, "ttlMs": 7u64 * 86_400_000}));
    assert!(
        m.len() == 1 && m[0].0 == Severity::Info && m[0].1.contains("7.0 days"),
        "{m:?}"
    );
    // None sent: reported only for a live 2026-07-28 session.
    assert!(msgs(json!({"tools": tools})).is_empty());
    let mut cat = snapshot::parse(&json!({"tools": tools}).to_string(), "s.json").unwrap();
    cat.server.protocol_version = Some("2026-07-28".into());
    cat.relisting = Some(Relisting::default());
    let out = super::super::common::lint_catalog(&RULE, &cat);
    assert!(
        out.len() == 1 && out[0].message.contains("no caching hints"),
        "{out:?}"
    );
    cat.server.protocol_version = Some("2025-11-25".into());
    assert!(super::super::common::lint_catalog(&RULE, &cat).is_empty());
    // A snapshot keeps the hints as the result carried them.
    let cat = snapshot::parse(
        &json!({"tools": tools, "ttlMs": 5, "cacheScope": "private"}).to_string(),
        "s",
    )
    .unwrap();
    let again = snapshot::to_value(&cat);
    assert_eq!(
        (again["ttlMs"].clone(), again["cacheScope"].clone()),
        (json!(5), json!("private"))
    );
    // Pages that disagree are named.
    let pages = [
        json!({"tools": [], "ttlMs": 5}),
        json!({"tools": [], "ttlMs": 5}),
        json!({"tools": [], "ttlMs": 9}),
    ];
    assert_eq!(
        crate::catalog::ListHints::of_pages(&pages)
            .unwrap()
            .differing_pages,
        [3]
    );
}

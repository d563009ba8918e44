//! ## What it checks
//! Parts of a tool definition the MCP specification (2025-11-25 and 2026-07-28) sets
//! rules for, beyond the name (TG023) and remote `$ref`s (TG011):
//! - `_meta` keys: an optional prefix of dot-separated labels (each starting with a letter and
//!   ending with a letter or digit) and `/`, then a name that starts and ends with a letter or
//!   digit (`-`, `_`, `.` inside). Prefixes whose second label is `modelcontextprotocol` or `mcp`
//!   (`dev.mcp/`, `org.modelcontextprotocol/`) are reserved for the specification itself;
//!   `io.modelcontextprotocol/` carries its official extensions' keys and is not reported.
//! - `title`: a string when present.
//! - `icons`: a list of objects whose `src` is an `https:` or `data:` URI (clients fetch icons:
//!   an `http:`, `file:` or `javascript:` source is refused, or leaks the user's address).
//! - Schema composition: `anyOf`/`oneOf`/`allOf` with more than 32 branches, or nested more
//!   than 8 deep, which hosts flatten, truncate or refuse (the Claude API takes none at the
//!   root).
//! - A stable listing (2026-07-28: servers SHOULD list tools in a stable order): toolgate lists
//!   a live server twice in one session; another order, or other tools, is reported.
//! - `x-mcp-header` (2026-07-28, SEP-2243): a declaration whose name is not an HTTP token, is
//!   repeated (without regard to case), sits on a property that is not a string, integer or
//!   boolean, or is not reached from the root through `properties` makes a conforming client
//!   drop the whole tool: an error. One on a parameter holding secrets or personal data is a
//!   warning (header values are visible to intermediaries).
//!
//! Keys under `io.modelcontextprotocol/` (official extensions) are the specification's own use
//! and are not reported; a vendor key a host acts on (`openai/…`) that breaks the grammar is
//! reported with what renaming it would lose.
//!
//! ## Why it matters
//! Clients validate these fields: a host that rejects one tool's metadata may drop the tool,
//! and a reserved `_meta` prefix can collide with a key a future revision gives a meaning.
//! A schema a host has to flatten is not the schema the model reads.
//!
//! ## Example
//! ```json
//! {"name": "get_logo", "title": 42, "icons": [{"src": "http://cdn.example.com/l.png"}],
//!  "_meta": {"io.modelcontextprotocol/secret": true, "-bad-": 1}}
//! ```
//!
//! ## How to fix
//! Make `title` a string, serve icons over `https:` (or inline them as `data:`), name `_meta`
//! keys under your own reverse-DNS prefix (`com.example/flag`), and keep schemas to a few
//! alternatives at the top.

use serde_json::Value;

use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG031",
    slug: "spec-conformance",
    severity: Severity::Warning,
    summary: "A tool's title, icons, _meta keys or schema composition break the MCP specification's rules.",
    doc: rule_doc!("spec_conformance"),
    check,
    scope: Scope::Catalog,
};

/// Most branches of one `anyOf`/`oneOf`/`allOf`.
const MAX_BRANCHES: usize = 32;
/// Deepest nesting of composition keywords.
const MAX_NESTING: usize = 8;

fn label_ok(l: &str) -> bool {
    let mut cs = l.chars();
    cs.next().is_some_and(|c| c.is_ascii_alphabetic())
        && l.chars().last().is_some_and(|c| c.is_ascii_alphanumeric())
        && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// Why a `_meta` key breaks the naming rules, if it does.
pub fn meta_key_problem(key: &str) -> Option<String> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    if let Some(p) = prefix {
        let labels: Vec<&str> = p.split('.').collect();
        if labels.iter().any(|l| !label_ok(l)) {
            return Some("its prefix is not dot-separated labels that start with a letter".into());
        }
        // `io.modelcontextprotocol/` is where the specification's official extensions put
        // their keys (`io.modelcontextprotocol/related-task`, MCP Apps' `…/ui`): a server that
        // implements one uses it as intended.
        if p != "io.modelcontextprotocol"
            && labels
                .get(1)
                .is_some_and(|l| *l == "modelcontextprotocol" || *l == "mcp")
        {
            return Some(format!(
                "the prefix `{p}/` is reserved for the MCP specification"
            ));
        }
    }
    let ok_name = !name.is_empty()
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && name
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    (!ok_name).then(|| {
        "its name must start and end with a letter or digit (with `-`, `_`, `.` inside)".into()
    })
}

/// The widest and deepest composition in `v`: (most branches and where, deepest nesting).
fn composition(
    v: &Value,
    at: &str,
    depth: usize,
    widest: &mut (usize, String),
    deepest: &mut usize,
) {
    if depth > 64 {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let here = format!("{at}/{k}");
                let is_comb = matches!(k.as_str(), "anyOf" | "oneOf" | "allOf");
                if is_comb {
                    if let Some(a) = x.as_array()
                        && a.len() > widest.0
                    {
                        *widest = (a.len(), here.clone());
                    }
                    *deepest = (*deepest).max(depth + 1);
                }
                composition(x, &here, depth + usize::from(is_comb), widest, deepest);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                composition(x, &format!("{at}/{i}"), depth, widest, deepest);
            }
        }
        _ => {}
    }
}

/// An HTTP field-name token (RFC 9110): what an `x-mcp-header` name must be.
fn http_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

/// Parameter names that hold secrets or personal data, which 2026-07-28 says SHOULD NOT be
/// mirrored into headers (intermediaries see them).
fn sensitive(name: &str) -> bool {
    let words = crate::text::name_words(name);
    words.iter().any(|w| {
        [
            "password",
            "passwd",
            "secret",
            "token",
            "apikey",
            "key",
            "credential",
            "credentials",
            "ssn",
            "email",
            "phone",
            "cookie",
            "authorization",
        ]
        .contains(&w.as_str())
    })
}

/// Every `x-mcp-header` in `schema` and whether it is declared where 2026-07-28 allows it: on
/// a property reached from the root through `properties` alone. (pointer, header value,
/// property name, property schema, reachable).
fn header_declarations<'v>(
    schema: &'v Value,
    at: &str,
    reachable: bool,
    name: &str,
    depth: usize,
    out: &mut Vec<(String, &'v Value, String, &'v Value, bool)>,
) {
    if depth > 32 || out.len() > 256 {
        return;
    }
    match schema {
        Value::Object(map) => {
            if let Some(h) = map.get("x-mcp-header") {
                out.push((
                    at.to_string(),
                    h,
                    name.to_string(),
                    schema,
                    reachable && depth > 0,
                ));
            }
            for (k, v) in map {
                let child = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                if k == "properties"
                    && let Value::Object(props) = v
                {
                    for (pn, ps) in props {
                        let p_at = format!("{child}/{}", pn.replace('~', "~0").replace('/', "~1"));
                        header_declarations(ps, &p_at, reachable, pn, depth + 1, out);
                    }
                } else if k != "x-mcp-header" && (v.is_object() || v.is_array()) {
                    header_declarations(v, &child, false, name, depth + 1, out);
                }
            }
        }
        Value::Array(items) => {
            for (k, v) in items.iter().enumerate().take(256) {
                header_declarations(v, &format!("{at}/{k}"), false, name, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// 2026-07-28 `x-mcp-header` (SEP-2243): a client MUST drop a tool whose declarations break
/// the rules (a token name, unique without regard to case, on a string, integer or boolean
/// property reached through `properties`); a sensitive parameter SHOULD NOT be mirrored.
fn header_findings(cx: &Context, i: usize, tool: &crate::catalog::Tool, out: &mut Vec<Finding>) {
    let Some(schema) = tool.input_schema() else {
        return;
    };
    let mut decls = Vec::new();
    header_declarations(schema, "/inputSchema", true, "", 0, &mut decls);
    let mut seen: std::collections::HashMap<String, String> = Default::default();
    for (at, header, prop, prop_schema, reachable) in decls {
        let problem = match header.as_str() {
            None => Some("its value is not a string".to_string()),
            Some(h) if !http_token(h) => Some(format!(
                "`{}` is not an HTTP header-name token",
                h.chars().take(40).collect::<String>().escape_debug()
            )),
            Some(h) => match seen.insert(h.to_ascii_lowercase(), prop.clone()) {
                Some(other) => Some(format!(
                    "`{h}` is also declared on `{other}` (names are compared without case)"
                )),
                None if !reachable => Some(
                    "it is not on a property reached from the root through `properties` (not inside an array, a combinator or `$defs`)".into(),
                ),
                None => {
                    let ty = prop_schema.get("type").and_then(Value::as_str);
                    (!matches!(ty, Some("string" | "integer" | "boolean"))).then(|| {
                        format!(
                            "`{prop}` is {}, not a string, integer or boolean",
                            ty.map_or("untyped".to_string(), |t| format!("of type {t}"))
                        )
                    })
                }
            },
        };
        if let Some(why) = problem {
            let mut f = cx.finding(
                &RULE,
                Some(i),
                &format!("{at}/x-mcp-header"),
                format!(
                    "`x-mcp-header` on `{prop}`: {why}; a 2026-07-28 client MUST drop the whole tool (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http)"
                ),
                "Declare `x-mcp-header` only on top-level string, integer or boolean properties, with a unique token name.",
            );
            f.severity = Severity::Error;
            out.push(f);
        } else if sensitive(&prop) {
            out.push(cx.finding(
                &RULE,
                Some(i),
                &format!("{at}/x-mcp-header"),
                format!(
                    "`x-mcp-header` mirrors `{prop}` into an `Mcp-Param-*` header, where every intermediary sees it; 2026-07-28 says sensitive parameters SHOULD NOT be marked (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http)"
                ),
                "Remove `x-mcp-header` from parameters that carry secrets or personal data.",
            ));
        }
    }
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        header_findings(cx, i, tool, out);
    }
    if let Some(r) = &cx.catalog.relisting {
        if r.tools_changed {
            out.push(cx.finding(
                &RULE,
                None,
                "",
                "a second tools/list in the same session returned other tools or other definitions: what the model is shown changes from one listing to the next".into(),
                "List the same tools with the same definitions every time (generate them once at start-up).",
            ));
        } else if r.order_changed {
            out.push(cx.finding(
                &RULE,
                None,
                "",
                "a second tools/list in the same session returned the tools in another order (servers SHOULD list tools in a stable order: it breaks prompt caches and diffs)".into(),
                "Sort the tools (by name, or in a fixed order) before listing them.",
            ));
        }
    }
    for (i, tool) in cx.tools() {
        if let Some(t) = tool.raw.get("title")
            && !t.is_string()
        {
            out.push(cx.finding(
                &RULE,
                Some(i),
                "/title",
                "`title` is not a string".into(),
                "Make `title` a short human-readable string, or leave it out.",
            ));
        }
        match tool.raw.get("icons") {
            None => {}
            Some(Value::Array(icons)) => {
                for (k, icon) in icons.iter().enumerate().take(64) {
                    let src = icon.get("src").and_then(Value::as_str);
                    let lower = src.map(str::to_ascii_lowercase);
                    let ok = lower
                        .as_deref()
                        .is_some_and(|s| s.starts_with("https://") || s.starts_with("data:"));
                    if !ok {
                        let shown: String = src.unwrap_or("(none)").chars().take(80).collect();
                        out.push(cx.finding(
                            &RULE,
                            Some(i),
                            &format!("/icons/{k}/src"),
                            format!("icon {k}'s `src` is `{shown}`, not an `https:` or `data:` URI"),
                            "Serve icons over https:, or inline them as data: URIs.",
                        ));
                    }
                }
            }
            Some(_) => out.push(cx.finding(
                &RULE,
                Some(i),
                "/icons",
                "`icons` is not a list".into(),
                "Make `icons` a list of {\"src\": \"https://…\", \"mimeType\": \"image/png\"} objects.",
            )),
        }
        if let Some(Value::Object(meta)) = tool.raw.get("_meta") {
            for key in meta.keys().take(256) {
                if let Some(why) = meta_key_problem(key) {
                    let shown: String = key.chars().take(80).collect();
                    // Keys hosts act on although they break the grammar: renaming one loses
                    // what the host does with it.
                    let vendor = if key.starts_with("openai/") {
                        " (OpenAI's Apps SDK defines this key and ChatGPT acts on it: keep it for ChatGPT, knowing that clients which check the grammar may drop it)"
                    } else {
                        ""
                    };
                    out.push(cx.finding(
                        &RULE,
                        Some(i),
                        &format!("/_meta/{}", key.replace('~', "~0").replace('/', "~1")),
                        format!("`_meta` key `{shown}`: {why}{vendor}"),
                        "Name _meta keys under your own reverse-DNS prefix, e.g. `com.example/flag`.",
                    ));
                }
            }
        }
        for (field, schema) in [
            ("inputSchema", tool.input_schema()),
            ("outputSchema", tool.output_schema()),
        ] {
            let Some(schema) = schema else { continue };
            let mut widest = (0, String::new());
            let mut deepest = 0;
            composition(schema, &format!("/{field}"), 0, &mut widest, &mut deepest);
            if widest.0 > MAX_BRANCHES {
                out.push(cx.finding(
                    &RULE,
                    Some(i),
                    &widest.1,
                    format!(
                        "a composition with {} branches (more than {MAX_BRANCHES}): hosts flatten, cut or refuse it",
                        widest.0
                    ),
                    "Replace the alternatives with an enum or a discriminator property, or split the tool.",
                ));
            }
            if deepest > MAX_NESTING {
                out.push(cx.finding(
                    &RULE,
                    Some(i),
                    &format!("/{field}"),
                    format!(
                        "compositions nested {deepest} deep (more than {MAX_NESTING}): hosts flatten or refuse it"
                    ),
                    "Flatten the schema: fewer nested anyOf/oneOf/allOf.",
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
}

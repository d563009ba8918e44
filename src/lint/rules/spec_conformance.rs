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
//! - Caching hints on the `tools/list` result (2026-07-28): a `ttlMs` that is not a
//!   non-negative integer, or a `cacheScope` other than `public` or `private`, is a warning
//!   (clients cannot honour it); a `ttlMs` over a day, pages with other hints than the first,
//!   and a 2026-07-28 server that sends none are info.
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
pub(crate) fn meta_key_problem(key: &str) -> Option<String> {
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

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        headers::header_findings(&RULE, cx, i, tool, out);
    }
    cache_hints::cache_hint_findings(&RULE, cx, out);
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

mod cache_hints;
mod headers;

#[cfg(test)]
mod tests;

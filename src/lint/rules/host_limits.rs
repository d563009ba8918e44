//! ## What it checks
//! Only with `lint --host <id>,…` (or `[lint] hosts`): the limits each named host documents for
//! the tools it passes to its model — `claude-code`, `vscode`, `cursor`, `openai-strict`,
//! `gemini` (JSON Schema parameters, as Gemini CLI sends them), `gemini-openapi` (the
//! OpenAPI-subset `parameters`), `gemini-cli`, `codex`, `copilot-cli`, `anthropic`. The name the model sees, with the host's prefix (Claude Code shows
//! `mcp__<server>__<tool>`), must fit the host's length and characters; the catalog must fit
//! the host's tool count; each input schema must be in the JSON Schema subset the host's model
//! API accepts (OpenAI strict mode: closed objects, every property required, no `oneOf`…;
//! Gemini's OpenAPI subset: no `$ref`, no `additionalProperties`, one type per value…; Gemini's
//! JSON Schema path takes them); a description within the host's length (Gemini: 1,024
//! characters); a name the host rewrites (Codex and Gemini CLI replace characters they do not
//! take with `_`; Codex puts a hash where a name past 64 characters ends, Gemini CLI cuts one
//! past 63 in the middle) is a warning naming what the model sees; and a catalog above the
//! size at which Claude Code defers schemas behind its tool search is said. Every finding names
//! the host and cites the page that documents the limit.
//!
//! ## Why it matters
//! A limit broken is not a style problem: the host drops the tool, renames it, refuses the
//! whole request, or silently stops sending strict schemas, and the model never sees what you
//! wrote. Each host presents tools differently, so a catalog that works in one fails in another.
//!
//! ## Example
//! ```json
//! {"name": "search_customer_support_tickets_by_priority_and_assignee_name",
//!  "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
//! ```
//! In Claude Code as server `helpdesk` this is
//! `mcp__helpdesk__search_customer_support_tickets_by_priority_and_assignee_name`: 75
//! characters, over the Anthropic API's 64.
//!
//! ## How to fix
//! Shorten names (leave room for the host's prefix and your server's name: ≤ 40 characters is
//! safe), split or trim the catalog below the host's tool limit, and write schemas in the common
//! subset: `"additionalProperties": false` on objects, every property required (optional ones
//! nullable) for OpenAI strict mode, no `$ref` or type lists for Gemini's OpenAPI subset.
//! `[lint] host_server_name` sets the server name hosts use in prefixes (default: the server's
//! key in the MCP client config it was read from with `--mcp-config`, else the server's own).

use super::common::ticked;
use crate::lint::hosts::{self, Host};
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG030",
    slug: "host-limits",
    severity: Severity::Error,
    summary: "A tool breaks a documented limit of a host it is meant for (`lint --host`).",
    doc: rule_doc!("host_limits"),
    check,
    scope: Scope::Catalog,
};

/// The server name hosts put in prefixes: the setting, else the server's key in the client
/// config it was read from (what hosts use), else the server's own name, reduced to the
/// characters hosts keep.
fn server_name(cx: &Context) -> String {
    let raw = cx
        .settings
        .host_server_name
        .clone()
        .or_else(|| cx.config_key.map(str::to_string))
        .or_else(|| cx.catalog.server.name.clone())
        .unwrap_or_else(|| "server".into());
    let cleaned: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() {
        "server".into()
    } else {
        cleaned
    }
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let server = server_name(cx);
    for id in &cx.settings.hosts {
        // Unknown ids are refused when the settings are read.
        let Some(h) = hosts::host(id) else { continue };
        check_host(cx, h, &server, out);
    }
}

fn check_host(cx: &Context, h: &Host, server: &str, out: &mut Vec<Finding>) {
    let n = cx.catalog.tools.len();
    if let Some(l) = h.max_tools
        && n > l.value
    {
        let mut f = cx.finding(
            &RULE,
            None,
            "",
            if h.tools_soft {
                format!(
                    "{}: the server lists {n} tools; {} sends only the first {} to its model ({})",
                    h.name, h.name, l.value, l.source
                )
            } else {
                format!(
                    "{}: the server lists {n} tools; {} takes at most {} ({})",
                    h.name, h.name, l.value, l.source
                )
            },
            "Merge, drop or split tools (focused servers or toolsets) to fit the host's limit.",
        );
        if h.tools_soft {
            f.severity = Severity::Warning;
        }
        out.push(f);
    }
    let mut seen: std::collections::BTreeMap<String, &str> = Default::default();
    for (i, tool) in cx.tools() {
        let shown = h.exposed_name(server, tool.name());
        if let Some(l) = h.max_description
            && let Some(d) = tool.description()
            && d.chars().count() > l.value
        {
            let mut f = cx.finding(
                &RULE,
                Some(i),
                "/description",
                format!(
                    "{}: the description has {} characters; the limit is {} ({})",
                    h.name,
                    d.chars().count(),
                    l.value,
                    l.source
                ),
                "Shorten the description: what the tool does, what it returns, when to use it.",
            );
            f.severity = Severity::Warning;
            out.push(f);
        }
        if h.truncates || h.sanitizes {
            let cut = h.final_name(server, tool.name());
            if let Some(other) = seen.insert(cut.clone(), tool.name())
                && other != tool.name()
            {
                out.push(cx.finding(
                    &RULE,
                    Some(i),
                    "/name",
                    format!(
                        "{}: this tool and `{other}` both reach the model as `{cut}` (names are cut to {} characters: {}); one of them cannot be called",
                        h.name,
                        h.max_name.map_or(0, |l| l.value),
                        h.max_name.map_or("", |l| l.source)
                    ),
                    "Make the names differ within their first characters, or shorten them.",
                ));
            } else if cut.chars().count() < shown.chars().count() {
                let how = match h.cut {
                    hosts::Cut::Hash => {
                        " (a hash where the end of the name was; the digits shown are illustrative)"
                    }
                    hosts::Cut::Middle => " (the middle replaced by `___`)",
                    hosts::Cut::Tail => "",
                };
                let mut f = cx.finding(
                    &RULE,
                    Some(i),
                    "/name",
                    format!(
                        "{}: the model sees this tool as `{cut}`, cut from `{shown}`{how} ({})",
                        h.name,
                        h.max_name.map_or("", |l| l.source)
                    ),
                    "Shorten the tool's name, leaving room for the host's prefix and the server's name.",
                );
                f.severity = Severity::Warning;
                out.push(f);
            }
        } else if let Some(l) = h.max_name {
            let len = shown.chars().count();
            if len > l.value {
                out.push(cx.finding(
                    &RULE,
                    Some(i),
                    "/name",
                    format!(
                        "{}: the model sees this tool as `{shown}` ({len} characters); the limit is {} ({})",
                        h.name, l.value, l.source
                    ),
                    "Shorten the tool's name, leaving room for the host's prefix and the server's name.",
                ));
            }
        }
        if let Some(l) = h.name_chars {
            let (said, ok) = l.value;
            let bad: Vec<String> = tool
                .name()
                .chars()
                .filter(|c| !ok(*c))
                .map(|c| {
                    if c.is_ascii_graphic() {
                        c.to_string()
                    } else {
                        format!("U+{:04X}", c as u32)
                    }
                })
                .collect();
            if !bad.is_empty() {
                let mut f = cx.finding(
                    &RULE,
                    Some(i),
                    "/name",
                    if h.sanitizes {
                        format!(
                            "{}: the name uses {} outside {said}, which the host replaces with `_`: the model sees `{}` ({})",
                            h.name,
                            ticked(&bad),
                            h.final_name(server, tool.name()),
                            l.source
                        )
                    } else {
                        format!(
                            "{}: the name uses {} outside {said} ({})",
                            h.name,
                            ticked(&bad),
                            l.source
                        )
                    },
                    "Use only letters, digits, `_` and `-` in tool names.",
                );
                if h.sanitizes {
                    f.severity = Severity::Warning;
                }
                out.push(f);
            }
        }
        if let Some(l) = h.first_char {
            let (said, ok) = l.value;
            if tool.name().chars().next().is_some_and(|c| !ok(c)) {
                out.push(cx.finding(
                    &RULE,
                    Some(i),
                    "/name",
                    format!("{}: the name must start with {said} ({})", h.name, l.source),
                    "Start the tool's name with a letter.",
                ));
            }
        }
        if let (Some(l), Some(schema)) = (h.schema, tool.input_schema()) {
            let problems = hosts::schema_problems(l.value, schema, 6);
            if !problems.is_empty() {
                let mut f = cx.finding(
                    &RULE,
                    Some(i),
                    "/inputSchema",
                    format!(
                        "{}: the input schema is outside the subset its API accepts: {} ({})",
                        h.name,
                        problems.join("; "),
                        l.source
                    ),
                    "Write the schema in the host's subset (see the rule's docs), or do not target this host.",
                );
                // The host falls back (non-strict, or rewrites the schema): the tool still
                // works, with weaker guarantees.
                f.severity = Severity::Warning;
                out.push(f);
            }
        }
    }
    if let Some(l) = h.defer_tokens {
        let total = cx.total_tokens();
        if total > l.value {
            let when = if l.value == 0 {
                "by default".to_string()
            } else {
                format!("past {} tokens", l.value)
            };
            let mut f = cx.finding(
                &RULE,
                None,
                "",
                format!(
                    "{}: the tool list costs {total} tokens, and {} loads tool schemas only when a search finds them ({when}; {}): the model finds tools by searching names, descriptions and argument text",
                    h.name, h.name, l.source
                ),
                "Measure what a search finds: `toolgate run … -m toolsearch:5 -m toolsearch-names:5` (findability@k per tool).",
            );
            f.severity = Severity::Info;
            out.push(f);
        }
    }
}

#[cfg(test)]
mod tests {
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
                crate::catalog::Tool::from_value(
                    json!({"name": "add", "description": "Adds."}),
                    "t",
                )
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
            out.iter().any(
                |f| f.severity == Severity::Error && f.message.contains("both reach the model")
            ),
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
}

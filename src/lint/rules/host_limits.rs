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
use crate::catalog::Tool;
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
    tool_count(cx, h, out);
    let mut seen: std::collections::BTreeMap<String, &str> = Default::default();
    for (i, tool) in cx.tools() {
        description_length(cx, h, i, tool, out);
        name_as_sent(cx, h, server, (i, tool), &mut seen, out);
        name_characters(cx, h, server, i, tool, out);
        schema_subset(cx, h, i, tool, out);
    }
    deferred(cx, h, out);
}

/// More tools than the host takes (or sends to its model).
fn tool_count(cx: &Context, h: &Host, out: &mut Vec<Finding>) {
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
}

/// A description longer than the host's limit.
fn description_length(cx: &Context, h: &Host, i: usize, tool: &Tool, out: &mut Vec<Finding>) {
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
}

/// The name as the model sees it: cut (or sanitised) into another tool's, cut at all, or over
/// the host's length limit.
fn name_as_sent<'t>(
    cx: &Context,
    h: &Host,
    server: &str,
    (i, tool): (usize, &'t Tool),
    seen: &mut std::collections::BTreeMap<String, &'t str>,
    out: &mut Vec<Finding>,
) {
    let shown = h.exposed_name(server, tool.name());
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
}

/// Characters the host does not allow in a name, or at its start.
fn name_characters(
    cx: &Context,
    h: &Host,
    server: &str,
    i: usize,
    tool: &Tool,
    out: &mut Vec<Finding>,
) {
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
}

/// An input schema outside the subset the host's API accepts.
fn schema_subset(cx: &Context, h: &Host, i: usize, tool: &Tool, out: &mut Vec<Finding>) {
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

/// A host that defers tool schemas past a token count: the model finds tools by search.
fn deferred(cx: &Context, h: &Host, out: &mut Vec<Finding>) {
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
mod tests;

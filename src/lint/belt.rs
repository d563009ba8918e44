//! Lint across the servers of a belt: what no single server's lint can see. One tool name
//! offered by several servers, reported as TG001 (duplicate-tool-name: the model sees both,
//! and hosts disagree on which one a call reaches) at warning severity (the clash is the
//! belt's, not one server's fault), naming every server that offers it; and the belt's size
//! against the hosts' limits (TG021 tools, TG022 tokens), with each server's share.

use std::collections::BTreeMap;

use super::{Finding, LintSettings, Severity};
use crate::catalog::Catalog;

/// Findings about the belt as a whole; `servers` are (name, catalog) in config order. A
/// finding's `tool` is `server/tool` of the first server offering the name.
pub fn cross_server(servers: &[(&str, &Catalog)], settings: &LintSettings) -> Vec<Finding> {
    let Some(rule) = super::rule("TG001") else {
        return Vec::new();
    };
    if settings.level_of(rule.code) == Some(super::Level::Off) {
        return Vec::new();
    }
    // name → the servers offering it (once each, in config order).
    let mut offered: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (server, catalog) in servers {
        for tool in &catalog.tools {
            let list = offered.entry(tool.name()).or_default();
            if list.is_empty() {
                order.push(tool.name());
            }
            if !list.contains(server) {
                list.push(server);
            }
        }
    }
    order
        .into_iter()
        .filter_map(|name| {
            let by = &offered[name];
            if by.len() < 2 {
                return None;
            }
            let keys: Vec<String> = by.iter().map(|s| format!("`{s}/{name}`")).collect();
            let f = Finding {
                code: rule.code.into(),
                slug: rule.slug.into(),
                severity: Severity::Warning,
                tool: Some(format!("{}/{name}", by[0])),
                tool_index: None,
                pointer: "/name".into(),
                message: format!(
                    "`{name}` is offered by {} servers ({}): the model sees the same name \
                     twice, and hosts disagree on which one a call reaches (some prefix the \
                     server's name, some keep the first or the last, some refuse the list)",
                    by.len(),
                    keys.join(", ")
                ),
                help: "Rename the tool so its name says which service it acts on \
                       (`github_create_issue`), or do not load both servers together."
                    .into(),
            };
            settings.apply(f)
        })
        .collect()
}

/// Context windows a belt's tool list is compared with: a local model's usual setting, and
/// the large hosted models'.
const CONTEXTS: &[(usize, &str)] = &[(32_000, "32k"), (128_000, "128k"), (200_000, "200k")];

/// One server's share of a belt: its name, tool count and tool-list tokens.
pub struct Share<'a> {
    pub server: &'a str,
    pub tools: usize,
    pub tokens: usize,
}

/// The belt's size against the hosts' limits, as TG021 (too-many-tools) and TG022
/// (catalog-token-budget) judge one server: every server is under its limits and the belt
/// together is not. Messages give each server's share, largest first.
pub fn budget(shares: &[Share], settings: &LintSettings) -> Vec<Finding> {
    let mut by_size: Vec<&Share> = shares.iter().collect();
    let mut out = Vec::new();
    let tools: usize = shares.iter().map(|s| s.tools).sum();
    if tools > settings.warn_tools
        && let Some(rule) = super::rule("TG021")
    {
        by_size.sort_by(|a, b| b.tools.cmp(&a.tools).then(a.server.cmp(b.server)));
        let split: Vec<String> = by_size
            .iter()
            .map(|s| format!("{} {}", s.server, s.tools))
            .collect();
        let (severity, limit, why) = if tools > settings.max_tools {
            (
                Severity::Error,
                settings.max_tools,
                "OpenAI rejects more than 128 tools in one request",
            )
        } else {
            (
                Severity::Warning,
                settings.warn_tools,
                "Cursor and some hosts cap the list at 40, and models choose worse from long lists",
            )
        };
        out.push(belt_finding(rule, severity,
            format!("The belt's {} servers list {tools} tools together ({}), more than {limit}; {why}", shares.len(), split.join(", ")),
            "Load fewer servers together, or ask for toolsets: a host offers every tool of every server in each request."));
    }
    let tokens: usize = shares.iter().map(|s| s.tokens).sum();
    if tokens > settings.max_catalog_tokens
        && let Some(rule) = super::rule("TG022")
    {
        by_size.sort_by(|a, b| b.tokens.cmp(&a.tokens).then(a.server.cmp(b.server)));
        let split: Vec<String> = by_size
            .iter()
            .map(|s| format!("{} {}", s.server, thousands(s.tokens)))
            .collect();
        let windows: Vec<String> = CONTEXTS
            .iter()
            .map(|(n, name)| {
                format!(
                    "{:.0}% of a {name} context",
                    100.0 * tokens as f64 / *n as f64
                )
            })
            .collect();
        out.push(belt_finding(rule, Severity::Warning,
            format!("The belt's tool list costs {} tokens ({}), over the budget of {}: {} before the user types a word; by server: {}",
                thousands(tokens), crate::tokens::TOKENIZER, thousands(settings.max_catalog_tokens), windows.join(", "), split.join(", ")),
            "Load fewer servers together, or shorten the most expensive servers' descriptions and schemas."));
    }
    out.into_iter().filter_map(|f| settings.apply(f)).collect()
}

fn belt_finding(rule: &super::Rule, severity: Severity, message: String, help: &str) -> Finding {
    Finding {
        code: rule.code.into(),
        slug: rule.slug.into(),
        severity,
        tool: None,
        tool_index: None,
        pointer: String::new(),
        message,
        help: help.into(),
    }
}

/// 12345 → "12,345".
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Tool;
    use serde_json::json;

    fn cat(names: &[&str]) -> Catalog {
        Catalog {
            tools: names
                .iter()
                .map(|n| Tool::from_value(json!({"name": n}), "t").unwrap())
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_name_on_two_servers_is_reported_naming_both() {
        let (a, b, c) = (
            cat(&["search", "open"]),
            cat(&["search", "x"]),
            cat(&["open"]),
        );
        let f = cross_server(
            &[("git", &a), ("web", &b), ("files", &c)],
            &LintSettings::default(),
        );
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!(f[0].tool.as_deref(), Some("git/search"));
        assert!(
            f[0].message.contains("`git/search`, `web/search`"),
            "{}",
            f[0].message
        );
        assert!(
            f[1].message.contains("`git/open`, `files/open`"),
            "{}",
            f[1].message
        );
        assert_eq!(f[0].code, "TG001");
        // One server repeating its own name is that server's TG001, not a belt finding.
        let d = cat(&["dup", "dup"]);
        assert!(cross_server(&[("one", &d)], &LintSettings::default()).is_empty());
    }

    #[test]
    fn a_belt_over_the_hosts_limits_is_reported_with_each_servers_share() {
        let s = LintSettings::default();
        let share = |server, tools, tokens| Share {
            server,
            tools,
            tokens,
        };
        assert!(budget(&[share("a", 20, 4000), share("b", 20, 6000)], &s).is_empty());
        let f = budget(&[share("a", 30, 4000), share("b", 20, 8500)], &s);
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!(
            (f[0].code.as_str(), f[0].severity),
            ("TG021", Severity::Warning)
        );
        assert!(
            f[0].message
                .contains("50 tools together (a 30, b 20), more than 40"),
            "{}",
            f[0].message
        );
        assert_eq!(f[1].code, "TG022");
        assert!(
            f[1].message.contains("costs 12,500 tokens"),
            "{}",
            f[1].message
        );
        assert!(
            f[1].message.contains("39% of a 32k context"),
            "{}",
            f[1].message
        );
        assert!(
            f[1].message.contains("b 8,500, a 4,000"),
            "{}",
            f[1].message
        );
        let f = budget(&[share("a", 100, 10), share("b", 29, 10)], &s);
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }
}

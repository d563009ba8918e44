//! TG021 and TG022 over a belt: its tool count and the tokens its tool list costs, against
//! the hosts' limits and the context windows of common models, with each server's share.

use super::super::{Finding, LintSettings, Severity};

/// Context windows a belt's tool list is compared with: small local models' settings, and the
/// large hosted models'.
pub(super) const CONTEXTS: &[(usize, &str)] = &[
    (8_192, "8k"),
    (32_768, "32k"),
    (128_000, "128k"),
    (200_000, "200k"),
];

/// How many servers a message lists by name before summing the rest.
const LISTED: usize = 12;

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
    if tools > settings.warn_tools {
        let rule = &super::super::rules::too_many_tools::RULE;
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
        let mut f = belt_finding(
            rule,
            severity,
            format!(
                "The belt's {} servers list {tools} tools together ({}), more than {limit}; {why}",
                shares.len(),
                split.join(", ")
            ),
            "Load fewer servers together, or ask for toolsets: a host offers every tool of every server in each request.",
        );
        f.related = by_size.iter().map(|s| s.server.to_string()).collect();
        out.push(f);
    }
    let tokens: usize = shares.iter().map(|s| s.tokens).sum();
    if tokens > settings.max_catalog_tokens {
        let rule = &super::super::rules::catalog_token_budget::RULE;
        by_size.sort_by(|a, b| b.tokens.cmp(&a.tokens).then(a.server.cmp(b.server)));
        let share = |n: usize| 100.0 * n as f64 / tokens.max(1) as f64;
        let mut split: Vec<String> = by_size
            .iter()
            .take(LISTED)
            .map(|s| {
                format!(
                    "{} {} ({:.0}%)",
                    s.server,
                    thousands(s.tokens),
                    share(s.tokens)
                )
            })
            .collect();
        if by_size.len() > LISTED {
            let rest: usize = by_size[LISTED..].iter().map(|s| s.tokens).sum();
            split.push(format!(
                "{} more {} ({:.0}%)",
                by_size.len() - LISTED,
                thousands(rest),
                share(rest)
            ));
        }
        let mut f = belt_finding(
            rule,
            Severity::Warning,
            format!(
                "The belt's {} servers' tool definitions cost {} tokens ({}) together, over the budget of {}, before the user types a word; {}; by server (share of the belt): {}",
                shares.len(),
                thousands(tokens),
                crate::tokens::TOKENIZER,
                thousands(settings.max_catalog_tokens),
                windows(tokens),
                split.join(", ")
            ),
            "Load fewer servers together (a host sends every server's tools in each request), or shorten the most expensive servers' descriptions and schemas.",
        );
        f.related = by_size.iter().map(|s| s.server.to_string()).collect();
        out.push(f);
    }
    out.into_iter().filter_map(|f| settings.apply(f)).collect()
}

/// What share of each common context window `tokens` of tool definitions eat: "they fill
/// 52% of an 8k context, 13% of a 32k context, …", naming the windows they do not fit in.
pub(super) fn windows(tokens: usize) -> String {
    let mut fit = Vec::new();
    let mut over = Vec::new();
    for (n, name) in CONTEXTS {
        let pct = 100.0 * tokens as f64 / *n as f64;
        if tokens >= *n {
            over.push(format!("{name} ({pct:.0}%)"));
        } else {
            let left = thousands(n - tokens);
            let article = if name.starts_with('8') { "an" } else { "a" };
            fit.push(format!(
                "{pct:.0}% of {article} {name} context (leaving {left})"
            ));
        }
    }
    match (over.is_empty(), fit.is_empty()) {
        (true, _) => format!("they fill {}", fit.join(", ")),
        (false, true) => format!(
            "they do not fit in any common context window: {}",
            over.join(", ")
        ),
        (false, false) => format!(
            "they do not fit in a context of {}, and fill {}",
            over.join(", "),
            fit.join(", ")
        ),
    }
}

fn belt_finding(
    rule: &super::super::Rule,
    severity: Severity,
    message: String,
    help: &str,
) -> Finding {
    Finding {
        group: None,
        code: rule.code.into(),
        slug: rule.slug.into(),
        severity,
        tool: None,
        tool_index: None,
        pointer: String::new(),
        message,
        help: help.into(),
        related: Vec::new(),
        pair: None,
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
            f[1].message
                .contains("cost 12,500 tokens (o200k_base) together"),
            "{}",
            f[1].message
        );
        assert!(
            f[1].message.contains(
                "they do not fit in a context of 8k (153%), and fill 38% of a 32k context (leaving 20,268)"
            ),
            "{}",
            f[1].message
        );
        assert!(
            f[1].message.contains("b 8,500 (68%), a 4,000 (32%)"),
            "{}",
            f[1].message
        );
        assert_eq!(f[1].related, ["b", "a"]);
        assert_eq!(f[0].related, ["a", "b"]);
        let f = budget(&[share("a", 100, 10), share("b", 29, 10)], &s);
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn windows_say_which_contexts_a_list_fits() {
        assert_eq!(
            windows(4_096),
            "they fill 50% of an 8k context (leaving 4,096), 12% of a 32k context (leaving 28,672), 3% of a 128k context (leaving 123,904), 2% of a 200k context (leaving 195,904)"
        );
        assert!(
            windows(300_000)
                .starts_with("they do not fit in any common context window: 8k (3662%)")
        );
        // Many servers: the first twelve by name, the rest summed.
        let names: Vec<String> = (0..14).map(|i| format!("s{i:02}")).collect();
        let shares: Vec<Share> = names
            .iter()
            .map(|n| Share {
                server: n,
                tools: 1,
                tokens: 1_000,
            })
            .collect();
        let f = budget(&shares, &LintSettings::default());
        assert!(
            f[0].message.contains("s11 1,000 (7%), 2 more 2,000 (14%)"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].related.len(), 14);
    }
}

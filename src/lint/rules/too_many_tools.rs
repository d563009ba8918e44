//! ## What it checks
//! The server lists more tools than hosts handle well: more than `warn_tools` (40 by default) is
//! a warning, more than `max_tools` (128 by default) an error.
//!
//! ## Why it matters
//! OpenAI rejects requests with more than 128 tools, so such a server cannot be used there in
//! full; Cursor and some other hosts cap the tools they pass on at about 40 and silently drop
//! the rest. Below the hard limits, models choose worse from long lists: every extra tool costs
//! context and adds another near-miss to confuse with the right one, and users run several
//! servers at once.
//!
//! ## Example
//! ```json
//! {"tools": [{"name": "create_issue"}, {"name": "update_issue"}, "… 150 more …"]}
//! ```
//!
//! ## How to fix
//! Merge tools that differ only by an argument (`get_issue_by_id`, `get_issue_by_key` →
//! `get_issue`), drop rarely used ones, or split the server into focused servers (or toolsets
//! the user enables). Thresholds are `[lint] warn_tools` and `max_tools`.

use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG021",
    slug: "too-many-tools",
    severity: Severity::Warning,
    summary: "The server lists more tools than hosts handle well.",
    doc: rule_doc!("too_many_tools"),
    check,
    scope: Scope::Catalog,
};

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let n = cx.catalog.tools.len();
    let (warn, max) = (cx.settings.warn_tools, cx.settings.max_tools);
    if n > max {
        let mut f = cx.finding(
            &RULE,
            None,
            "",
            format!("The server lists {n} tools, more than {max}; OpenAI rejects more than 128 tools in one request"),
            "Merge, drop or split tools (e.g. into focused servers or toolsets) to get below the limit.",
        );
        f.severity = Severity::Error;
        out.push(f);
    } else if n > warn {
        out.push(cx.finding(
            &RULE,
            None,
            "",
            format!(
                "The server lists {n} tools, more than {warn}; Cursor and some hosts cap the list at 40, and models choose worse from long lists"
            ),
            "Merge tools that differ only by an argument, drop rarely used ones, or split the server.",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    fn tools(n: usize) -> Vec<serde_json::Value> {
        (0..n)
            .map(|i| json!({"name": format!("tool_{i}"), "description": "x"}))
            .collect()
    }

    #[test]
    fn warns_then_errors_by_count() {
        assert!(lint_tools(&RULE, tools(40)).is_empty());
        let out = lint_tools(&RULE, tools(41));
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Warning);
        assert_eq!(out[0].tool, None);
        let out = lint_tools(&RULE, tools(129));
        assert_eq!(out[0].severity, Severity::Error);
    }
}

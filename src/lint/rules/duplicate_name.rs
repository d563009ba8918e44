//! ## What it checks
//! Two or more tools in the catalog share the same `name`.
//!
//! ## Why it matters
//! A model picks a tool by name and the host routes the call by name. With two tools called
//! `search`, the host calls whichever it finds first (or rejects the whole tool list: OpenAI and
//! Anthropic refuse duplicate function names), so one of the tools can never be reached and the
//! model's choice between them is meaningless.
//!
//! ## Example
//! ```json
//! {"tools": [{"name": "search", "description": "Search tickets."},
//!            {"name": "search", "description": "Search customers."}]}
//! ```
//!
//! ## How to fix
//! Give every tool a unique name that says what it acts on: `search_tickets`,
//! `search_customers`. When two servers are combined, prefix each server's tools.

use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use std::collections::HashMap;

pub(crate) const RULE: Rule = Rule {
    code: "TG001",
    slug: "duplicate-tool-name",
    severity: Severity::Error,
    summary: "Two tools share one name.",
    doc: rule_doc!("duplicate_name"),
    check,
    scope: Scope::Catalog,
};

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (i, tool) in cx.tools() {
        match first.get(tool.name()) {
            Some(&j) => out.push(cx.finding(
                &RULE,
                Some(i),
                "/name",
                format!(
                    "`{}` is listed again (first at position {})",
                    tool.name(),
                    j + 1
                ),
                "Rename one of the tools so every name is unique.",
            )),
            None => {
                first.insert(tool.name(), i);
            }
        }
    }
}

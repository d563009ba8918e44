//! ## What it checks
//! A tool's name is made only of generic words (`run`, `execute`, `query`, `search`, `get`,
//! `tool`, `helper`, `it`, `thing`, `data`, …): `search`, `run_query`, `do_action`, `do_it`,
//! `execute_command`. Names with a word that says what the tool acts on (`search_files`,
//! `create_task`) are fine.
//!
//! ## Why it matters
//! Models read the name first and the description second; the name is also all that many
//! hosts show in their tool lists and approval prompts. A generic name gives the model no hint
//! of what the tool acts on, and it collides with other servers' tools: two connected servers
//! that both offer `search` make the model (or the host) pick one blindly.
//!
//! ## Example
//! ```json
//! {"name": "run_query", "description": "Run a SQL query against the analytics warehouse."}
//! ```
//!
//! ## How to fix
//! Name the object and the action: `query_analytics_warehouse`, `search_tickets`,
//! `run_sql_migration`. Keep names short, lower case, with underscores.

use super::common::ticked;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::text;

pub(crate) const RULE: Rule = Rule {
    code: "TG013",
    slug: "generic-tool-name",
    severity: Severity::Warning,
    summary: "A tool's name is too generic to say what it acts on.",
    doc: rule_doc!("generic_tool_name"),
    check,
    scope: Scope::Catalog,
};

/// Words that say nothing about what a tool acts on.
/// `task` is not one: `create_task` names the object a to-do tool acts on.
const GENERIC: &[&str] = &[
    "run",
    "execute",
    "exec",
    "query",
    "call",
    "invoke",
    "do",
    "doit",
    "process",
    "handle",
    "tool",
    "action",
    "perform",
    "get",
    "fetch",
    "send",
    "search",
    "update",
    "create",
    "delete",
    "list",
    "main",
    "api",
    "request",
    "command",
    "helper",
    "util",
    "utils",
    "function",
    "it",
    "this",
    "that",
    "thing",
    "things",
    "stuff",
    "something",
    "anything",
    "everything",
    "data",
    "info",
    "misc",
    "generic",
    "general",
    "foo",
    "bar",
    "baz",
    "go",
    "make",
    "work",
];

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        let words = text::name_words(tool.name());
        if words.is_empty() || !words.iter().all(|w| GENERIC.contains(&w.as_str())) {
            continue;
        }
        let what = if words.len() == 1 {
            "a single generic word".to_string()
        } else {
            format!("only generic words ({})", ticked(&words))
        };
        out.push(cx.finding(
            &RULE,
            Some(i),
            "/name",
            format!("`{}` is named with {what}; it does not say what the tool acts on", tool.name()),
            "Rename the tool after its action and object, e.g. `search_tickets` or `query_sales_db`.",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_on_generic_names_only() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "search"}),
                json!({"name": "run_query"}),
                json!({"name": "executeCommand"}),
                json!({"name": "search_files"}),
                json!({"name": "get-env"}),
                json!({"name": "do_it"}),
                json!({"name": "doIt"}),
                json!({"name": "create_task"}),
                json!({"name": "update_task"}),
                json!({"name": "get_data_source"}),
            ],
        );
        let names: Vec<_> = out.iter().filter_map(|f| f.tool.as_deref()).collect();
        assert_eq!(
            names,
            ["search", "run_query", "executeCommand", "do_it", "doIt"]
        );
    }
}

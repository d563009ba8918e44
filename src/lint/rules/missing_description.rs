//! ## What it checks
//! A tool has no `description`, an empty one, or one that is not a string.
//!
//! ## Why it matters
//! The description is most of what a model knows about a tool. Without one, the model must guess
//! from the name and the schema; it will skip the tool when it is needed, or call it for the
//! wrong job.
//!
//! ## Example
//! ```json
//! {"name": "sync", "inputSchema": {"type": "object"}}
//! ```
//!
//! ## How to fix
//! Write one or two sentences: what the tool does, what it acts on, and when to use it rather
//! than its siblings: `"Push local calendar changes to the server. Use after create_event or
//! update_event when the user asks to sync."`

use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG002",
    slug: "missing-description",
    severity: Severity::Error,
    summary: "A tool has no description.",
    doc: rule_doc!("missing_description"),
    check,
    scope: Scope::Catalog,
};

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        let problem = match tool.raw.get("description") {
            None => "has no description",
            Some(serde_json::Value::String(s)) if s.trim().is_empty() => "has an empty description",
            Some(serde_json::Value::String(_)) => continue,
            Some(_) => "has a description that is not a string",
        };
        out.push(cx.finding(
            &RULE,
            Some(i),
            "/description",
            format!("`{}` {problem}", tool.name()),
            "Describe what the tool does, what it acts on, and when to use it.",
        ));
    }
}

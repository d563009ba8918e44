//! ## What it checks
//! Two or more tools have the same description, once case, whitespace and punctuation are
//! ignored.
//!
//! When their required parameters differ, the message says so: a request that fits one gives
//! what the other cannot take, so the pair is duplicated text rather than a likely confusion
//! (models did not confuse such pairs). With the same parameters too, TG032 reports the pair as
//! a confusion.
//!
//! ## Why it matters
//! When two tools read the same, the model has only their names left to choose between them,
//! and it picks at random or always the first. Identical descriptions are usually a
//! copy-paste slip: one of the tools describes something it does not do.
//!
//! ## Example
//! ```json
//! {"tools": [{"name": "list_users", "description": "List records in the workspace."},
//!            {"name": "list_projects", "description": "List records in the workspace."}]}
//! ```
//!
//! ## How to fix
//! Rewrite each description to say what that tool acts on and what sets it apart:
//! `"List the users of the workspace, with their roles."`, `"List the workspace's projects,
//! newest first."`.

use std::collections::HashMap;

use super::common::quote;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG004",
    slug: "duplicate-description",
    severity: Severity::Warning,
    summary: "Two tools share the same description.",
    doc: rule_doc!("duplicate_description"),
    check,
    scope: Scope::Catalog,
};

/// Lower-case words joined by single spaces: punctuation and spacing do not count.
fn normalize(desc: &str) -> String {
    desc.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    if cx.catalog.tools.len() < 2 {
        return;
    }
    let mut first: HashMap<String, usize> = HashMap::new();
    for (i, tool) in cx.tools() {
        let Some(desc) = tool.description() else {
            continue;
        };
        let key = normalize(desc);
        if key.is_empty() {
            continue;
        }
        match first.get(&key) {
            Some(&j) => {
                let other = &cx.catalog.tools[j];
                let req = |t: &crate::catalog::Tool| {
                    let mut r: Vec<String> =
                        t.required().iter().map(|s| s.to_lowercase()).collect();
                    r.sort_unstable();
                    r
                };
                let apart = if req(tool) == req(other) {
                    ""
                } else {
                    " (duplicate text; their required parameters differ, so a request tells them apart)"
                };
                let mut f = cx.finding(
                    &RULE,
                    Some(i),
                    "/description",
                    format!(
                        "`{}` has the same description as `{}`: \"{}\"{apart}",
                        tool.name(),
                        other.name(),
                        quote(desc, 80)
                    ),
                    "Rewrite the descriptions so each says what its tool acts on and how it differs from the other.",
                );
                f.pair = Some(other.name().to_string());
                out.push(f);
            }
            None => {
                first.insert(key, i);
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
    fn fires_on_the_later_copy_only() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "list_users", "description": "List records in the workspace."}),
                json!({"name": "list_projects", "description": "list records  in the WORKSPACE"}),
                json!({"name": "get_user", "description": "Fetch one user by id."}),
            ],
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].tool.as_deref(), Some("list_projects"));
        assert!(out[0].message.contains("`list_users`"));
    }
}

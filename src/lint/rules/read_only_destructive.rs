//! ## What it checks
//! A tool is annotated `readOnlyHint: true` although it sounds destructive (a word of its name,
//! or the verb its description starts with, is delete, remove, drop, purge, reset, …), or
//! although it also sets `destructiveHint: true`, which contradicts it.
//!
//! ## Why it matters
//! `readOnlyHint: true` tells hosts the tool changes nothing, so many run it without asking the
//! user, even in cautious modes, and models call it freely to "look around". A tool that
//! deletes or overwrites while claiming to be read-only is the worst case: the safety prompt is
//! skipped exactly when it was needed.
//!
//! ## Example
//! ```json
//! {"name": "purge_cache", "description": "Purge every cached page for a site.",
//!  "annotations": {"readOnlyHint": true}}
//! ```
//!
//! ## How to fix
//! Set `readOnlyHint: false` and `destructiveHint: true` on tools that change or remove
//! anything. If the tool really only reads (`list_deleted_items`), rename it or reword its
//! description so it does not lead with a destructive verb.

use super::common::destructive_verb;
use crate::lint::{Context, Finding, Rule, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG016",
    slug: "read-only-destructive",
    severity: Severity::Error,
    summary: "A destructive tool is annotated as read-only.",
    doc: rule_doc!("read_only_destructive"),
    check,
};

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        if tool.hint("readOnlyHint") != Some(true) {
            continue;
        }
        let why = if tool.hint("destructiveHint") == Some(true) {
            "also sets `destructiveHint: true`, which contradicts it".to_string()
        } else if let Some(verb) = destructive_verb(tool) {
            format!("sounds destructive (\"{verb}\")")
        } else {
            continue;
        };
        out.push(cx.finding(
            &RULE,
            Some(i),
            "/annotations/readOnlyHint",
            format!(
                "`{}` is annotated `readOnlyHint: true` but {why}; hosts may run it without asking the user",
                tool.name()
            ),
            "Set `readOnlyHint: false` and `destructiveHint: true` if the tool changes anything; otherwise drop the destructive wording or hint.",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_on_read_only_destroyers_and_contradictions() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "purge_cache", "description": "Purge cached pages.",
                       "annotations": {"readOnlyHint": true}}),
                json!({"name": "sync", "description": "Sync the mirror.",
                       "annotations": {"readOnlyHint": true, "destructiveHint": true}}),
            ],
        );
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[1].message.contains("contradicts"));
    }

    #[test]
    fn quiet_on_honest_read_only_tools() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "read_graph", "description": "Read the entire knowledge graph",
                        "annotations": {"readOnlyHint": true, "destructiveHint": false}}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

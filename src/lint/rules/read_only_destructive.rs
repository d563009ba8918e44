//! ## What it checks
//! A tool is annotated `readOnlyHint: true` although it sounds destructive (a word of its name,
//! or the verb its description starts with, is delete, remove, drop, purge, reset, …), or it
//! sounds like it changes something outside (a word of its name, or its description's first
//! verb, is send, pay, transfer, charge, publish, deploy, write, create, update, …, and no word
//! of its name says it only looks: `get`, `list`, `preview`, `estimate`, `validate`, …), or it
//! also sets `destructiveHint: true`, which contradicts it. A contradiction or a destructive
//! verb is an error; a verb that may change something outside is a note (info: it is a
//! judgement, right 0 times in 3 on the held-out corpus of real servers), and "executes a log query" or "runs a search" is a read, not a change. A name
//! that starts by looking (`describe_drop_policy`) is not destructive for the word after it.
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

use super::common::LOOKING_WORDS;
use super::common::destructive_verb;
use crate::catalog::Tool;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::text;

pub(crate) const RULE: Rule = Rule {
    code: "TG016",
    slug: "read-only-destructive",
    severity: Severity::Error,
    summary: "A destructive tool is annotated as read-only.",
    doc: rule_doc!("read_only_destructive"),
    check,
    scope: Scope::Catalog,
};

/// Verbs of actions with effects outside the tool: money moved, messages sent, things written.
const CHANGING_VERBS: &[&str] = &[
    "send", "pay", "transfer", "charge", "withdraw", "deposit", "purchase", "buy", "sell", "order",
    "book", "publish", "post", "tweet", "email", "sms", "submit", "deploy", "merge", "push",
    "commit", "write", "move", "rename", "update", "edit", "modify", "create", "insert", "upload",
    "approve", "sign", "execute", "install", "restart", "shutdown", "invite", "grant", "share",
    "forward", "reply", "schedule", "set",
];

/// The state-changing verb a supposedly read-only tool leads with, if any.
fn changing_verb(tool: &Tool) -> Option<&'static str> {
    let names = text::name_words(tool.name());
    if names.iter().any(|w| LOOKING_WORDS.contains(&w.as_str())) {
        return None;
    }
    let in_name = names
        .iter()
        .find_map(|w| CHANGING_VERBS.iter().copied().find(|v| v == w));
    in_name.or_else(|| {
        let description = tool.description().unwrap_or("");
        let words = text::words(description);
        let first = words.first()?;
        let verb = CHANGING_VERBS.iter().copied().find(|v| {
            first == v
                || first.strip_suffix('s') == Some(*v)
                || first.strip_suffix("es") == Some(*v)
        })?;
        // "Executes a log query", "Runs a read-only search": running a query only reads.
        let reads = words
            .iter()
            .take(8)
            .any(|w| QUERY_WORDS.contains(&w.as_str()));
        (!reads).then_some(verb)
    })
}

/// Words that make "execute" or "run" a read: what is executed is a query or a search.
const QUERY_WORDS: &[&str] = &[
    "query", "queries", "search", "searches", "select", "lookup", "read", "readonly", "report",
];

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        if tool.hint("readOnlyHint") != Some(true) {
            continue;
        }
        // A contradiction or a destructive verb is near-certain; a verb that may change
        // something outside ("send", "execute") is a judgement, so a note.
        let (why, severity) = if tool.hint("destructiveHint") == Some(true) {
            (
                "also sets `destructiveHint: true`, which contradicts it".to_string(),
                Severity::Error,
            )
        } else if let Some(verb) = destructive_verb(tool) {
            (format!("sounds destructive (\"{verb}\")"), Severity::Error)
        } else if let Some(verb) = changing_verb(tool) {
            (
                format!("sounds like it changes something (\"{verb}\")"),
                // Right 0 times in 3 on the held-out corpus (fixtures/lint-heldout): a note.
                Severity::Info,
            )
        } else {
            continue;
        };
        let mut f = cx.finding(
            &RULE,
            Some(i),
            "/annotations/readOnlyHint",
            format!(
                "`{}` is annotated `readOnlyHint: true` but {why}; hosts may run it without asking the user",
                tool.name()
            ),
            "Set `readOnlyHint: false` and `destructiveHint: true` if the tool changes anything; otherwise drop the destructive wording or hint.",
        );
        f.severity = severity;
        out.push(f);
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
    fn fires_on_read_only_tools_that_move_money_or_send() {
        let ro = json!({"readOnlyHint": true});
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "send_money", "description": "Send money to a payee.", "annotations": ro}),
                json!({"name": "payments", "description": "Transfers funds between accounts.", "annotations": ro}),
                json!({"name": "estimate_transfer_fee", "description": "Estimate the fee of a transfer.", "annotations": ro}),
                json!({"name": "get_sent_emails", "description": "List emails already sent.", "annotations": ro}),
                json!({"name": "list_updates", "description": "Show recent updates.", "annotations": ro}),
            ],
        );
        let names: Vec<_> = out.iter().filter_map(|f| f.tool.as_deref()).collect();
        assert_eq!(names, ["send_money", "payments"], "{out:#?}");
    }

    /// Issue 40: real read-only tools that were read as destructive.
    #[test]
    fn a_looking_name_or_a_query_is_not_destructive() {
        let ro = json!({"readOnlyHint": true});
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "describe_drop_policy", "description": "Describes a table's drop policy.", "annotations": ro}),
                json!({"name": "run_logs_query", "description": "Executes a log query against the workspace and returns the rows.", "annotations": ro}),
                json!({"name": "list_deleted_items", "description": "Lists items in the recycle bin.", "annotations": ro}),
            ],
        );
        assert!(out.is_empty(), "{out:#?}");
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "flush_queue", "description": "Flushes the queue.", "annotations": ro}),
                json!({"name": "execute_script", "description": "Executes a shell script on the host.", "annotations": ro}),
            ],
        );
        assert_eq!(out.len(), 2, "{out:#?}");
        assert_eq!(out[0].severity, Severity::Error);
        assert_eq!(out[1].severity, Severity::Info, "a judgement");
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

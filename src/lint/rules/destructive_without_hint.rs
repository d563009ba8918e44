//! ## What it checks
//! A tool sounds destructive (a word of its name, or the verb its description starts with, is
//! one of delete, remove, drop, destroy, purge, erase, wipe, truncate, refund, cancel, revoke,
//! terminate, kill, reset, overwrite, uninstall, unlink, rm, del, void, expunge, shred, evict,
//! ban, deactivate, disable, unsubscribe, clear) but its annotations do not set
//! `destructiveHint: true`: the hint is absent or explicitly `false`. Tools marked
//! `readOnlyHint: true` are left to TG016. Disable and deactivate count unless the name says
//! they switch off a setting (`disable_telemetry`, `deactivate_notifications`): that changes
//! a preference, not data.
//!
//! ## Why it matters
//! Hosts decide from the annotations whether to ask the user before a call: a tool marked
//! destructive gets a confirmation prompt, others may run automatically in agent mode. The
//! model also reads the hints when it plans; a delete tool that does not say it is destructive
//! gets called speculatively ("let me clean that up"), and nobody is asked first.
//!
//! ## Example
//! ```json
//! {"name": "delete_project", "description": "Delete a project and all its data.",
//!  "annotations": {"readOnlyHint": false}}
//! ```
//!
//! ## How to fix
//! Set `"annotations": {"readOnlyHint": false, "destructiveHint": true}`, and
//! `idempotentHint` as appropriate. If the tool is really harmless (it only clears a filter in
//! a view), say so in the description and set `destructiveHint: false` deliberately; then
//! disable this rule for the tool in `toolgate.toml`.

use super::common::destructive_verb;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG015",
    slug: "destructive-without-hint",
    severity: Severity::Warning,
    summary: "A destructive-sounding tool is not annotated as destructive.",
    doc: rule_doc!("destructive_without_hint"),
    check,
    scope: Scope::Catalog,
};

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        let Some(verb) = destructive_verb(tool) else {
            continue;
        };
        if tool.hint("readOnlyHint") == Some(true) {
            continue; // TG016 reports the contradiction.
        }
        let (ptr, state) = match tool.hint("destructiveHint") {
            Some(true) => continue,
            Some(false) => (
                "/annotations/destructiveHint",
                "sets `destructiveHint: false`",
            ),
            None if tool.annotations().is_some() => {
                ("/annotations", "does not set `destructiveHint`")
            }
            None => ("", "has no annotations, so no `destructiveHint`"),
        };
        out.push(cx.finding(
            &RULE,
            Some(i),
            ptr,
            format!(
                "`{}` sounds destructive (\"{verb}\") but {state}; hosts will not ask the user before calling it",
                tool.name()
            ),
            "Set `\"annotations\": {\"readOnlyHint\": false, \"destructiveHint\": true}` so hosts confirm before the call.",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_when_the_hint_is_absent_or_false() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "delete_project", "description": "Delete a project."}),
                json!({"name": "users", "description": "Removes a user.", "annotations": {"destructiveHint": false}}),
            ],
        );
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].message.contains("no annotations"));
        assert!(out[1].message.contains("`destructiveHint: false`"));
        assert_eq!(out[1].pointer, "/annotations/destructiveHint");
    }

    #[test]
    fn quiet_when_marked_destructive_or_harmless() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "delete_entities", "description": "Delete multiple entities",
                       "annotations": {"readOnlyHint": false, "destructiveHint": true}}),
                json!({"name": "read_graph", "description": "Read the entire knowledge graph"}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

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
//! An explicit `destructiveHint: false` is a warning. An absent hint is a note (info): the
//! specification's default for `destructiveHint` is true, so hosts that honour the hints
//! already treat the tool as destructive; saying it explicitly serves the others. Leading
//! verbs also include discard, flush, trash, nuke, rollback and obliterate, and a description
//! that says the action "cannot be undone" counts whatever its verb; a name that starts by
//! looking (`describe_drop_policy`, `list_deleted_items`) does not.
//!
//! ## Why it matters
//! Hosts decide from the annotations whether to ask the user before a call: a tool marked
//! destructive gets a confirmation prompt; one marked `destructiveHint: false` may run
//! automatically in agent mode. The
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
        // The specification's default for `destructiveHint` is true: a tool that leaves it out
        // is already destructive to a host that honours the hints. Only an explicit `false`
        // tells hosts they need not ask; an absent hint is a note to say it explicitly.
        let (ptr, what, severity) = match tool.hint("destructiveHint") {
            Some(true) => continue,
            Some(false) => (
                "/annotations/destructiveHint",
                "sets `destructiveHint: false`, so hosts that honour the hint will not ask the user before calling it".to_string(),
                Severity::Warning,
            ),
            None => (
                if tool.annotations().is_some() { "/annotations" } else { "" },
                format!(
                    "{} `destructiveHint`: the specification's default (true) makes hosts that honour the hints ask first, but hosts and models that act only on explicit hints do not see it",
                    if tool.annotations().is_some() { "does not set" } else { "has no annotations, so no" }
                ),
                Severity::Info,
            ),
        };
        let mut f = cx.finding(
            &RULE,
            Some(i),
            ptr,
            format!("`{}` sounds destructive (\"{verb}\") but {what}", tool.name()),
            "Set `\"annotations\": {\"readOnlyHint\": false, \"destructiveHint\": true}` explicitly so every host confirms before the call.",
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

    /// Issue 40: verbs off the old list, "cannot be undone", and the specification's default.
    #[test]
    fn more_verbs_irreversible_wording_and_the_spec_default() {
        let no = json!({"destructiveHint": false});
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "discard_draft", "description": "Discards a draft.", "annotations": no}),
                json!({"name": "flush_cache", "description": "Flushes the cache.", "annotations": no}),
                json!({"name": "trash_file", "description": "Moves a file to the trash.", "annotations": no}),
                json!({"name": "nuke_env", "description": "Tears an environment down.", "annotations": no}),
                json!({"name": "rollback_release", "description": "Rolls a release back.", "annotations": no}),
                json!({"name": "archive_board", "description": "Archives the board. This cannot be undone.", "annotations": no}),
                json!({"name": "describe_drop_policy", "description": "Describes the drop policy.", "annotations": no}),
            ],
        );
        let names: Vec<_> = out.iter().filter_map(|f| f.tool.as_deref()).collect();
        assert_eq!(
            names,
            [
                "discard_draft",
                "flush_cache",
                "trash_file",
                "nuke_env",
                "rollback_release",
                "archive_board"
            ],
            "{out:#?}"
        );
        assert!(out.iter().all(|f| f.severity == Severity::Warning));
        // An absent hint defaults to destructive: a note, never "hosts will not ask".
        let out = lint_tools(
            &RULE,
            vec![json!({"name": "delete_user", "description": "Deletes a user."})],
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Info);
        assert!(
            out[0].message.contains("default (true)"),
            "{}",
            out[0].message
        );
        assert!(
            !out[0].message.contains("will not ask"),
            "{}",
            out[0].message
        );
    }

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

//! Destructive-verb detection: the verb a tool leads with, in its name or its description.

use crate::catalog::Tool;
use crate::text;

/// Verbs that make a tool destructive (or irreversible) when it leads with them.
pub(crate) const DESTRUCTIVE_VERBS: &[&str] = &[
    "delete",
    "remove",
    "drop",
    "destroy",
    "purge",
    "erase",
    "wipe",
    "truncate",
    "refund",
    "cancel",
    "revoke",
    "terminate",
    "kill",
    "reset",
    "overwrite",
    "uninstall",
    "unlink",
    "rm",
    "del",
    "void",
    "expunge",
    "shred",
    "evict",
    "ban",
    "deactivate",
    "disable",
    "unsubscribe",
    "clear",
    "discard",
    "flush",
    "trash",
    "nuke",
    "rollback",
    "obliterate",
];

/// Name words that say a tool only looks (`describe_drop_policy`, `list_deleted_items`): when
/// a name starts with one, a destructive word after it is the thing looked at, not the action.
pub(crate) const LOOKING_WORDS: &[&str] = &[
    "get",
    "list",
    "read",
    "search",
    "find",
    "show",
    "view",
    "describe",
    "fetch",
    "lookup",
    "count",
    "preview",
    "dry",
    "simulate",
    "estimate",
    "quote",
    "validate",
    "check",
    "plan",
    "calculate",
    "status",
    "history",
    "diff",
    "compare",
    "explain",
    "lint",
    "inspect",
    "draft",
];

/// A description that says the action is irreversible, whatever its verb.
fn says_irreversible(description: &str) -> bool {
    use std::sync::LazyLock;
    static RE: LazyLock<crate::text::pattern::Regex> = LazyLock::new(|| {
        crate::text::pattern::Regex::new(
            r"(?i)\b(cannot|can\s*not|can['’]t)\s+be\s+(undone|reversed|recovered|restored)\b|\birreversibl[ey]\b|\bno\s+way\s+to\s+(undo|recover|restore)\b",
        )
        .unwrap()
    });
    RE.is_match(description)
}

/// Adverbs skipped before the leading verb of a description ("Permanently deletes …").
const LEADING_ADVERBS: &[&str] = &[
    "permanently",
    "irreversibly",
    "completely",
    "forcibly",
    "force",
    "hard",
    "soft",
    "recursively",
    "immediately",
    "bulk",
    "batch",
    "instantly",
];

/// Verbs that switch something off: destructive for an account or a resource
/// (`deactivate_user`), a setting change for a feature (`disable_telemetry`).
const TOGGLE_VERBS: &[&str] = &["disable", "deactivate"];

/// What a toggle verb may switch off without destroying anything.
const SETTING_NOUNS: &[&str] = &[
    "telemetry",
    "tracking",
    "analytics",
    "notification",
    "notifications",
    "logging",
    "debug",
    "debugging",
    "verbose",
    "mode",
    "feature",
    "features",
    "setting",
    "settings",
    "preference",
    "preferences",
    "option",
    "options",
    "reminder",
    "reminders",
    "autosave",
    "autocomplete",
    "suggestions",
];

/// The destructive verb a tool leads with: any word of its name (exact), or the first word of
/// its description (imperative, third person or stemmed form). `None` when it sounds harmless,
/// or when it switches off a setting (`disable_telemetry`).
pub(crate) fn destructive_verb(tool: &Tool) -> Option<&'static str> {
    let words = text::name_words(tool.name());
    let setting = words.iter().any(|w| SETTING_NOUNS.contains(&w.as_str()));
    let counts = |v: &str| !(setting && TOGGLE_VERBS.contains(&v));
    // `describe_drop_policy`: the name's verb looks; "drop" is what it looks at.
    let looks = words
        .first()
        .is_some_and(|w| LOOKING_WORDS.contains(&w.as_str()));
    if !looks {
        for w in &words {
            if let Some(v) = DESTRUCTIVE_VERBS.iter().copied().find(|v| v == w)
                && counts(v)
            {
                return Some(v);
            }
        }
    }
    let description = tool.description().unwrap_or("");
    let first = text::words_iter(description).find(|w| !LEADING_ADVERBS.contains(&w.as_str()));
    if let Some(v) = first.as_deref().and_then(verb_form).filter(|v| counts(v)) {
        return Some(v);
    }
    (!looks && says_irreversible(description)).then_some("cannot be undone")
}

fn verb_form(word: &str) -> Option<&'static str> {
    let stemmed = text::stem(word);
    DESTRUCTIVE_VERBS.iter().copied().find(|v| {
        word == *v
            || word.strip_suffix('s') == Some(*v)
            || word.strip_suffix("es") == Some(*v)
            || (stemmed == *v && !word.ends_with("ed"))
    })
}

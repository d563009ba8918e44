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
];

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
    for w in &words {
        if let Some(v) = DESTRUCTIVE_VERBS.iter().copied().find(|v| v == w)
            && counts(v)
        {
            return Some(v);
        }
    }
    let first = text::words_iter(tool.description().unwrap_or(""))
        .find(|w| !LEADING_ADVERBS.contains(&w.as_str()))?;
    verb_form(&first).filter(|v| counts(v))
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

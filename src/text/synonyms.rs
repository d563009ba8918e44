//! Synonym folding: verb classes (`cancel` ~ `delete`), listing and export verbs, object-noun
//! classes (`client` ~ `customer`), and the word lists the role parser uses to find verbs and
//! the end of a name's object.

use std::collections::{HashMap, HashSet};

use super::stem;

/// Verbs that ask for the same kind of action, grouped under one class, so `cancel_event` and
/// `delete_event`, or `find_events` and `search_events`, are seen as alike.
pub(super) const VERB_CLASSES: &[(&str, &[&str])] = &[
    (
        "create",
        &[
            "create", "add", "new", "make", "insert", "schedule", "book", "register", "post",
        ],
    ),
    (
        "read",
        &[
            "get", "read", "fetch", "retrieve", "open", "view", "show", "describe", "load",
        ],
    ),
    (
        "search",
        &[
            "search", "find", "query", "lookup", "look", "filter", "match", "discover",
        ],
    ),
    (
        "update",
        &[
            "update",
            "edit",
            "modify",
            "change",
            "patch",
            "reschedule",
            "rename",
            "amend",
            "alter",
        ],
    ),
    (
        "delete",
        &[
            "delete", "remove", "cancel", "drop", "destroy", "erase", "purge", "revoke", "void",
            "unlink",
        ],
    ),
    ("send", &["send", "notify", "email", "message", "alert"]),
];

static BY_STEM: std::sync::LazyLock<HashMap<String, &'static str>> =
    std::sync::LazyLock::new(|| {
        VERB_CLASSES
            .iter()
            .flat_map(|(class, members)| members.iter().map(move |m| (stem(m), *class)))
            .collect()
    });

/// A stemmed word's verb class, or the word itself.
pub(crate) fn verb_class(stemmed: &str) -> &str {
    BY_STEM.get(stemmed).copied().unwrap_or(stemmed)
}

/// The verb class of a stemmed word, only when it is one of the class verbs (`search` →
/// `search`, `fetch` → `read`, `tree` → none).
pub(crate) fn verb_class_of(stemmed: &str) -> Option<&'static str> {
    BY_STEM.get(stemmed).copied()
}

/// Look-alike folding only (the sampler keeps [`verb_class`]): verbs that ask for a listing,
/// and verbs that take data out as a file.
pub(super) const LIST_VERBS: &[&str] = &["list", "browse", "enumerate", "show", "view"];
pub(super) const EXPORT_VERBS: &[&str] = &["export", "download", "dump"];

/// Object nouns that name the same thing, folded under the first, so `find_clients` and
/// `search_customers` are seen as one job. Look-alike folding only.
const NOUN_CLASSES: &[&[&str]] = &[
    &["customer", "client"],
    &["folder", "directory", "dir"],
    &["employee", "staff", "worker", "personnel"],
    &["company", "organization", "organisation", "org"],
    &["product", "item"],
    &["issue", "ticket"],
    &["event", "meeting", "appointment"],
    &["message", "note", "memo"],
    &["document", "doc"],
    &["repository", "repo"],
    &["supplier", "vendor"],
    &["photo", "picture", "image"],
    &["car", "vehicle"],
];

/// Verbs that are not in a class but start tool names (`export_users`, `git_diff`).
pub(super) const MORE_VERBS: &[&str] = &[
    "export",
    "import",
    "archive",
    "unarchive",
    "share",
    "count",
    "move",
    "copy",
    "merge",
    "push",
    "fork",
    "sync",
    "run",
    "execute",
    "start",
    "stop",
    "toggle",
    "trigger",
    "upload",
    "download",
    "approve",
    "reject",
    "close",
    "reopen",
    "assign",
    "publish",
    "invite",
    "set",
    "check",
    "validate",
    "convert",
    "compress",
    "summarize",
    "translate",
    "generate",
    "echo",
    "write",
    "commit",
    "reset",
    "checkout",
    "diff",
    "simulate",
    "restore",
    "install",
    "deploy",
    "restart",
    "clone",
    "print",
    "render",
    "compare",
    "calculate",
    "estimate",
    "track",
    "log",
    "record",
    "switch",
    "stage",
    "unstage",
    "transfer",
    "pay",
    "charge",
    "sign",
    "mark",
    "pin",
    "tag",
    "star",
    "watch",
    "follow",
    "like",
    "rate",
    "review",
    "comment",
    "reply",
    "forward",
];

/// Prepositions that end a name's object (`list_directory_with_sizes` acts on a directory).
pub(super) const PREPOSITIONS: &[&str] = &[
    "with",
    "by",
    "for",
    "from",
    "in",
    "as",
    "including",
    "to",
    "of",
    "on",
    "via",
    "without",
    "into",
    "using",
    "at",
    "per",
    "between",
    "across",
    "about",
    "within",
    "among",
    "over",
    "under",
    "that",
    "which",
    "so",
];

pub(super) fn stems_of(list: &[&str]) -> HashSet<String> {
    list.iter().map(|w| stem(w)).collect()
}

/// The object-noun class of a stemmed word (`client` → `custom`), or the word itself.
pub(crate) fn noun(stemmed: &str) -> String {
    static NOUNS: std::sync::LazyLock<HashMap<String, String>> = std::sync::LazyLock::new(|| {
        NOUN_CLASSES
            .iter()
            .flat_map(|class| class.iter().map(move |m| (stem(m), stem(class[0]))))
            .collect()
    });
    NOUNS
        .get(stemmed)
        .cloned()
        .unwrap_or_else(|| stemmed.to_string())
}

/// The concept a stemmed word stands for in look-alike comparisons: its listing or verb class,
/// else its noun class, else the word itself.
pub(crate) fn concept(stemmed: &str) -> String {
    static LIST: std::sync::LazyLock<HashSet<String>> =
        std::sync::LazyLock::new(|| stems_of(LIST_VERBS));
    static EXPORT: std::sync::LazyLock<HashSet<String>> =
        std::sync::LazyLock::new(|| stems_of(EXPORT_VERBS));
    if LIST.contains(stemmed) {
        return "list".to_string();
    }
    if EXPORT.contains(stemmed) {
        return "export".to_string();
    }
    let verb = verb_class(stemmed);
    if verb != stemmed {
        return verb.to_string();
    }
    noun(stemmed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_fold_into_classes_after_stemming() {
        assert_eq!(verb_class(&stem("creates")), "create");
        assert_eq!(verb_class(&stem("adds")), "create");
        assert_eq!(verb_class(&stem("cancels")), "delete");
        assert_eq!(verb_class(&stem("calendar")), "calendar");
    }
}

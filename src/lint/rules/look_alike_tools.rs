//! ## What it checks
//! Two tools whose descriptions and names are so alike (IDF-weighted word overlap at or above
//! `lookalike_threshold`, 0.5 by default, after folding synonyms: `delete`/`remove`,
//! `find`/`search`, `list`/`show`, `customer`/`client`, `folder`/`directory`, …) that a model
//! cannot tell which one to call. Pairs that plainly do different jobs are not reported, however
//! much wording they share:
//! - their names act on different objects that each description names (`export_users` /
//!   `export_products`, `create_issue` / `create_repository`), unless one object is a kind of
//!   the other ("review comments" next to reviews);
//! - they act on one object with different actions (`create_board` / `delete_board`,
//!   `duplicate_form` / `create_form`), unless their descriptions say the same thing once the
//!   words of both names are set aside ("Open a new issue … and return its id" next to
//!   `create_issue` "Create a new issue … and return its id");
//! - each name has a word the other lacks that its own description states and the other's does
//!   not (`gmail_get_calendar` / `jira_get_calendar`);
//! - what a request must give them differs: one requires a parameter the other has nowhere
//!   (`maps_reverse_geocode` needs a latitude, `confluence_add_inline_comment` a text
//!   selection), unless it is a list of the other's object (`batch_create_versions` takes
//!   `versions`: it does `create_version`'s job); or one lists what the other fetches one of
//!   (`get_users` / `get_user`, with no list of ids to fetch). Descriptions that restate each
//!   other are reported all the same.
//!
//! Two tools that do one job are reported however little else their wording shares, unless
//! their inputs tell them apart: two names for it (`get_file_contents` / `read_file`), or a
//! description that opens with another tool's job in its own words (`list_project_tags` "List
//! the labels (tags) defined on a project" beside `list_labels`; not "List issues assigned to
//! the user", some issues, and not `read_media_file` "Read a file …", a narrower kind).
//!
//! Two tools that do the same thing to the same object (`read_file` / `read_text_file`) are
//! reported from 0.2 below the threshold when every other word of their names is in both
//! descriptions. Tools with the same name are TG001's business. When one description at least
//! names the other tool, the finding is only informational.
//!
//! With an embedding model configured (`lint --embed DIR`, `[lint] embed_model`), the cosine of
//! the two tools' sentence embeddings is a second signal: a pair below `embed_floor` (0.7) is
//! not reported, and the message gives the cosine.
//!
//! The rule is informational: on 22 public servers nobody tuned it for, 11 of its 24 pairs
//! were real confusions. The pairs with evidence that did predict what models confuse (the
//! same text over the same parameters, a deprecated tool beside its replacement, names that
//! look the same) are TG032's, which can gate.
//!
//! ## Why it matters
//! A model picks a tool by matching the user's request against each description. When two
//! descriptions say nearly the same thing, the request matches both equally; the model picks
//! one more or less at random, and a host that routes or filters tools by similarity may drop
//! the right one. Every look-alike pair is a coin flip on every call.
//!
//! ## Example
//! ```json
//! {"tools": [
//!   {"name": "read_file", "description": "Read the complete contents of a file as text."},
//!   {"name": "read_text_file", "description": "Read the complete contents of a file from disk as text."}]}
//! ```
//!
//! ## How to fix
//! Merge the tools if they do the same job. Otherwise make each description say what sets it
//! apart and when to use it instead of the other: `"Read a text file. For images or audio use
//! read_media_file instead."`.

use std::collections::HashSet;

use super::common::shown_pair;
use crate::catalog::Tool;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::text;

pub(crate) const RULE: Rule = Rule {
    code: "TG005",
    slug: "look-alike-tools",
    severity: Severity::Info,
    summary: "Two tools are described so alike that a model cannot tell them apart.",
    doc: rule_doc!("look_alike_tools"),
    check,
    scope: Scope::Catalog,
};

/// Each content word of a tool's description and name: (as written, stem, concept).
fn terms(tool: &Tool) -> Vec<(String, String, String)> {
    let mut words = text::words(tool.description().unwrap_or(""));
    words.extend(text::name_words(tool.name()));
    words
        .into_iter()
        .filter(|w| !text::is_stop(w))
        .map(|w| {
            let stem = text::stem(&w);
            let concept = text::concept(&stem);
            (w, stem, concept)
        })
        .collect()
}

/// What TG005 (and TG028 across a belt) reads of one tool, worked out once however many pairs
/// it is in.
pub(crate) struct Facts {
    terms: Vec<(String, String, String)>,
    stems: HashSet<String>,
    pub(crate) lower_description: String,
}

impl Facts {
    pub(crate) fn of(tool: &Tool) -> Self {
        let terms = terms(tool);
        let stems = terms.iter().map(|t| t.1.clone()).collect();
        Facts {
            terms,
            stems,
            lower_description: tool.description().unwrap_or("").to_lowercase(),
        }
    }
}

/// Words both tools use (the same stem), in `a`'s order, at most `max`; and up to `max` pairs
/// of different words that mean the same (`remove` ≈ `delete`).
fn shared(a: &Facts, b: &Facts, max: usize) -> (Vec<String>, Vec<(String, String)>) {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut both = Vec::new();
    let mut alike = Vec::new();
    for (word, stem, concept) in &a.terms {
        if b.stems.contains(stem) {
            if seen.insert(stem) && both.len() < max {
                both.push(word.clone());
            }
        } else if alike.len() < max
            && !seen.contains(concept.as_str())
            && let Some((other, _, _)) = b.terms.iter().find(|t| &t.2 == concept)
        {
            // b has no word with this stem but one of the same class: a synonym.
            seen.insert(concept);
            alike.push((word.clone(), other.clone()));
        }
    }
    (both, alike)
}

/// What a finding says about a look-alike pair: the words both use (and alike words), and
/// whether one description names the other tool.
pub(crate) fn describe(fa: &Facts, fb: &Facts, a: &Tool, b: &Tool) -> (String, bool) {
    let named = text::mentions_lower(&fa.lower_description, b.name())
        || text::mentions_lower(&fb.lower_description, a.name());
    let (both, alike) = shared(fa, fb, 8);
    let mut words = if both.is_empty() {
        "none".to_string()
    } else {
        both.join(", ")
    };
    if !alike.is_empty() {
        let pairs: Vec<String> = alike.iter().map(|(x, y)| format!("{x} ≈ {y}")).collect();
        words.push_str(&format!("; alike words: {}", pairs.join(", ")));
    }
    (words, named)
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let mut facts: Vec<Option<Facts>> = Vec::new();
    facts.resize_with(cx.catalog.tools.len(), || None);
    for pair in cx.lookalikes() {
        let (Some(a), Some(b)) = (cx.catalog.tools.get(pair.a), cx.catalog.tools.get(pair.b))
        else {
            continue;
        };
        for (i, t) in [(pair.a, a), (pair.b, b)] {
            if facts[i].is_none() {
                facts[i] = Some(Facts::of(t));
            }
        }
        let (Some(fa), Some(fb)) = (&facts[pair.a], &facts[pair.b]) else {
            continue;
        };
        let (words, named) = describe(fa, fb, a, b);
        let (name_a, name_b) = shown_pair(a.name(), b.name());
        let semantic = cx
            .cosine(pair.a, pair.b)
            .map_or(String::new(), |c| format!("; embedding cosine {c:.2}"));
        let mut message = format!(
            "`{name_b}` looks like `{name_a}` (similarity {:.2}{semantic}; shared words: {words})",
            pair.score
        );
        if named {
            message
                .push_str("; one description names the other tool, which helps the model choose");
        }
        let mut f = cx.finding(
            &RULE,
            Some(pair.b),
            "/description",
            message,
            "Make each description say what sets the tool apart and when to use it instead of the other, or merge the two tools.",
        );
        f.pair = Some(a.name().to_string());
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    fn catalog(second: &str) -> Vec<serde_json::Value> {
        vec![
            json!({"name": "read_file", "description": "Read the complete contents of a file as text"}),
            json!({"name": "read_text_file", "description": second}),
            json!({"name": "send_email", "description": "Send an email message to a recipient"}),
        ]
    }

    #[test]
    fn fires_on_look_alikes_and_softens_when_one_names_the_other() {
        let out = lint_tools(
            &RULE,
            catalog("Read the complete contents of a file from disk as text"),
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Info);
        assert_eq!(out[0].tool.as_deref(), Some("read_text_file"));
        assert_eq!(out[0].pair.as_deref(), Some("read_file"));
        assert!(out[0].message.contains("read"), "{}", out[0].message);

        let out = lint_tools(
            &RULE,
            catalog(
                "Read the complete contents of a file from disk as text. Prefer it over read_file.",
            ),
        );
        assert_eq!(out.len(), 1);
        assert!(
            out[0].message.contains("names the other tool"),
            "{}",
            out[0].message
        );
    }

    #[test]
    fn quiet_on_distinct_tools() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "send_email", "description": "Send an email message to a recipient"}),
                json!({"name": "get_weather", "description": "Current weather forecast for a city"}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn shared_words_are_shared_and_synonyms_are_shown_apart() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "delete_file", "description": "Delete a file from the drive permanently."}),
                json!({"name": "remove_file", "description": "Remove a file from the drive; it is gone for good."}),
            ],
        );
        assert_eq!(out.len(), 1, "{out:?}");
        let m = &out[0].message;
        let shared = m
            .split("shared words: ")
            .nth(1)
            .and_then(|r| r.split(';').next())
            .unwrap_or_default();
        // Each listed word is in both tools (the old list named `remove` for `delete_file`).
        for w in shared.split(", ") {
            assert!(["file", "drive"].contains(&w), "{w} in {m}");
        }
        assert!(m.contains("alike words: delete ≈ remove"), "{m}");
    }

    #[test]
    fn pairs_their_inputs_or_objects_tell_apart_are_quiet() {
        // google-maps: a request gives an address or a latitude and longitude, and only one
        // tool takes each; without the schemas the two read alike.
        let geo = json!({"name": "maps_geocode", "description": "Convert an address into geographic coordinates",
            "inputSchema": {"type": "object", "properties": {"address": {"type": "string"}}, "required": ["address"]}});
        let rev = json!({"name": "maps_reverse_geocode", "description": "Convert coordinates into an address",
            "inputSchema": {"type": "object", "properties": {"latitude": {"type": "number"}, "longitude": {"type": "number"}},
                "required": ["latitude", "longitude"]}});
        assert!(lint_tools(&RULE, vec![geo.clone(), rev.clone()]).is_empty());
        let bare = |mut t: serde_json::Value| {
            t["inputSchema"] = json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
            t
        };
        assert_eq!(lint_tools(&RULE, vec![bare(geo), bare(rev)]).len(), 1);
        // atlassian: a watcher ("watching") is not the issue it watches.
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "jira_delete_issue", "description": "Delete an existing Jira issue."}),
                json!({"name": "jira_remove_watcher", "description": "Remove a user from watching a Jira issue."}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn one_name_twice_is_tg001s_and_hidden_differences_are_shown() {
        let same = json!({"name": "search", "description": "Search the support tickets by keyword and return matches."});
        assert!(lint_tools(&RULE, vec![same.clone(), same]).is_empty());
        // A zero-width space at the end splits into the same name words: this printed as
        // "`search` looks like `search`".
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "search", "description": "Search the support tickets by keyword and return matches."}),
                json!({"name": "search\u{200b}", "description": "Search the support tickets by keyword and return the matches."}),
            ],
        );
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0]
                .message
                .starts_with("`search\\u{200b}` looks like `search`"),
            "{}",
            out[0].message
        );
        let (a, b) = super::super::common::shown_pair("search", "s\u{435}arch");
        assert_eq!((a.as_str(), b.as_str()), ("search", "s\\u{435}arch"));
    }
}

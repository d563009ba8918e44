//! ## What it checks
//! Two or more tools in the catalog share the same `name`, or two names look the same but are
//! not (a homoglyph: `reаd_file` with a Cyrillic `а` beside `read_file`; names are compared by
//! their Unicode confusable skeleton, UTS #39, when one of them is not plain ASCII).
//!
//! ## Why it matters
//! A model picks a tool by name and the host routes the call by name. With two tools called
//! `search`, the host calls whichever it finds first (or rejects the whole tool list: OpenAI and
//! Anthropic refuse duplicate function names), so one of the tools can never be reached and the
//! model's choice between them is meaningless. A look-alike name is worse: a person reviewing
//! the list sees one tool twice and cannot tell which is which, while the model and the host
//! see two, so a server can slip a twin of a trusted tool beside it.
//!
//! ## Example
//! ```json
//! {"tools": [{"name": "search", "description": "Search tickets."},
//!            {"name": "search", "description": "Search customers."}]}
//! ```
//!
//! ## How to fix
//! Give every tool a unique name that says what it acts on: `search_tickets`,
//! `search_customers`. When two servers are combined, prefix each server's tools. Spell names
//! in ASCII; a name that copies another's look with other scripts' letters is an attack.

use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use std::collections::HashMap;

pub(crate) const RULE: Rule = Rule {
    code: "TG001",
    slug: "duplicate-tool-name",
    severity: Severity::Error,
    summary: "Two tools share one name.",
    doc: rule_doc!("duplicate_name"),
    check,
    scope: Scope::Catalog,
};

/// The first character of `name` that is not ASCII, with its position, for the message.
fn first_foreign(name: &str) -> Option<String> {
    name.chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii())
        .map(|(i, c)| format!("U+{:04X} at character {}", c as u32, i + 1))
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    look_alike_names(cx, out);
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (i, tool) in cx.tools() {
        match first.get(tool.name()) {
            Some(&j) => out.push(cx.finding(
                &RULE,
                Some(i),
                "/name",
                format!(
                    "`{}` is listed again (first at position {})",
                    tool.name(),
                    j + 1
                ),
                "Rename one of the tools so every name is unique.",
            )),
            None => {
                first.insert(tool.name(), i);
            }
        }
    }
}
/// Names that differ but share a confusable skeleton, one of them not plain ASCII.
fn look_alike_names(cx: &Context, out: &mut Vec<Finding>) {
    use unicode_security::confusable_detection::skeleton;
    let mut by_skeleton: HashMap<String, (usize, &str)> = HashMap::new();
    for (i, tool) in cx.tools() {
        let name = tool.name();
        // Bounded: a name longer than any valid one is not compared (TG023 reports it).
        if name.len() > 256 {
            continue;
        }
        let key: String = skeleton(name).collect();
        match by_skeleton.get(&key) {
            Some(&(j, other)) if other != name && !(other.is_ascii() && name.is_ascii()) => {
                let (foreign, plain) = if name.is_ascii() {
                    (other, name)
                } else {
                    (name, other)
                };
                out.push(cx.finding(
                    &RULE,
                    Some(i),
                    "/name",
                    format!(
                        "`{}` looks the same as `{}` (position {}) but is a different name: {} is a look-alike letter",
                        super::common::shown_name(name),
                        super::common::shown_name(other),
                        j + 1,
                        first_foreign(foreign).unwrap_or_default()
                    ),
                    &format!(
                        "Remove the look-alike tool or spell its name in ASCII; a second `{}` that only looks the same is an impersonation.",
                        super::common::shown_name(plain)
                    ),
                ));
            }
            Some(_) => {}
            None => {
                by_skeleton.insert(key, (i, name));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    fn names(list: &[&str]) -> Vec<Finding> {
        lint_tools(
            &RULE,
            list.iter()
                .map(|n| json!({"name": n, "description": "A tool."}))
                .collect(),
        )
    }

    #[test]
    fn a_homoglyph_twin_is_found_and_plain_look_alikes_are_not() {
        // Cyrillic а (U+0430) and о (U+043E), Greek ο (U+03BF), fullwidth ｒ (U+FF52).
        for twin in [
            "re\u{0430}d_file",
            "read_fil\u{0435}",
            "read_f\u{0456}le",
            "\u{FF52}ead_file",
        ] {
            let out = names(&["read_file", twin]);
            assert_eq!(out.len(), 1, "{twin}: {out:?}");
            assert!(
                out[0].message.contains("looks the same as `read_file`"),
                "{}",
                out[0].message
            );
            assert!(out[0].message.contains("U+"), "{}", out[0].message);
        }
        // Plain ASCII names that a skeleton would merge (rn/m, l/1) are different names.
        assert!(names(&["burn_disk", "bum_disk", "get_v1", "get_vl"]).is_empty());
        // A non-ASCII name with no twin is TG023's, not a duplicate.
        assert!(names(&["read_file", "café_menu"]).is_empty());
        // The exact duplicate is still reported once.
        assert_eq!(names(&["search", "search"]).len(), 1);
    }
}

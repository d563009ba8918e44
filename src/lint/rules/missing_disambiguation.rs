//! ## What it checks
//! A tool has a look-alike sibling (see TG005 for what counts: template siblings that act on
//! different objects, or do different things to one object, do not) and its description
//! neither names that sibling nor gives any guidance on when to use it ("use this when…",
//! "instead of…", "not for…", "rather than…", "unlike…", "prefer…").
//!
//! The rule is informational advice: on 22 public servers nobody tuned it for, 17 of its 34
//! findings were right. Pairs that models will confuse are TG032's, which can gate.
//!
//! ## Why it matters
//! When two tools match a request equally well, the only thing that can tip a model's choice
//! is a sentence that says which one fits which situation. Without it, the model picks by
//! chance, and the user sees the wrong tool called (or the right one with the wrong
//! arguments) about half the time.
//!
//! ## Example
//! ```json
//! {"tools": [
//!   {"name": "list_directory", "description": "Get a detailed listing of all files and directories in a path."},
//!   {"name": "list_directory_with_sizes", "description": "Get a detailed listing of all files and directories in a path, including sizes."}]}
//! ```
//!
//! ## How to fix
//! Add one sentence to each look-alike that names the sibling and says when to prefer which:
//! `"Use this instead of list_directory when you need file sizes; it is slower on large
//! directories."`.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use crate::text::pattern::Regex;

use super::common::{shown_name, ticked};
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::text;

pub(crate) const RULE: Rule = Rule {
    code: "TG006",
    slug: "missing-disambiguation",
    severity: Severity::Info,
    summary: "A tool with a look-alike sibling does not say when to use it instead.",
    doc: rule_doc!("missing_disambiguation"),
    check,
    scope: Scope::Catalog,
};

/// Wording that tells a model when (not) to pick a tool.
static GUIDANCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(use\s+(this|it)(\s+tool|\s+function)?\s+(when|to|for|if|only|instead|after|before)\b|use\s+when\b|only\s+when\b|not\s+for\b|do\s+not\s+use\b|don['’]?t\s+use\b|never\s+use\b|instead\b|rather\s+than\b|unlike\b|prefer(red|ably|s)?\b|as\s+opposed\s+to\b|only\s+use\b|should\s+(only\s+)?be\s+used\b|for\s[^.;]{1,60}\buse\b|in\s+contrast\s+to\b)",
    )
    .unwrap()
});

/// Compiles this rule's pattern ahead of use ([`super::warm_up`]).
pub(super) fn warm() {
    LazyLock::force(&GUIDANCE);
}

/// True when the description says when (or when not) to use the tool.
pub(crate) fn has_guidance(desc: &str) -> bool {
    GUIDANCE.is_match(desc)
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let mut siblings: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for pair in cx.lookalikes() {
        siblings.entry(pair.a).or_default().push(pair.b);
        siblings.entry(pair.b).or_default().push(pair.a);
    }
    for (i, mut sibs) in siblings {
        let Some(tool) = cx.catalog.tools.get(i) else {
            continue;
        };
        let desc = tool.description().unwrap_or("");
        if has_guidance(desc) {
            continue;
        }
        sibs.sort_unstable();
        sibs.dedup();
        let names: Vec<&str> = sibs
            .iter()
            .filter_map(|&j| cx.catalog.tools.get(j).map(|t| t.name()))
            .collect();
        if names
            .iter()
            .any(|n| text::mentions(desc, n) || text::mentions_unprefixed(desc, n, tool.name()))
        {
            continue;
        }
        let names: Vec<String> = names.iter().map(|n| shown_name(n)).collect();
        out.push(cx.finding(
            &RULE,
            Some(i),
            "/description",
            format!(
                "`{}` is easily confused with {}, and its description neither names {} nor says when to use it instead",
                shown_name(tool.name()),
                ticked(&names),
                if names.len() == 1 { "it" } else { "them" }
            ),
            "Add a sentence naming the look-alike tool and saying when to use this one instead, e.g. \"Use this instead of X when …\".",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_on_the_sibling_without_guidance_only() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "read_file", "description": "Read the complete contents of a file as text"}),
                json!({"name": "read_text_file", "description": "Read the complete contents of a file from disk as text. Use this when the file is large."}),
            ],
        );
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].tool.as_deref(), Some("read_file"));
        assert!(out[0].message.contains("`read_text_file`"));
    }

    #[test]
    fn guidance_wording() {
        assert!(has_guidance(
            "Use this tool when you need to examine a file."
        ));
        assert!(has_guidance("DEPRECATED: Use read_text_file instead."));
        assert!(has_guidance("Not for binary files."));
        assert!(!has_guidance(
            "Get a detailed listing of all files and directories."
        ));
    }
}

//! ## What it checks
//! A tool has a description, but it is too short to say anything: fewer than
//! `min_description_words` words (5 by default) or under 20 characters.
//!
//! Informational by default: on the 35 catalogs of the lint precision corpus
//! (fixtures/lint-corpus) 13 of 21 short descriptions were judged adequate for a simple tool
//! ("Navigate to a URL", "Merge a pull request"), so word count alone does not earn a warning.
//! Raise it with `[lint.rules.TG003] level = "warning"`.
//!
//! ## Why it matters
//! A model chooses a tool by reading its description next to every other tool's. "Lookup."
//! or "Runs it" tells the model nothing the name did not: not what the tool acts on, what it
//! returns, or when to pick it over a sibling. The model then guesses from the name, skips the
//! tool when it is the right one, or calls it with arguments that do not fit.
//!
//! ## Example
//! ```json
//! {"name": "lookup", "description": "Lookup.", "inputSchema": {"type": "object"}}
//! ```
//!
//! ## How to fix
//! Write one or two full sentences: what the tool does, what it acts on, what it returns and
//! when to use it, e.g. `"Look up a customer by email or id and return their plan and open
//! tickets. Use before answering billing questions."`. The word threshold is
//! `[lint] min_description_words` in `toolgate.toml`.

use super::common::{plural, quote};
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::text;

pub(crate) const RULE: Rule = Rule {
    code: "TG003",
    slug: "short-description",
    severity: Severity::Info,
    summary: "A tool's description is too short to guide a model.",
    doc: rule_doc!("short_description"),
    check,
    scope: Scope::Catalog,
};

/// Descriptions shorter than this many characters say too little, whatever the word count.
const MIN_CHARS: usize = 20;

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let min_words = cx.settings.min_description_words;
    for (i, tool) in cx.tools() {
        // Missing or empty descriptions are TG002's business.
        let Some(desc) = tool.description().map(str::trim).filter(|d| !d.is_empty()) else {
            continue;
        };
        let n = text::word_count(desc);
        let chars = desc.chars().count();
        let why = if n < min_words {
            format!("{n} word{} (fewer than {min_words})", plural(n))
        } else if chars < MIN_CHARS {
            format!("{chars} characters (fewer than {MIN_CHARS})")
        } else {
            continue;
        };
        out.push(cx.finding(
            &RULE,
            Some(i),
            "/description",
            format!("`{}` has a description of only {why}: \"{}\"", tool.name(), quote(desc, 80)),
            "Say what the tool does, what it acts on and returns, and when to use it, in one or two sentences.",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_on_a_terse_description() {
        let out = lint_tools(
            &RULE,
            vec![json!({"name": "lookup", "description": "Lookup."})],
        );
        assert_eq!(out.len(), 1);
        assert!(out[0].message.contains("1 word"), "{}", out[0].message);
    }

    #[test]
    fn quiet_on_five_real_words_and_on_missing() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "read_graph", "description": "Read the entire knowledge graph"}),
                json!({"name": "nothing"}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

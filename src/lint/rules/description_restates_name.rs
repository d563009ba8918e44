//! ## What it checks
//! A tool's description only repeats its name: every content word of the description (stop
//! words and filler such as "tool", "function", "allows", "lets", "you", "user" left out) is
//! already a word of the name, e.g. `get_user`: "Gets the user."
//!
//! ## Why it matters
//! The description is where a model learns what the name cannot say: what exactly the tool
//! acts on, what it returns, its limits, and when to use it rather than a sibling. One that
//! restates the name passes a length check but gives the model nothing more to choose or to
//! fill arguments with, so the model is left guessing from the name alone.
//!
//! ## Example
//! ```json
//! {"name": "get_user", "description": "Gets the user."}
//! ```
//!
//! ## How to fix
//! Say what the name leaves out: `"Fetch a user's profile (name, email, role, last login) by
//! user id or email. Use list_users to search by name."`.

use super::common::quote;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::text;

pub(crate) const RULE: Rule = Rule {
    code: "TG024",
    slug: "description-restates-name",
    severity: Severity::Warning,
    summary: "A tool's description only repeats its name.",
    doc: rule_doc!("description_restates_name"),
    check,
    scope: Scope::Catalog,
};

/// Words that add nothing to a description on their own.
const FILLER: &[&str] = &[
    "tool", "function", "this", "allows", "allow", "lets", "let", "you", "user", "new", "existing",
    "specific", "given", "one", "some", "certain", "thing", "item",
];

/// Words (stemmed) found in at least 80% of the descriptions of a catalog of five or more
/// tools: the domain's own vocabulary ("calendar" in a calendar server) says nothing about
/// what sets one tool apart.
fn domain_words(cx: &Context) -> std::collections::HashSet<String> {
    let n = cx.catalog.tools.len();
    let mut df: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    if n < 5 {
        return Default::default();
    }
    for i in 0..n {
        let uniq: std::collections::HashSet<&String> = cx.content_words(i).iter().collect();
        for w in uniq {
            if let Some(c) = df.get_mut(w.as_str()) {
                *c += 1;
            } else {
                df.insert(w.clone(), 1);
            }
        }
    }
    df.into_iter()
        .filter(|(_, c)| c * 5 >= n * 4)
        .map(|(w, _)| w)
        .collect()
}

/// Same word up to a crude stem: equal, or one a short extension of the other
/// ("delet"/"delete", "creat"/"create").
fn same(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.len() >= 3 && long.starts_with(short) && long.len() - short.len() <= 2
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let domain = domain_words(cx);
    let filler: Vec<String> = FILLER.iter().map(|f| text::stem(f)).collect();
    for (i, tool) in cx.tools() {
        let Some(desc) = tool.description() else {
            continue;
        };
        let name: Vec<String> = text::name_words(tool.name())
            .iter()
            .map(|w| text::stem(w))
            .collect();
        // The description's content words, read only until one says more than the name.
        let mut words = text::words_iter(desc)
            .filter(|w| !text::is_stop(w))
            .map(|w| text::stem(&w))
            .filter(|w| !filler.contains(w) && !domain.contains(w))
            .peekable();
        if words.peek().is_none() {
            continue; // TG002 / TG003 cover empty and trivial descriptions.
        }
        if !words.all(|w| name.iter().any(|n| same(&w, n))) {
            continue;
        }
        out.push(cx.finding(
            &RULE,
            Some(i),
            "/description",
            format!(
                "`{}` has a description that only restates its name: \"{}\"",
                tool.name(),
                quote(desc, 80)
            ),
            "Say what the name leaves out: what the tool acts on, what it returns, and when to use it.",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_when_the_description_adds_nothing() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "get_user", "description": "Gets the user."}),
                json!({"name": "deleteEntity", "description": "This tool deletes an entity."}),
            ],
        );
        assert_eq!(out.len(), 2, "{out:?}");
    }

    #[test]
    fn quiet_when_the_description_says_more() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "echo", "description": "Echoes back the input string"}),
                json!({"name": "read_graph", "description": "Read the entire knowledge graph"}),
                json!({"name": "x", "description": "the"}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

//! Asking the fixer for rewrites: one prompt per chosen tool (its description, how it failed,
//! requests it missed), and the reply held to a description of at most [`MAX_WORDS`] words;
//! anything else is refused unmeasured, and shown.

use std::collections::BTreeMap;

use anyhow::bail;

use super::plan::Plan;
use super::types::{FIXER_SYSTEM, Failing, MAX_WORDS, Proposal, words};
use crate::catalog::Catalog;
use crate::improve::reply::{not_a_description, proposed};
use crate::models::llm::LlmModel;

/// A proposal for each chosen tool: unmeasured (with its reason) when its dev tasks cannot
/// show a change, the fixer failed or its reply is not a short description.
pub(super) async fn propose(
    fixer: &LlmModel,
    catalog: &Catalog,
    plan: &Plan,
    chosen: &[String],
    failures: &BTreeMap<String, Failing>,
) -> anyhow::Result<Vec<Proposal>> {
    let mut proposals = Vec::new();
    for tool in chosen {
        let Some(t) = catalog.tool(tool) else {
            bail!("--fix-tool {tool}: the server has no such tool")
        };
        let before = t.description().unwrap_or("").to_string();
        let failing = failures.get(tool).cloned().unwrap_or_default();
        let prompt = prompt(tool, &before, failing);
        let mut p = Proposal::new(tool, before);
        if let Some(note) = plan.too_small(tool) {
            p.reason = format!("not measured, nothing spent: {note}");
            proposals.push(p);
            continue;
        }
        match fixer.complete(FIXER_SYSTEM, &prompt, 0).await {
            Err(e) => p.reason = format!("the fixer failed: {e}"),
            Ok(text) => held_to_limits(&mut p, &text),
        }
        proposals.push(p);
    }
    Ok(proposals)
}

/// What the fixer is asked about `tool`.
fn prompt(tool: &str, before: &str, failing: Failing) -> String {
    let Failing {
        count: n,
        chosen: mut confused,
        examples,
    } = failing;
    confused.sort();
    confused.dedup();
    format!(
        "Tool `{tool}` has the description: \"{before}\".\nIn {n} test requests the assistant did not pick it{}. Requests it missed: {}.\nWrite a better description of at most {MAX_WORDS} words: what it does, when to use it, and which sibling to use instead when relevant.",
        if confused.is_empty() {
            String::new()
        } else {
            format!(" (it chose {} instead)", confused.join(", "))
        },
        examples
            .iter()
            .map(|e| format!("\"{e}\""))
            .collect::<Vec<_>>()
            .join("; ")
    )
}

/// Takes the fixer's reply as the proposal's rewrite, or refuses it unmeasured (not a
/// description, or over the word limit), keeping what was refused.
fn held_to_limits(p: &mut Proposal, text: &str) {
    p.after = proposed(text);
    let shown = || text.trim().chars().take(300).collect::<String>();
    if let Some(why) = not_a_description(&p.after) {
        p.reason = format!("rejected unmeasured: {why}");
        p.refused = Some(shown());
        p.after.clear();
    } else if words(&p.after) > MAX_WORDS {
        p.reason = format!(
            "rejected unmeasured: {} words, over the {MAX_WORDS}-word limit",
            words(&p.after)
        );
        p.refused = Some(shown());
    }
}

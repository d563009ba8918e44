//! ## What it checks
//! The whole tool list (every tool's name, description and input schema as a function-calling
//! API sends them, plus the server instructions) costs more than `max_catalog_tokens` tokens
//! (10,000 by default), counted with a real tokenizer. The message names the three most
//! expensive tools.
//!
//! ## Why it matters
//! Hosts send every tool definition with every request. A catalog of 30,000 tokens is paid for
//! on each turn of each conversation, whether the tools are used or not; it crowds the user's
//! actual task out of the context window, slows responses, and makes the model's tool choice
//! worse because the relevant definition is one of many long ones. Users combine several
//! servers, so each server's share matters.
//!
//! ## Example
//! A server of 60 tools whose descriptions each paste a page of API documentation: 35,000
//! tokens before the user has typed anything.
//!
//! ```json
//! {"tools": [{"name": "create_invoice", "description": "…2,000 words…"}, "…"]}
//! ```
//!
//! ## How to fix
//! Start with the most expensive tools: shorten descriptions to what the model needs to choose
//! and call the tool, replace large enums, flatten deeply nested schemas, and merge or drop
//! tools. Raise `[lint] max_catalog_tokens` if the size is deliberate.

use super::common::thousands;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::tokens::TOKENIZER;

pub(crate) const RULE: Rule = Rule {
    code: "TG022",
    slug: "catalog-token-budget",
    severity: Severity::Warning,
    summary: "The whole tool list costs more tokens than the budget.",
    doc: rule_doc!("catalog_token_budget"),
    check,
    scope: Scope::Catalog,
};

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let total = cx.total_tokens();
    let budget = cx.settings.max_catalog_tokens;
    if total <= budget {
        return;
    }
    let approx = if cx.tool_tokens.iter().all(|t| t.1) {
        ""
    } else {
        "≈"
    };
    let mut by_cost: Vec<(usize, usize)> = cx
        .tool_tokens
        .iter()
        .enumerate()
        .map(|(i, t)| (i, t.0))
        .collect();
    by_cost.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let top = by_cost
        .iter()
        .take(3)
        .filter_map(|&(i, n)| {
            cx.catalog
                .tools
                .get(i)
                .map(|t| format!("`{}` ({})", t.name(), thousands(n)))
        })
        .collect::<Vec<_>>()
        .join(", ");
    out.push(cx.finding(
        &RULE,
        None,
        "",
        format!(
            "The tool list costs {approx}{} tokens ({TOKENIZER}), over the budget of {}; most expensive: {top}",
            thousands(total),
            thousands(budget)
        ),
        "Shorten the most expensive tools' descriptions and schemas, or merge and drop tools.",
    ));
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_over_budget_and_names_the_biggest() {
        let long = "Describes the invoice workflow in exhaustive detail again. ".repeat(2000);
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "small", "description": "Echo the input."}),
                json!({"name": "huge", "description": long}),
            ],
        );
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].message.contains("`huge`"), "{}", out[0].message);
        assert_eq!(out[0].tool, None);
        assert!(
            lint_tools(
                &RULE,
                vec![json!({"name": "small", "description": "Echo."})]
            )
            .is_empty()
        );
    }
}

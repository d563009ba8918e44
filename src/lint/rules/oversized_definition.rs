//! ## What it checks
//! A single tool's definition, as a function-calling API sends it to the model (name,
//! description and input schema), costs more than `max_tool_tokens` tokens (1,000 by default),
//! counted with a real tokenizer.
//!
//! ## Why it matters
//! Every tool definition is sent with every request, whether the tool is used or not, and
//! pushes the conversation out of the model's context. One bloated tool crowds out the
//! others: long enums, pasted documentation and deeply nested schemas dilute the part of the
//! description that tells the model when to call the tool, and cost money on every turn.
//!
//! ## Example
//! ```json
//! {"name": "query", "description": "…four pages of API documentation…",
//!  "inputSchema": {"type": "object", "properties": {"country": {"enum": ["AD", "AE", "…250 codes…"]}}}}
//! ```
//!
//! ## How to fix
//! Keep the description to what the model needs to choose and call the tool; move reference
//! material to a resource or a `help` tool. Replace huge enums with a pattern or a lookup tool,
//! and split tools that do several jobs. Raise `[lint] max_tool_tokens` if the size is
//! deliberate.

use super::common::thousands;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::tokens::TOKENIZER;

pub(crate) const RULE: Rule = Rule {
    code: "TG012",
    slug: "oversized-definition",
    severity: Severity::Warning,
    summary: "A single tool definition costs too many tokens.",
    doc: rule_doc!("oversized_definition"),
    check,
    scope: Scope::Catalog,
};

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let max = cx.settings.max_tool_tokens;
    for (i, tool) in cx.tools() {
        let Some(&(tokens, exact)) = cx.tool_tokens.get(i) else {
            continue;
        };
        if tokens <= max {
            continue;
        }
        let approx = if exact { "" } else { "≈" };
        out.push(cx.finding(
            &RULE,
            Some(i),
            "",
            format!(
                "`{}` costs {approx}{} tokens ({TOKENIZER}), more than the {} allowed per tool",
                tool.name(),
                thousands(tokens),
                thousands(max)
            ),
            "Trim the description to what the model needs to choose and call the tool; move reference text elsewhere and shrink large enums or nested schemas.",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_on_a_huge_tool_only() {
        let long = "Explains the weather in great and repetitive detail. ".repeat(200);
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "big", "description": long, "inputSchema": {"type": "object"}}),
                json!({"name": "small", "description": "Echo the input.", "inputSchema": {"type": "object"}}),
            ],
        );
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].tool.as_deref(), Some("big"));
        assert!(out[0].message.contains("tokens"));
    }
}

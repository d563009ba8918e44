//! ## What it checks
//! A tool's name breaks the naming rules of MCP or of the function-calling APIs that hosts pass
//! it to. Errors: the name is empty, longer than 128 characters, or contains characters outside
//! `A-Z a-z 0-9 _ . -` (spaces, slashes, colons, non-ASCII). Warnings: it is longer than 64
//! characters or contains a dot; both are allowed by MCP but not by OpenAI and Anthropic, which
//! require `^[a-zA-Z0-9_-]{1,64}$`.
//!
//! ## Why it matters
//! The model calls a tool by name, and the host must pass that name through the model
//! provider's API unchanged. Names that API rejects make the host drop the tool, fail the whole
//! request, or rename it (truncating, replacing characters), after which the model sees a name
//! that does not match your description or documentation, and calls can be misrouted.
//!
//! ## Example
//! ```json
//! {"name": "files/read file", "description": "Read a file from the workspace."}
//! ```
//!
//! ## How to fix
//! Use 1–64 characters from `a-z`, `0-9`, `_` and `-`: `files_read_file`. Put namespaces in a
//! prefix with an underscore rather than a dot or slash.

use super::common::{quote, ticked};
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG023",
    slug: "invalid-tool-name",
    severity: Severity::Warning,
    summary: "A tool's name breaks MCP or model-provider naming rules.",
    doc: rule_doc!("invalid_tool_name"),
    check,
    scope: Scope::Catalog,
};

fn allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        let name = tool.name();
        let len = name.chars().count();
        let mut bad: Vec<String> = Vec::new();
        for c in name.chars().filter(|c| !allowed(*c)) {
            let shown = if c == ' ' {
                "space".to_string()
            } else if c.is_control() || !c.is_ascii() {
                format!("U+{:04X}", c as u32)
            } else {
                c.to_string()
            };
            if !bad.contains(&shown) {
                bad.push(shown);
            }
        }
        let (error, problem) = if name.is_empty() {
            (true, "is empty".to_string())
        } else if len > 128 {
            (
                true,
                format!("is {len} characters long; MCP allows at most 128"),
            )
        } else if !bad.is_empty() {
            (
                true,
                format!(
                    "contains characters outside A-Z a-z 0-9 _ . - ({})",
                    ticked(&bad)
                ),
            )
        } else if len > 64 {
            (
                false,
                format!(
                    "is {len} characters long; OpenAI and Anthropic allow at most 64, so hosts truncate or drop it"
                ),
            )
        } else if name.contains('.') {
            (false, "contains `.`, which OpenAI and Anthropic do not allow in function names, so hosts rename or drop it".to_string())
        } else {
            continue;
        };
        let mut f = cx.finding(
            &RULE,
            Some(i),
            "/name",
            format!("Tool name `{}` {problem}", quote(name, 80)),
            "Use 1-64 characters from a-z, A-Z, 0-9, `_` and `-` (matching ^[a-zA-Z0-9_-]{1,64}$).",
        );
        if error {
            f.severity = Severity::Error;
        }
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn errors_and_warnings() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "files/read file"}),
                json!({"name": "files.read"}),
                json!({"name": "x".repeat(70)}),
                json!({"name": ""}),
            ],
        );
        let sev: Vec<Severity> = out.iter().map(|f| f.severity).collect();
        assert_eq!(
            sev,
            [
                Severity::Error,
                Severity::Warning,
                Severity::Warning,
                Severity::Error
            ]
        );
        assert!(out[0].message.contains("`space`"), "{}", out[0].message);
    }

    #[test]
    fn quiet_on_good_names() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "get-annotated-message"}),
                json!({"name": "read_text_file"}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

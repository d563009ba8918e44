//! ## What it checks
//! Across a belt (every server of an MCP client config, linted together with `--mcp-config`):
//! two tools on *different* servers whose names and descriptions are so alike that a model
//! cannot tell which to call: `puppeteer/puppeteer_navigate` next to
//! `playwright/browser_navigate`, `sqlite/read_query` next to `postgres/query`. It is TG005's
//! comparison (the same similarity index, synonym folding and different-job exceptions) run
//! over every tool of the belt at once, keeping pairs whose tools sit on two servers and score
//! at least `lookalike_threshold` (TG005's same-role allowance below it is not used across
//! servers). A pair is not reported when each tool says which service it acts on: a word of
//! its server's name, or of the namespace its tool names share (`jira_…`), in its name or
//! description, that no tool of the other server uses ("in a GitHub repository" next to
//! `jira_create_issue`); when only one does, the finding is about the other. Tools with the same name
//! are TG001's business. When one description names the other tool, the finding is only
//! informational. A single server's lint never reports this rule.
//!
//! ## Why it matters
//! A host sends the model every tool of every server it loaded, and the model picks by
//! matching the request against the descriptions. Two servers that describe the same job in
//! the same words make each call a coin flip between them: the issue lands in the wrong
//! tracker, the query runs on the wrong database. Neither author sees it, since each server
//! alone is clean.
//!
//! ## Example
//! Two servers of one config:
//! ```json
//! {"name": "read_query", "description": "Execute a SELECT query on the database"}
//! {"name": "query", "description": "Run a read-only SQL query against the database"}
//! ```
//!
//! ## How to fix
//! You can only change your own server: make its description say what sets it apart, first
//! of all which service or system it acts on ("Run a read-only SQL query against the
//! connected PostgreSQL database") and when to use it. If the two tools really do the same
//! job, do not load both servers together.

use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG028",
    slug: "cross-server-look-alike",
    severity: Severity::Warning,
    summary: "Tools on two servers of a belt are described so alike that a model cannot tell them apart.",
    doc: rule_doc!("cross_server_look_alike"),
    check,
    scope: Scope::Belt,
};

/// A single catalog has no other server: the belt lint (`lint::belt`) checks this rule.
fn check(_cx: &Context, _out: &mut Vec<Finding>) {}

//! TG032's unit tests: each rung of the ladder, and what stays quiet.

use super::super::common::lint_tools;
use super::*;
use serde_json::{Value, json};

fn tool(name: &str, desc: &str, props: Value, required: &[&str]) -> Value {
    json!({"name": name, "description": desc,
           "inputSchema": {"type": "object", "properties": props, "required": required}})
}

#[test]
fn same_text_same_parameters_is_an_error_different_required_is_not_reported() {
    let q = json!({"query": {"type": "string"}});
    let out = lint_tools(
        &RULE,
        vec![
            tool(
                "search_issues",
                "Search issues in a repository.",
                q.clone(),
                &["query"],
            ),
            tool(
                "find_issues",
                "Search issues in a repository.",
                q.clone(),
                &["query"],
            ),
            tool(
                "get_user",
                "Fetch a record.",
                json!({"user_id": {"type": "string"}}),
                &["user_id"],
            ),
            tool(
                "get_team",
                "Fetch a record.",
                json!({"team_id": {"type": "string"}}),
                &["team_id"],
            ),
        ],
    );
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].severity, Severity::Error);
    assert_eq!(out[0].tool.as_deref(), Some("find_issues"));
    assert_eq!(out[0].pair.as_deref(), Some("search_issues"));
}

#[test]
fn other_optional_parameters_make_it_a_warning_and_types_count() {
    let out = lint_tools(
        &RULE,
        vec![
            tool(
                "a_list",
                "List the open tickets of a queue.",
                json!({"queue": {"type": "string"}}),
                &["queue"],
            ),
            tool(
                "b_list",
                "List the open tickets of a queue.",
                json!({"queue": {"type": "string"}, "limit": {"type": "integer"}}),
                &["queue"],
            ),
            tool(
                "c_list",
                "List the open tickets of a queue.",
                json!({"queue": {"type": "array", "items": {"type": "string"}}}),
                &["queue"],
            ),
        ],
    );
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].severity, JUDGEMENT);
    assert_eq!(out[0].tool.as_deref(), Some("b_list"));
}

#[test]
fn a_deprecated_tool_beside_its_replacement_is_an_error() {
    let p = json!({"path": {"type": "string"}});
    let out = lint_tools(
        &RULE,
        vec![
            tool(
                "read_file",
                "Read a file as text. DEPRECATED: Use read_text_file instead.",
                p.clone(),
                &["path"],
            ),
            tool("read_text_file", "Read a text file.", p.clone(), &["path"]),
            tool(
                "pick_list",
                "Legacy endpoint, superseded by pick_order.",
                json!({}),
                &[],
            ),
            tool("pick_order", "Pick an order.", json!({}), &[]),
            tool(
                "old_search",
                "[DEPRECATED] Please use `search_v2`.",
                json!({}),
                &[],
            ),
            tool("search_v2", "Search the index.", json!({}), &[]),
            // Guidance, not deprecation.
            tool(
                "read_media",
                "Read an image. For text use read_text_file instead.",
                p,
                &["path"],
            ),
            tool(
                "list_deprecated_skus",
                "List the deprecated SKUs; see pick_order.",
                json!({}),
                &[],
            ),
            // "Outdated" beside ordinary guidance is not a deprecation.
            tool(
                "check_outdated",
                "Check for outdated packages. Use update_packages to upgrade them.",
                json!({}),
                &[],
            ),
            tool("update_packages", "Upgrade packages.", json!({}), &[]),
        ],
    );
    let pairs: Vec<(&str, &str)> = out
        .iter()
        .map(|f| (f.tool.as_deref().unwrap(), f.pair.as_deref().unwrap()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("read_file", "read_text_file"),
            ("pick_list", "pick_order"),
            ("old_search", "search_v2")
        ],
        "{out:?}"
    );
    assert!(out.iter().all(|f| f.severity == Severity::Error));
}

#[test]
fn names_that_look_the_same_or_one_letter_apart() {
    let p = json!({"team": {"type": "string"}});
    let out = lint_tools(
        &RULE,
        vec![
            tool("export_ledger", "Export the ledger as CSV.", json!({}), &[]),
            tool(
                "export_Iedger",
                "Export ledger entries to a file.",
                json!({}),
                &[],
            ),
            tool(
                "export_team",
                "Export a team's members as CSV.",
                p.clone(),
                &["team"],
            ),
            tool(
                "export_teams",
                "Export the team members as a CSV file.",
                p,
                &["team"],
            ),
            tool(
                "get_user",
                "Get one user by id.",
                json!({"id": {"type": "string"}}),
                &["id"],
            ),
            tool(
                "get_users",
                "List the users of the workspace.",
                json!({}),
                &[],
            ),
        ],
    );
    let names: Vec<&str> = out.iter().map(|f| f.tool.as_deref().unwrap()).collect();
    assert_eq!(names, ["export_Iedger", "export_teams"], "{out:?}");
    assert_eq!(out[0].severity, Severity::Error);
    assert_eq!(out[1].severity, JUDGEMENT);
}

#[test]
fn a_slip_is_a_plural_or_a_letter_of_a_long_word_never_another_verb() {
    assert!(one_word_slip("export_team", "export_teams"));
    assert!(one_word_slip("sync_calender", "sync_calendar"));
    assert!(!one_word_slip(
        "get_page_restrictions",
        "set_page_restrictions"
    ));
    assert!(!one_word_slip("get_user_id", "get_users"));
}

#[test]
fn one_edit() {
    assert!(one_edit_apart("export_team", "export_teams"));
    assert!(one_edit_apart("get_usr", "get_user"));
    assert!(one_edit_apart("abc", "abd"));
    assert!(!one_edit_apart("abc", "abc"));
    assert!(!one_edit_apart("abc", "acb"));
    assert!(!one_edit_apart("get_user", "get_users_x"));
}

/// Issue 40: `export_team`/`export_teams` (one letter apart, descriptions one word apart, the
/// same required input) among 500 tools, and `export_Iedger` beside `export_ledger`.
#[test]
fn a_plural_slip_is_found_in_a_large_catalog_and_capital_i_for_l_is_an_error() {
    let id = json!({"team_id": {"type": "string", "description": "Team id."}});
    let mut tools: Vec<Value> = (0..496)
        .map(|k| {
            let noun = format!("resource{k:03}x{}", k * 7919 % 1000);
            tool(
                &format!("sync_{noun}"),
                &format!("Synchronises the {noun} records with the upstream system number {k}."),
                json!({"id": {"type": "string", "description": "Record id."}}),
                &["id"],
            )
        })
        .collect();
    tools.push(tool(
        "export_team",
        "Exports a team's members and roles as CSV.",
        id.clone(),
        &["team_id"],
    ));
    tools.push(tool(
        "export_teams",
        "Exports a team's members and permissions as CSV.",
        id,
        &["team_id"],
    ));
    let range = json!({"from": {"type": "string", "description": "Start."}, "to": {"type": "string", "description": "End."}});
    tools.push(tool(
        "export_ledger",
        "Exports the general ledger as CSV.",
        range.clone(),
        &["from", "to"],
    ));
    tools.push(tool(
        "export_Iedger",
        "Exports the ledger as a CSV file.",
        range,
        &["from", "to"],
    ));
    let out = lint_tools(&RULE, tools);
    let found: Vec<(&str, Severity)> = out
        .iter()
        .map(|f| (f.tool.as_deref().unwrap_or(""), f.severity))
        .collect();
    assert!(found.contains(&("export_teams", JUDGEMENT)), "{out:#?}");
    assert!(
        found.contains(&("export_Iedger", Severity::Error)),
        "{out:#?}"
    );
    assert_eq!(out.len(), 2, "no filler pair is reported: {out:#?}");
    // A plural that lists (no required input) is another job.
    let out = lint_tools(
        &RULE,
        vec![
            tool(
                "get_order",
                "Gets an order by id.",
                json!({"order_id": {"type": "string"}}),
                &["order_id"],
            ),
            tool(
                "get_orders",
                "Gets orders, newest first.",
                json!({"limit": {"type": "integer"}}),
                &[],
            ),
        ],
    );
    assert!(out.is_empty(), "{out:#?}");
}

/// Numbered tools one digit apart are a numbering, not a slip.
#[test]
fn numbered_names_are_not_slips() {
    assert!(!one_word_slip("get_policy_00014", "get_policy_00011"));
    assert!(!one_word_slip("report_v2", "report_v3"));
    assert!(one_word_slip("export_team", "export_teams"));
}

//! Issue 39 point 3: the keyless gate decides on definition evidence. A pull request that gives
//! two tools their siblings' descriptions and re-pins the lock fails the default workflow's
//! gate (`fail-on-new: warning`, the action's default), naming the findings it introduced;
//! an unchanged pull request passes.

use serde_json::Value;

use crate::goalposts::{base_repo, pr_ci_with};

/// Gives `to` the description of `from` in the repository's catalog.
fn copy_description(dir: &std::path::Path, from: &str, to: &str) {
    let p = dir.join("catalog.json");
    let mut cat: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    let tools = cat["tools"].as_array_mut().unwrap();
    let desc = tools.iter().find(|t| t["name"] == from).unwrap()["description"].clone();
    tools.iter_mut().find(|t| t["name"] == to).unwrap()["description"] = desc;
    std::fs::write(&p, serde_json::to_string_pretty(&cat).unwrap()).unwrap();
}

const DEFAULT_WORKFLOW: &[(&str, &str)] = &[("TOOLGATE_FAIL_ON_NEW", "warning")];

#[test]
fn copied_descriptions_fail_the_default_gate_and_an_unchanged_pull_request_passes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    std::fs::create_dir(&dir).unwrap();
    let base = base_repo(&dir);

    // Unchanged: nothing introduced, the gate passes.
    let (code, report, summary) = pr_ci_with(
        &dir,
        &base,
        &[],
        serde_json::json!({}),
        DEFAULT_WORKFLOW,
        &[],
    );
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(
        report["lint_delta"]["introduced"].as_array().unwrap().len(),
        0
    );
    assert!(
        summary.contains("No lint finding is introduced or resolved by this change"),
        "{summary}"
    );

    // Two tools given their siblings' descriptions, the lock re-pinned.
    copy_description(&dir, "delete_event", "cancel_event");
    copy_description(&dir, "reschedule_event", "update_event");
    crate::common::toolgate()
        .current_dir(&dir)
        .args(["pin"])
        .assert()
        .success();
    let (code, report, summary) = pr_ci_with(
        &dir,
        &base,
        &[],
        serde_json::json!({}),
        DEFAULT_WORKFLOW,
        &[],
    );
    assert_eq!(code, 1, "{report:#}");
    let failures = report["failures"].as_array().unwrap();
    let new = failures
        .iter()
        .find(|f| f["kind"] == "new_findings")
        .unwrap_or_else(|| panic!("no new_findings failure: {report:#}"));
    let shown = new["shown"].to_string();
    // The copied text is named as a pair (TG004: the same description; TG032 would say more
    // were the parameters the same too).
    assert!(
        shown.contains("`cancel_event` ↔ `delete_event`")
            || shown.contains("`delete_event` ↔ `cancel_event`"),
        "{shown}"
    );
    assert!(shown.contains("update_event"), "{shown}");
    assert!(
        new["against"]
            .as_str()
            .unwrap()
            .contains("base revision's lock"),
        "{new}"
    );
    // The lock was re-pinned: the lock check itself passes, the findings fail the gate.
    assert!(
        !failures.iter().any(|f| f["kind"] == "lock_changed"),
        "{report:#}"
    );
    assert!(summary.contains("Introduced by this change"), "{summary}");
    assert!(summary.contains("--fail-on-new"), "{summary}");

    // Issue 42 point 3: the ratchet switched off from the job's environment (as an earlier step
    // running the pull request's code could, through $GITHUB_ENV) is a looser value than the
    // base revision's: the base's applies, named with where the looser one came from.
    let (code, report, _) = pr_ci_with(
        &dir,
        &base,
        &[],
        serde_json::json!({}),
        &[("TOOLGATE_FAIL_ON_NEW", "never")],
        &[],
    );
    assert_eq!(code, 1, "{report:#}");
    assert!(
        report["failures"]
            .as_array()
            .is_some_and(|f| f.iter().any(|f| f["kind"] == "new_findings")),
        "{report:#}"
    );
    let changes = report["settings"]["changes"].as_array().unwrap();
    let named = changes
        .iter()
        .find(|c| c["setting"] == "ci.fail_on_new (from the variable TOOLGATE_FAIL_ON_NEW)")
        .unwrap_or_else(|| panic!("{changes:#?}"));
    assert_eq!(named["applied"], "base", "{named}");
}

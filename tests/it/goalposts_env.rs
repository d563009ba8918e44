//! Issue 42 point 3: only reviewed places set the gate. In a pull-request event, a worse server
//! tries to pass with looser gate settings from the job's environment (`TOOLGATE_*` variables,
//! which an earlier step running the pull request's code can write to `$GITHUB_ENV`), from
//! flags (a workflow edit), and by switching the GitHub integration off. None passes silently:
//! the base revision's values apply and each looser one is named with where it came from.

use serde_json::{Value, json};

use crate::goalposts::{pr_ci_with, repo, worsen};

fn named<'a>(report: &'a Value, setting: &str) -> &'a Value {
    report["settings"]["changes"]
        .as_array()
        .unwrap_or_else(|| panic!("no settings section: {report:#}"))
        .iter()
        .find(|c| c["setting"] == setting)
        .unwrap_or_else(|| panic!("{setting} not named: {:#}", report["settings"]))
}

#[test]
fn looser_variables_keep_the_base_values_and_are_named() {
    let r = repo();
    worsen(&r.dir);
    let env = [
        ("TOOLGATE_FAIL_UNDER", "0"),
        ("TOOLGATE_LOCK_CHECK", "off"),
        ("TOOLGATE_FAIL_ON_REGRESSION", "false"),
        ("TOOLGATE_LINT_FAIL_ON", "never"),
    ];
    let (code, report, summary) = pr_ci_with(&r.dir, &r.base, &[], json!({}), &env, &[]);
    assert_ne!(code, 0, "a worse server passed: {report:#}");
    for (var, key) in [
        ("TOOLGATE_FAIL_UNDER", "ci.fail_under"),
        ("TOOLGATE_LOCK_CHECK", "ci.lock_check"),
        ("TOOLGATE_FAIL_ON_REGRESSION", "ci.fail_on_regression"),
        ("TOOLGATE_LINT_FAIL_ON", "ci.lint_fail_on"),
    ] {
        let c = named(&report, &format!("{key} (from the variable {var})"));
        assert_eq!(c["applied"], "base", "{c}");
    }
    assert!(
        summary.contains("Gate settings changed"),
        "the summary names them: {summary}"
    );
    assert!(summary.contains("TOOLGATE_LOCK_CHECK"), "{summary}");
}

#[test]
fn looser_flags_keep_the_base_values_and_are_named() {
    let r = repo();
    worsen(&r.dir);
    let flags = [
        "--fail-under",
        "0",
        "--lock-check",
        "off",
        "--sandbox",
        "off",
    ];
    let (code, report, _) = pr_ci_with(&r.dir, &r.base, &[], json!({}), &[], &flags);
    assert_ne!(code, 0, "a worse server passed: {report:#}");
    assert_eq!(
        named(&report, "ci.lock_check (from the flag --lock-check)")["applied"],
        "base"
    );
    assert_eq!(
        named(&report, "connect.sandbox (from the flag --sandbox)")["applied"],
        "base"
    );
}

#[test]
fn no_github_does_not_switch_the_base_review_off_in_a_pull_request() {
    let r = repo();
    worsen(&r.dir);
    let env = [
        ("TOOLGATE_NO_GITHUB", "true"),
        ("TOOLGATE_LOCK_CHECK", "off"),
    ];
    let (code, report, _) = pr_ci_with(&r.dir, &r.base, &[], json!({}), &env, &[]);
    assert_ne!(code, 0, "a worse server passed: {report:#}");
    assert_eq!(
        named(
            &report,
            "ci.lock_check (from the variable TOOLGATE_LOCK_CHECK)"
        )["applied"],
        "base"
    );
    assert!(
        report["settings"]["notes"]
            .to_string()
            .contains("TOOLGATE_NO_GITHUB"),
        "{:#}",
        report["settings"]
    );
}

/// A stricter value from the environment applies (it cannot help a worse server).
#[test]
fn stricter_variables_apply() {
    let r = repo();
    let (_, report, _) = pr_ci_with(
        &r.dir,
        &r.base,
        &[],
        json!({}),
        &[("TOOLGATE_FAIL_UNDER", "0.99")],
        &[],
    );
    let c = named(
        &report,
        "ci.fail_under (from the variable TOOLGATE_FAIL_UNDER)",
    );
    assert_eq!(c["applied"], "head", "{c}");
}

/// Switches that decide which verdict a job gives are refused in a pull request when set (an
/// earlier step could write them to $GITHUB_ENV): the comment relay and resuming a run folder.
#[test]
fn comment_from_and_resume_are_refused_in_a_pull_request() {
    let r = repo();
    worsen(&r.dir);
    let planted = r.dir.join("../planted");
    std::fs::create_dir_all(&planted).unwrap();
    let p = planted.display().to_string();
    for (var, value, says) in [
        ("TOOLGATE_COMMENT_FROM", p.as_str(), "--comment-from"),
        ("TOOLGATE_RESUME", "true", "--resume"),
    ] {
        let (code, report, _) = pr_ci_with(&r.dir, &r.base, &[], json!({}), &[(var, value)], &[]);
        assert_eq!(code, 2, "{var}: {report:#}");
        assert!(report.to_string().contains(says), "{var}: {report:#}");
    }
}

/// The README's one-input workflow: no settings file, the server given as the action's input
/// (`TOOLGATE_SERVER`). In a pull request the job's server applies, since the base revision's
/// settings set none, and is named as the job's own; a looser switch beside it still does not.
#[test]
fn the_job_names_the_server_where_the_base_revision_sets_none() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    std::fs::create_dir(&dir).unwrap();
    crate::goalposts::git(&dir, &["init", "-q", "-b", "main"]);
    std::fs::copy(
        crate::common::fixture("example/after.json"),
        dir.join("catalog.json"),
    )
    .unwrap();
    crate::goalposts::git(&dir, &["add", "-A"]);
    crate::goalposts::git(&dir, &["commit", "-qm", "base"]);
    let base = crate::goalposts::git(&dir, &["rev-parse", "HEAD"]);
    std::fs::write(dir.join("README.md"), "change\n").unwrap();
    let env = [
        ("TOOLGATE_SERVER", "catalog.json"),
        ("TOOLGATE_LINT_FAIL_ON", "never"),
    ];
    let (code, report, _) = pr_ci_with(&dir, &base, &[], json!({}), &env, &[]);
    assert_eq!(report["status"], "ok", "{report:#}");
    assert_eq!(report["server"], "catalog.json", "{report:#}");
    let notes = report["settings"]["notes"].to_string();
    assert!(
        notes.contains("server (variable TOOLGATE_SERVER)"),
        "{notes}"
    );
    assert_eq!(
        named(
            &report,
            "ci.lint_fail_on (from the variable TOOLGATE_LINT_FAIL_ON)"
        )["applied"],
        "base"
    );
    assert!(code == 0 || code == 1, "{code}: {report:#}");
}

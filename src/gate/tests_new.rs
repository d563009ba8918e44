//! The gate on findings a change introduces (`--fail-on-new`), and failure kinds a newer
//! toolgate wrote.

use super::*;

#[test]
fn findings_a_change_introduces_fail_at_or_above_fail_on_new() {
    let finding = |code: &str, severity: crate::lint::Severity, tool: &str, pair: Option<&str>| {
        crate::record::lint::ReportFinding {
            code: code.into(),
            slug: "s".into(),
            severity,
            tool: Some(tool.into()),
            pointer: "/description".into(),
            message: "m".into(),
            help: "h".into(),
            docs_url: "u".into(),
            file: None,
            line: None,
            related: vec![],
            pair: pair.map(str::to_string),
            group: None,
        }
    };
    use crate::lint::Severity::*;
    let new = [
        finding("TG004", Warning, "b", Some("a")),
        finding("TG005", Info, "c", Some("d")),
    ];
    let decide_with = |fail_on_new: LintFailOn, new: &[crate::record::lint::ReportFinding]| {
        decide(
            &GateInput {
                lint_new: Some((new, "the base revision's lock")),
                ..Default::default()
            },
            &GatePolicy {
                fail_on_new,
                ..GatePolicy::default()
            },
        )
    };
    let d = decide_with(LintFailOn::Warning, &new);
    assert!(!d.passed());
    let w = d.wording().join(" ");
    assert!(
        w.contains("introduces 1 lint finding")
            && w.contains("TG004 `b` ↔ `a`")
            && w.contains("[--fail-on-new]"),
        "{w}"
    );
    assert_eq!(d.exit(), Exit::GateFailed);
    // Errors only: a new warning passes; never: nothing fails; no new finding: passes.
    assert!(decide_with(LintFailOn::Error, &new).passed());
    assert!(decide_with(LintFailOn::Never, &new).passed());
    assert!(decide_with(LintFailOn::Warning, &[]).passed());
}

#[test]
fn a_failure_of_a_newer_kind_reads_as_a_failure() {
    let r: GateReason =
        serde_json::from_str(r#"{"kind": "from_the_future", "count": 3, "shown": ["x"]}"#).unwrap();
    assert_eq!(r, GateReason::Unknown);
    assert_eq!(r.exit(), Exit::GateFailed);
    let known: GateReason = serde_json::from_str(
        r#"{"kind": "new_findings", "fail_on": "warning", "count": 1, "shown": ["TG032 `a` ↔ `b`"], "against": "x"}"#,
    )
    .unwrap();
    assert!(matches!(known, GateReason::NewFindings { count: 1, .. }));
}

/// An endpoint stopped while the description canary was sent, after every decision was made,
/// leaves a complete run whose descriptions are unproven: it does not pass.
#[test]
fn a_complete_run_whose_endpoint_stopped_at_the_canary_does_not_pass() {
    let mut run = super::tests::fixtures::run(RunStatus::Complete, 3, 3, 0);
    let model: crate::record::run::ModelInfo = serde_json::from_value(serde_json::json!({
        "spec": "openai-compat:m", "deterministic": false, "trials": 1,
        "stopped": "3 requests in a row got only server errors",
        "descriptions": {"outcome": "could_not_check", "reach": false,
                         "why": "the endpoint was stopped before the canary was sent"}
    }))
    .expect("a model record");
    run.models = vec![model];
    let mut d = GateDecision::default();
    run_reasons(&run, &GatePolicy::default(), &mut d);
    assert!(
        d.reasons
            .iter()
            .any(|r| matches!(r, GateReason::DescriptionsUnproven { .. })),
        "{:?}",
        d.reasons
    );
}

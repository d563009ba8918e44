//! The gate's decisions: partial runs, errors, regressions, lint and lock policies, shards, contracts.

use super::*;
use crate::record::gate::GateResult;

pub(super) mod fixtures;
use fixtures::{comparison, delta, run};

#[test]
fn a_partial_run_never_passes_even_without_a_threshold() {
    let r = run(RunStatus::Partial, 3, 3, 0);
    let d = decide(
        &GateInput {
            run: Some(&r),
            ..Default::default()
        },
        &GatePolicy::default(),
    );
    assert!(!d.passed());
    assert_eq!(d.exit(), Exit::CouldNotRun);
    assert!(d.wording()[0].contains("partial"), "{:?}", d.wording());
}

#[test]
fn errors_over_the_maximum_are_not_a_score() {
    let r = run(RunStatus::Complete, 0, 30, 30);
    let d = decide(
        &GateInput {
            run: Some(&r),
            ..Default::default()
        },
        &GatePolicy::default(),
    );
    assert_eq!(d.exit(), Exit::CouldNotRun);
    let w = d.wording().join("\n");
    assert!(
        w.contains("30 of 30") && w.contains("connection refused"),
        "{w}"
    );
    // 1 error in 30 (3.3%) is under the default 5%.
    let r = run(RunStatus::Complete, 29, 30, 1);
    let d = decide(
        &GateInput {
            run: Some(&r),
            ..Default::default()
        },
        &GatePolicy::default(),
    );
    assert!(d.passed(), "{:?}", d.wording());
}

#[test]
fn a_significant_regression_fails_and_names_the_rule() {
    let c = comparison(delta(68, 36, 130, 35, 3, Verdict::Worse), vec![]);
    let cs = [c];
    let input = GateInput {
        comparisons: &cs,
        ..Default::default()
    };
    let d = decide(&input, &GatePolicy::default());
    assert_eq!(d.exit(), Exit::GateFailed);
    assert!(d.wording()[0].contains("--fail-on-regression"));
    let off = GatePolicy {
        fail_on_regression: false,
        ..GatePolicy::default()
    };
    let d = decide(&input, &off);
    assert!(d.passed());
    assert_eq!(d.notices.len(), 1, "a regression is still reported");
}

#[test]
fn a_drop_over_max_fails_even_when_not_significant() {
    let c = comparison(
        delta(20, 17, 30, 4, 1, Verdict::NoSignificantChange),
        vec![],
    );
    let cs = [c];
    let input = GateInput {
        comparisons: &cs,
        ..Default::default()
    };
    assert!(decide(&input, &GatePolicy::default()).passed());
    let p = GatePolicy {
        max_drop: Some(0.05),
        ..GatePolicy::default()
    };
    let d = decide(&input, &p);
    assert!(matches!(d.reasons[0], GateReason::DropOverMax { .. }));
}

#[test]
fn per_tool_regressions_are_reported_and_can_be_fatal() {
    let mut t = delta(10, 0, 10, 10, 0, Verdict::Worse);
    t.label = "send_email".into();
    let c = comparison(
        delta(50, 50, 100, 10, 10, Verdict::NoSignificantChange),
        vec![t],
    );
    let cs = [c];
    let input = GateInput {
        comparisons: &cs,
        ..Default::default()
    };
    let d = decide(&input, &GatePolicy::default());
    assert!(d.passed());
    assert!(d.notices[0].to_string().contains("send_email"));
    let p = GatePolicy {
        fail_on_tool_regression: true,
        ..GatePolicy::default()
    };
    assert!(!decide(&input, &p).passed());
}

#[test]
fn lint_and_lock_follow_their_policies() {
    let s = LintSummary {
        errors: 0,
        warnings: 2,
        infos: 0,
        accepted: 0,
    };
    let lock = LockStatus {
        path: "toolgate.lock".into(),
        status: LockState::Changed,
        policy: LockCheck::Fail,
        diff: None,
    };
    let input = GateInput {
        lint: Some(&s),
        lock: Some(&lock),
        ..Default::default()
    };
    let d = decide(&input, &GatePolicy::default());
    assert_eq!(d.reasons.len(), 1, "warnings pass under `error`");
    assert!(matches!(d.reasons[0], GateReason::LockChanged { .. }));
    let p = GatePolicy {
        lint_fail_on: LintFailOn::Warning,
        lock_check: LockCheck::Warn,
        ..GatePolicy::default()
    };
    let d = decide(&input, &p);
    assert!(matches!(d.reasons[0], GateReason::Lint { .. }));
    assert_eq!(d.notices.len(), 1);
}

#[test]
fn typed_reasons_round_trip_through_json() {
    let r = GateReason::Regression {
        model: "m".into(),
        base: 0.5,
        head: 0.3,
        p_adjusted: 0.001,
        alpha: 0.05,
        lost: 10,
        gained: 1,
    };
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["kind"], "regression");
    let back: GateReason = serde_json::from_value(v).unwrap();
    assert_eq!(back, r);
}

#[test]
fn recall_floor_gates_ranking_models_and_needs_one() {
    let policy = GatePolicy {
        fail_under_recall: Some("5:0.9".parse().unwrap()),
        ..GatePolicy::default()
    };
    let input = |r: &RunFile| {
        decide(
            &GateInput {
                lint: None,
                lock: None,
                run: Some(r),
                comparisons: &[],
                contract: None,
                lint_new: None,
            },
            &policy,
        )
    };
    // No model ranks tools: recall was not measured, which is never a pass.
    let mut r = run(RunStatus::Complete, 9, 10, 0);
    let d = input(&r);
    assert_eq!(d.exit(), Exit::CouldNotRun);
    assert!(matches!(
        d.reasons[0],
        GateReason::RecallUnmeasured { k: 5 }
    ));
    // recall@5 = 4/8 < 0.9 fails; 8/8 passes.
    let lists: Vec<(String, Vec<String>)> = (0..8)
        .map(|i| {
            let expected = format!("t{i}");
            let ranking = if i < 4 {
                vec![expected.clone()]
            } else {
                (0..6).map(|j| format!("x{j}")).collect()
            };
            (expected, ranking)
        })
        .collect();
    r.results[0].metrics.retrieval = Some(crate::score::retrieval::score(
        lists.iter().map(|(e, l)| (e.as_str(), l.as_slice())),
    ));
    let d = input(&r);
    assert_eq!(d.exit(), Exit::GateFailed);
    assert!(
        d.wording()[0].contains("recall@5 50.0% is under --fail-under-recall 5:90.0%"),
        "{:?}",
        d.wording()
    );
    let all: Vec<(String, Vec<String>)> = (0..8)
        .map(|i| (format!("t{i}"), vec![format!("t{i}")]))
        .collect();
    r.results[0].metrics.retrieval = Some(crate::score::retrieval::score(
        all.iter().map(|(e, l)| (e.as_str(), l.as_slice())),
    ));
    assert_eq!(input(&r).exit(), Exit::Pass);
    for bad in ["4:0.9", "5", "5:1.5", "x:0.5"] {
        assert!(bad.parse::<RecallFloor>().is_err(), "{bad}");
    }
}

#[test]
fn a_shard_passes_only_when_complete_whatever_its_numbers() {
    assert_eq!(
        shard(&run(RunStatus::Complete, 0, 10, 0)).exit(),
        Exit::Pass
    );
    for s in [RunStatus::Partial, RunStatus::Errored, RunStatus::Running] {
        assert_eq!(shard(&run(s, 10, 10, 0)).exit(), Exit::CouldNotRun, "{s}");
    }
}

#[test]
fn validation_fails_on_any_task_error() {
    assert_eq!(validation(0).exit(), Exit::Pass);
    let d = validation(3);
    assert_eq!(d.exit(), Exit::GateFailed);
    assert_eq!(d.wording(), ["3 task error(s) found by validate"]);
}

#[test]
fn rejudging_keeps_a_recorded_failure_unless_new_thresholds_are_given() {
    let policy = GatePolicy::default();
    let fresh = |r: &RunFile| {
        decide(
            &GateInput {
                run: Some(r),
                ..Default::default()
            },
            &policy,
        )
    };
    // A typed recorded failure stands without new thresholds, and is recorded again.
    let mut r = run(RunStatus::Complete, 5, 10, 0);
    let failed = GateDecision {
        reasons: vec![GateReason::UnderThreshold {
            model: "bm25".into(),
            accuracy: 0.5,
            n: 10,
            min: 0.9,
        }],
        notices: vec![],
    };
    r.gate = Some((&failed).into());
    let j = rejudge(&r, fresh(&r), false);
    assert_eq!(j.exit.exit(), Exit::GateFailed);
    assert!(j.record);
    // With thresholds the fresh decision wins.
    let j = rejudge(&r, fresh(&r), true);
    assert_eq!(j.exit.exit(), Exit::Pass);
    // An older toolgate's failure, wording only, still fails and keeps its record.
    r.gate = Some(GateResult {
        passed: false,
        reasons: vec!["old reason".into()],
        failures: vec![],
    });
    let j = rejudge(&r, fresh(&r), false);
    assert!(!j.record);
    assert!(j.decision.passed());
    assert_eq!(j.exit.exit(), Exit::GateFailed);
    assert_eq!(j.exit.wording(), ["old reason"]);
    // Nothing recorded: the fresh decision is recorded.
    r.gate = None;
    let j = rejudge(&r, fresh(&r), false);
    assert!(j.record && j.exit.passed());
}

#[test]
fn failed_contract_calls_fail_the_gate_naming_the_tools_and_warnings_do_not() {
    let failing = crate::record::contract::ContractSummary {
        calls: 6,
        passed: 3,
        warned: 1,
        failed: 2,
        tools_skipped: 1,
        failing_tools: vec!["lax_echo".into()],
    };
    let d = decide(
        &GateInput {
            contract: Some(&failing),
            ..Default::default()
        },
        &GatePolicy::default(),
    );
    assert_eq!(d.exit(), Exit::GateFailed);
    assert!(
        d.wording()[0].contains("2 of 6 contract call(s) failed (`lax_echo`)"),
        "{:?}",
        d.wording()
    );
    let warned = crate::record::contract::ContractSummary {
        failed: 0,
        failing_tools: vec![],
        ..failing
    };
    let d = decide(
        &GateInput {
            contract: Some(&warned),
            ..Default::default()
        },
        &GatePolicy::default(),
    );
    assert!(d.passed());
}

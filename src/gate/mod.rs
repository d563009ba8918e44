//! The gate: ONE stage takes the lint summary, the lock state, the run and the comparison with
//! a base, applies a [`GatePolicy`] and returns a [`GateDecision`] whose reasons are typed
//! ([`GateReason`]) and carry their own wording. `run`, `lint`, `pin --check`, `compare` and
//! `ci` all decide through [`decide`]; renderers only show the decision.

use std::path::PathBuf;

pub(crate) use crate::record::gate::{
    Exit, GateDecision, GateReason, LintFailOn, LockCheck, LockState, LockStatus, RecallFloor,
};

use crate::catalog::lock::LockDiff;
use crate::models::ProbeOutcome;
use crate::record::LintSummary;
use crate::record::{RunFile, RunStatus};
use crate::score::compare::{ModelComparison, Verdict};

/// Everything that decides a verdict. `Default` is what `toolgate ci` does without settings.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GatePolicy {
    /// Fail when a model's overall score (tool accuracy, or findability@1 for a router) is
    /// below this.
    pub fail_under: Option<f64>,
    /// Fail when any tool's accuracy is below this.
    pub min_tool_accuracy: Option<f64>,
    /// Fail when a ranking model's recall@k is below this (`--fail-under-recall K:RATE`).
    pub fail_under_recall: Option<RecallFloor>,
    pub lint_fail_on: LintFailOn,
    /// Findings at or above this that a change introduces (against the base) fail the gate.
    pub fail_on_new: LintFailOn,
    pub lock_check: LockCheck,
    /// A run with a larger share of errored decisions measures nothing: exit 2.
    pub max_error_rate: f64,
    /// Fail when the overall paired test against the base says `Verdict::Worse`.
    pub fail_on_regression: bool,
    /// Fail when the overall score drops by more than this (rate units), significant or not.
    pub max_drop: Option<f64>,
    /// Per-tool significant regressions fail too (otherwise they are reported).
    pub fail_on_tool_regression: bool,
    /// Where the lock lives (for the wording).
    pub lock_path: PathBuf,
    /// Significance level of every paired test the run makes (base comparison, belt alone,
    /// distractor curve, `--mutate`/`--fix`).
    pub alpha: f64,
}

impl Default for GatePolicy {
    fn default() -> Self {
        GatePolicy {
            fail_under: None,
            min_tool_accuracy: None,
            fail_under_recall: None,
            lint_fail_on: LintFailOn::Error,
            fail_on_new: LintFailOn::Never,
            lock_check: LockCheck::Fail,
            max_error_rate: 0.05,
            fail_on_regression: true,
            max_drop: None,
            fail_on_tool_regression: false,
            lock_path: PathBuf::from(crate::config::DEFAULT_LOCK),
            alpha: crate::score::stats::DEFAULT_ALPHA,
        }
    }
}

/// What the gate looks at; every part is optional (a command gates on what it has).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GateInput<'a> {
    pub lint: Option<&'a LintSummary>,
    pub lock: Option<&'a LockStatus>,
    pub run: Option<&'a RunFile>,
    /// Comparable model comparisons against the base.
    pub comparisons: &'a [ModelComparison],
    /// The contract tests' counts (`--contract`), when they ran.
    pub contract: Option<&'a crate::record::contract::ContractSummary>,
    /// Lint findings this change introduces, and what they were compared with.
    pub lint_new: Option<(&'a [crate::record::lint::ReportFinding], &'a str)>,
}

/// The verdict on a belt lock that no longer matches its servers (`pin --check` of a belt):
/// a changed lock under the default policy, so exit 1.
pub(crate) fn changed_belt(path: &std::path::Path, diff: LockDiff) -> GateDecision {
    let status = LockStatus {
        path: path.display().to_string(),
        status: LockState::Changed,
        policy: LockCheck::Fail,
        diff: Some(diff),
    };
    decide(
        &GateInput {
            lock: Some(&status),
            ..Default::default()
        },
        &GatePolicy::default(),
    )
}

/// The verdict on one shard of a sharded run: a shard is not gated on its numbers (the merge
/// is), only on being a complete, valid measurement of its slice.
pub(crate) fn shard(run: &RunFile) -> GateDecision {
    let mut d = GateDecision::default();
    if run.status != RunStatus::Complete {
        d.reasons.push(GateReason::Incomplete {
            status: run.status,
            cause: None,
        });
    }
    d
}

/// The verdict of `validate`: a suite with task errors fails.
pub(crate) fn validation(errors: usize) -> GateDecision {
    let mut d = GateDecision::default();
    if errors > 0 {
        d.reasons.push(GateReason::InvalidTasks { errors });
    }
    d
}

/// The verdict of `report DIR` on a finished run: `fresh` is the policy applied now. Without
/// new thresholds the recorded decision stands unless the fresh one is stricter; a recorded
/// failure from an older toolgate, which has only its wording, still fails.
pub(crate) fn rejudge(run: &RunFile, fresh: GateDecision, thresholds: bool) -> Rejudged {
    let decision = match &run.gate {
        Some(g) if !thresholds && !g.passed && fresh.passed() => GateDecision {
            reasons: g.failures.clone(),
            notices: vec![],
        },
        _ => fresh,
    };
    let record = thresholds || run.gate.is_none() || !decision.passed();
    let mut exit_decision = decision.clone();
    if !record
        && let Some(g) = &run.gate
        && !g.passed
        && exit_decision.passed()
    {
        exit_decision.reasons.push(GateReason::Recorded {
            reasons: g.reasons.clone(),
        });
    }
    Rejudged {
        decision,
        record,
        exit: exit_decision,
    }
}

/// What [`rejudge`] decided: the run's decision (and whether the run's `gate` is to be set to it
/// for the re-rendered reports), and the decision the exit comes from.
pub(crate) struct Rejudged {
    pub decision: GateDecision,
    pub record: bool,
    pub exit: GateDecision,
}

/// Applies `policy` to `input`.
pub(crate) fn decide(input: &GateInput, policy: &GatePolicy) -> GateDecision {
    let mut d = GateDecision::default();
    if let Some(run) = input.run {
        run_reasons(run, policy, &mut d);
    }
    if let Some(s) = input.lint {
        let fails = match policy.lint_fail_on {
            LintFailOn::Never => false,
            LintFailOn::Error => s.errors > 0,
            LintFailOn::Warning => s.errors + s.warnings > 0,
        };
        if fails {
            d.reasons.push(GateReason::Lint {
                fail_on: policy.lint_fail_on,
                errors: s.errors,
                warnings: s.warnings,
            });
        }
    }
    if let Some((new, against)) = input.lint_new {
        let floor = match policy.fail_on_new {
            LintFailOn::Never => None,
            LintFailOn::Error => Some(crate::lint::Severity::Error),
            LintFailOn::Warning => Some(crate::lint::Severity::Warning),
        };
        if let Some(floor) = floor {
            let over: Vec<_> = new.iter().filter(|f| f.severity >= floor).collect();
            if !over.is_empty() {
                d.reasons.push(GateReason::NewFindings {
                    fail_on: policy.fail_on_new,
                    count: over.len(),
                    shown: over.iter().take(5).map(|f| finding_label(f)).collect(),
                    against: against.to_string(),
                });
            }
        }
    }
    if let Some(l) = input.lock
        && l.status == LockState::Changed
    {
        let r = GateReason::LockChanged {
            path: l.path.clone(),
            tools: l.tools_changed(),
        };
        match policy.lock_check {
            LockCheck::Fail => d.reasons.push(r),
            _ => d.notices.push(r),
        }
    }
    for c in input.comparisons {
        regression_reasons(c, policy, &mut d);
    }
    if let Some(c) = input.contract
        && c.failed > 0
    {
        d.reasons.push(GateReason::Contract {
            failed: c.failed,
            calls: c.calls,
            tools: c.failing_tools.clone(),
        });
    }
    d
}

/// `CODE tool` or `CODE tool ↔ other`, names shown as code and cut short (they come from the
/// server).
pub(crate) fn finding_label(f: &crate::record::lint::ReportFinding) -> String {
    let name = |n: &str| format!("`{}`", crate::text::clip(n, 60).replace('`', "'"));
    match (&f.tool, &f.pair) {
        (Some(t), Some(p)) => format!("{} {} ↔ {}", f.code, name(t), name(p)),
        (Some(t), None) => format!("{} {}", f.code, name(t)),
        _ => format!("{} (catalog)", f.code),
    }
}

fn run_reasons(run: &RunFile, policy: &GatePolicy, d: &mut GateDecision) {
    if run.status != RunStatus::Complete {
        let causes: Vec<String> = run
            .models
            .iter()
            .filter_map(|m| m.stopped.as_ref().map(|s| format!("{}: {s}", m.spec)))
            .collect();
        d.reasons.push(GateReason::Incomplete {
            status: run.status,
            cause: (!causes.is_empty()).then(|| causes.join("; ")),
        });
    }
    for m in run.models.iter().filter(|m| !m.deterministic) {
        // A stopped endpoint blocks an incomplete run above; one stopped at the canary, after
        // the last decision, left a complete run: its unproven descriptions block it here.
        if m.stopped.is_some() && run.status != RunStatus::Complete {
            continue;
        }
        let (outcome, why) = match &m.descriptions {
            Some(p) if p.outcome == ProbeOutcome::Passed => continue,
            Some(p) => (p.outcome, p.why.clone()),
            None => (
                ProbeOutcome::CouldNotCheck,
                Some("the run holds no probe result".into()),
            ),
        };
        // Runtime advice where the canary was answered (blind, or not clearly reading);
        // not where no request got through, which no template can fix.
        let answered = m
            .descriptions
            .as_ref()
            .is_some_and(|p| p.picked.iter().any(|x| x != "(error)"));
        let r = GateReason::DescriptionsUnproven {
            model: m.spec.clone(),
            outcome,
            why,
            advice: answered.then(|| crate::models::llm::advice(&m.spec).into()),
        };
        // A model shown blind never passes, and neither does one never shown to see.
        d.reasons.push(r);
    }
    let threshold = [
        (policy.fail_under.is_some(), "--fail-under"),
        (policy.fail_under_recall.is_some(), "--fail-under-recall"),
        (policy.min_tool_accuracy.is_some(), "--min-tool-accuracy"),
    ]
    .into_iter()
    .find_map(|(set, rule)| set.then_some(rule));
    if let Some(rule) = threshold
        && !run.suite.reviewed()
    {
        d.reasons.push(GateReason::UnreviewedSuite {
            pending: run.suite.pending,
            stale: run.suite.stale,
            tasks: run.suite.tasks,
            rule: rule.into(),
        });
    }
    if let Some(floor) = policy.fail_under_recall
        && run.status == RunStatus::Complete
        && !run.results.iter().any(|r| r.metrics.retrieval.is_some())
    {
        d.reasons.push(GateReason::RecallUnmeasured { k: floor.k });
    }
    for r in &run.results {
        let m = &r.metrics;
        if m.n > 0 && m.error_rate.value > policy.max_error_rate {
            d.reasons.push(GateReason::Errored {
                model: r.model.clone(),
                errors: m.errors,
                n: m.n,
                max_rate: policy.max_error_rate,
                first_error: m.first_error.clone(),
            });
        }
        if let Some(min) = policy.fail_under
            && m.accuracy.value < min
        {
            d.reasons.push(GateReason::UnderThreshold {
                model: r.model.clone(),
                accuracy: m.accuracy.value,
                n: m.accuracy.n,
                min,
            });
        }
        if let Some(floor) = policy.fail_under_recall
            && let Some(rate) = m
                .retrieval
                .as_ref()
                .and_then(|r| r.overall.recall.get(&floor.k))
            && rate.value < floor.min
        {
            d.reasons.push(GateReason::RecallUnder {
                model: r.model.clone(),
                k: floor.k,
                recall: rate.value,
                n: rate.n,
                min: floor.min,
            });
        }
        if let Some(min) = policy.min_tool_accuracy {
            for t in m
                .per_tool
                .iter()
                .filter(|t| t.support > 0 && t.accuracy.value < min)
            {
                d.reasons.push(GateReason::ToolUnderThreshold {
                    model: r.model.clone(),
                    tool: t.tool.clone(),
                    accuracy: t.accuracy.value,
                    n: t.support,
                    min,
                });
            }
        }
    }
}

fn regression_reasons(c: &ModelComparison, policy: &GatePolicy, d: &mut GateDecision) {
    if c.shared == 0 {
        return;
    }
    let o = &c.overall;
    if o.verdict == Verdict::Worse {
        let r = GateReason::Regression {
            model: c.head_model.clone(),
            base: o.base.value,
            head: o.head.value,
            p_adjusted: o.p_adjusted,
            alpha: c.alpha,
            lost: o.only_base,
            gained: o.only_head,
        };
        if policy.fail_on_regression {
            d.reasons.push(r);
        } else {
            d.notices.push(r);
        }
    }
    if let Some(max) = policy.max_drop
        && -o.delta > max
    {
        d.reasons.push(GateReason::DropOverMax {
            model: c.head_model.clone(),
            drop: -o.delta,
            max,
        });
    }
    for t in c.per_tool.iter().filter(|t| t.verdict == Verdict::Worse) {
        let r = GateReason::ToolRegression {
            model: c.head_model.clone(),
            tool: t.label.clone(),
            base: t.base.value,
            head: t.head.value,
            p_adjusted: t.p_adjusted,
        };
        if policy.fail_on_tool_regression {
            d.reasons.push(r);
        } else {
            d.notices.push(r);
        }
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_new;

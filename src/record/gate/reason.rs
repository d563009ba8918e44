//! Why a gate failed (or what it noticed), as data. The wording lives with the kind, so every
//! report says the same thing, and ci.json carries the data under `failures`.

use serde::{Deserialize, Serialize};

use super::{Exit, LintFailOn};
use crate::record::run::RunStatus;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GateReason {
    /// A model's overall tool accuracy is under `--fail-under`.
    UnderThreshold {
        model: String,
        accuracy: f64,
        n: u64,
        min: f64,
    },
    /// A tool's accuracy is under `--min-tool-accuracy`.
    ToolUnderThreshold {
        model: String,
        tool: String,
        accuracy: f64,
        n: u64,
        min: f64,
    },
    /// A ranking model's recall@k is under `--fail-under-recall`.
    RecallUnder {
        model: String,
        k: usize,
        recall: f64,
        n: u64,
        min: f64,
    },
    /// `--fail-under-recall` was asked for, but no model of the run ranks tools.
    RecallUnmeasured { k: usize },
    /// A threshold was set, but tasks of the suite were never reviewed (generated on the fly or
    /// not yet approved): a smoke suite's score cannot decide a threshold gate.
    UnreviewedSuite {
        pending: usize,
        /// Of `pending`, approved tasks edited since their approval.
        #[serde(default)]
        stale: usize,
        tasks: usize,
        rule: String,
    },
    /// The run did not finish (a budget ran out, it was interrupted, or the endpoint was
    /// stopped); `cause` says why when known.
    Incomplete {
        status: RunStatus,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cause: Option<String>,
    },
    /// An LLM of the run was not shown to read tool descriptions: the description probe
    /// failed (they provably never reach it) or could not check. Its scores cannot pass.
    DescriptionsUnproven {
        model: String,
        outcome: crate::record::probe::ProbeOutcome,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        why: Option<String>,
        /// What serves descriptions on the model's runtime.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        advice: Option<String>,
    },
    /// Too many decisions failed (transport, provider or output errors).
    Errored {
        model: String,
        errors: u64,
        n: u64,
        max_rate: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_error: Option<String>,
    },
    /// Lint findings at or above the threshold.
    Lint {
        fail_on: LintFailOn,
        errors: usize,
        warnings: usize,
    },
    /// Lint findings at or above `--fail-on-new` that this change introduces (matched against
    /// the base by rule, tools and pointer).
    NewFindings {
        fail_on: LintFailOn,
        count: usize,
        /// The first few, as `CODE tool` (or `CODE tool ↔ other` for a pair).
        shown: Vec<String>,
        /// What the findings were compared with (the base revision's lock, a baseline).
        against: String,
    },
    /// The server's definitions differ from the reviewed lock.
    LockChanged { path: String, tools: usize },
    /// The paired test against the base says `Verdict::Worse`.
    Regression {
        model: String,
        base: f64,
        head: f64,
        p_adjusted: f64,
        alpha: f64,
        lost: u64,
        gained: u64,
    },
    /// The overall score dropped by more than `--max-drop`.
    DropOverMax { model: String, drop: f64, max: f64 },
    /// One tool's paired test against the base says `Verdict::Worse`.
    ToolRegression {
        model: String,
        tool: String,
        base: f64,
        head: f64,
        p_adjusted: f64,
    },
    /// `validate` found task errors.
    InvalidTasks { errors: usize },
    /// Contract calls failed (`--contract`).
    Contract {
        failed: usize,
        calls: usize,
        tools: Vec<String>,
    },
    /// A failure recorded by an older toolgate, which kept only its wording.
    Recorded { reasons: Vec<String> },
    /// A kind of failure a newer toolgate wrote (its wording is in the report's `reasons`):
    /// read as a failure, never dropped.
    #[serde(other)]
    Unknown,
}

impl GateReason {
    /// Exit 2 for a measurement that cannot be valid, 1 for a failed gate.
    pub fn exit(&self) -> Exit {
        match self {
            GateReason::Incomplete { .. }
            | GateReason::DescriptionsUnproven { .. }
            | GateReason::Errored { .. }
            | GateReason::RecallUnmeasured { .. }
            | GateReason::UnreviewedSuite { .. } => Exit::CouldNotRun,
            _ => Exit::GateFailed,
        }
    }

    /// The policy rule (flag) that this reason comes from.
    pub fn rule(&self) -> &'static str {
        match self {
            GateReason::UnderThreshold { .. } => "--fail-under",
            GateReason::ToolUnderThreshold { .. } => "--min-tool-accuracy",
            GateReason::RecallUnder { .. } | GateReason::RecallUnmeasured { .. } => {
                "--fail-under-recall"
            }
            GateReason::Incomplete { .. } => "a partial run never passes",
            GateReason::DescriptionsUnproven { .. } => {
                "a model must be shown to read tool descriptions"
            }
            GateReason::UnreviewedSuite { .. } => "a threshold needs a reviewed suite",
            GateReason::Errored { .. } => "--max-error-rate",
            GateReason::Lint { .. } => "--lint-fail-on",
            GateReason::NewFindings { .. } => "--fail-on-new",
            GateReason::LockChanged { .. } => "--lock-check",
            GateReason::Regression { .. } => "--fail-on-regression",
            GateReason::DropOverMax { .. } => "--max-drop",
            GateReason::ToolRegression { .. } => "--fail-on-tool-regression",
            GateReason::InvalidTasks { .. } => "validate",
            GateReason::Contract { .. } => "--contract",
            GateReason::Recorded { .. } => "the recorded gate",
            GateReason::Unknown => "a newer toolgate's rule",
        }
    }
}

fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

fn p(v: f64) -> String {
    if v < 0.001 {
        format!("{v:.1e}")
    } else {
        format!("{v:.3}")
    }
}

impl std::fmt::Display for GateReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GateReason::UnderThreshold {
                model,
                accuracy,
                n,
                min,
            } => write!(
                f,
                "{model}: {} {} is under --fail-under {} (n={n})",
                super::super::metric::name(model),
                pct(*accuracy),
                pct(*min)
            ),
            GateReason::ToolUnderThreshold {
                model,
                tool,
                accuracy,
                n,
                min,
            } => write!(
                f,
                "{model}: `{tool}` {} {} is under --min-tool-accuracy {} (n={n})",
                if super::super::metric::is_router(model) {
                    "findability@1"
                } else {
                    "accuracy"
                },
                pct(*accuracy),
                pct(*min)
            ),
            GateReason::RecallUnder {
                model,
                k,
                recall,
                n,
                min,
            } => write!(
                f,
                "{model}: recall@{k} {} is under --fail-under-recall {k}:{} (n={n})",
                pct(*recall),
                pct(*min)
            ),
            GateReason::RecallUnmeasured { k } => write!(
                f,
                "--fail-under-recall {k}:… needs a ranking model (bm25, embed:, hybrid:), and no model of this run ranks tools: recall was not measured"
            ),
            GateReason::UnreviewedSuite {
                pending,
                stale,
                tasks,
                rule,
            } => write!(
                f,
                "{rule} is set, but {pending} of the suite's {tasks} task(s) are not reviewed ({}): a smoke suite's score cannot pass or fail a threshold. Review the task file and run `toolgate approve FILE`, or write tasks by hand",
                unreviewed_why(*pending, *stale)
            ),
            GateReason::Incomplete { status, cause } => {
                write!(
                    f,
                    "the run is {status}, not complete: its numbers cannot pass a gate"
                )?;
                if let Some(c) = cause {
                    write!(f, " ({c})")?;
                }
                Ok(())
            }
            GateReason::DescriptionsUnproven {
                model,
                outcome,
                why,
                advice,
            } => {
                let why = why.as_deref().map(|w| format!(": {w}")).unwrap_or_default();
                match outcome {
                    crate::record::probe::ProbeOutcome::Failed => write!(
                        f,
                        "{model}: the description probe failed{why}. Tool descriptions never reach this model on its endpoint, so its scores measure tool names, not the descriptions, and cannot pass a gate"
                    )?,
                    _ => write!(
                        f,
                        "{model}: the description probe could not check whether tool descriptions reach this model{why}. A run that cannot show its model read the descriptions cannot pass a gate"
                    )?,
                }
                if let Some(a) = advice {
                    write!(f, ". What works: {a}")?;
                }
                Ok(())
            }
            GateReason::Errored {
                model,
                errors,
                n,
                max_rate,
                first_error,
            } => {
                write!(
                    f,
                    "{model}: {errors} of {n} decisions failed with an error ({}, over --max-error-rate {}): the run measured the endpoint, not the tools",
                    pct(*errors as f64 / (*n).max(1) as f64),
                    pct(*max_rate)
                )?;
                if let Some(e) = first_error {
                    write!(f, "; first error: {e}")?;
                }
                Ok(())
            }
            GateReason::Lint {
                fail_on: LintFailOn::Warning,
                errors,
                warnings,
            } => write!(
                f,
                "{errors} lint error(s) and {warnings} warning(s) (the gate fails on warnings)"
            ),
            GateReason::Lint { errors, .. } => write!(
                f,
                "{errors} lint error(s) (the gate fails on lint errors; see the Lint section)"
            ),
            GateReason::NewFindings {
                fail_on,
                count,
                shown,
                against,
            } => {
                write!(
                    f,
                    "this change introduces {count} lint finding(s) at or above {} against {against}: {}",
                    fail_on.as_str(),
                    shown.join(", ")
                )?;
                if *count > shown.len() {
                    write!(f, " and {} more", count - shown.len())?;
                }
                write!(f, " [--fail-on-new]")
            }
            GateReason::LockChanged { path, tools } => write!(
                f,
                "the server's tool definitions differ from {path} ({tools} tool(s)); review and run `toolgate pin`"
            ),
            GateReason::Regression {
                model,
                base,
                head,
                p_adjusted,
                alpha,
                lost,
                gained,
            } => write!(
                f,
                "{model}: significant regression against the base, {} → {} ({} tasks lost, {} gained; exact McNemar p={} < α={alpha}, corrected) [--fail-on-regression]",
                pct(*base),
                pct(*head),
                lost,
                gained,
                p(*p_adjusted)
            ),
            GateReason::DropOverMax { model, drop, max } => write!(
                f,
                "{model}: {} dropped {:.1} pts against the base, more than --max-drop {:.1} pts",
                super::super::metric::name(model),
                drop * 100.0,
                max * 100.0
            ),
            GateReason::ToolRegression {
                model,
                tool,
                base,
                head,
                p_adjusted,
            } => write!(
                f,
                "{model}: `{tool}` {} against the base, {} → {} (corrected p={})",
                if super::super::metric::is_router(model) {
                    "is harder to find (findability@1 dropped)"
                } else {
                    "regressed"
                },
                pct(*base),
                pct(*head),
                p(*p_adjusted)
            ),
            GateReason::InvalidTasks { errors } => {
                write!(f, "{errors} task error(s) found by validate")
            }
            GateReason::Contract {
                failed,
                calls,
                tools,
            } => {
                let shown: Vec<String> = tools.iter().take(10).map(|t| format!("`{t}`")).collect();
                write!(
                    f,
                    "{failed} of {calls} contract call(s) failed ({}{}): see the Contract tests section",
                    shown.join(", "),
                    if tools.len() > 10 { ", …" } else { "" }
                )
            }
            GateReason::Recorded { reasons } => f.write_str(&reasons.join("; ")),
            GateReason::Unknown => f.write_str(
                "a failure of a kind this toolgate does not know (see the report's reasons)",
            ),
        }
    }
}

/// Why tasks count as unreviewed: never approved, or edited since their approval.
pub fn unreviewed_why(pending: usize, stale: usize) -> String {
    match (pending - stale.min(pending), stale) {
        (_, 0) => "generated, not approved".into(),
        (0, s) => format!("{s} edited since their approval"),
        (p, s) => format!("{p} generated and not approved, {s} edited since their approval"),
    }
}

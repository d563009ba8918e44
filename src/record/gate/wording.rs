//! The sentence each gate reason reads as, in every report: one group of kinds per function.

use super::LintFailOn;
use super::reason::{GateReason, unreviewed_why};

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
        self.thresholds(f)
    }
}

/// The sentence of each kind, one group of kinds per function; each hands the kinds it does
/// not write to the next.
impl GateReason {
    /// Scores under a floor, and suites a floor cannot judge.
    fn thresholds(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GateReason::UnderThreshold {
                model,
                accuracy,
                n,
                min,
            } => write!(
                f,
                "{model}: {} {} is under --fail-under {} (n={n})",
                crate::record::metric::name(model),
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
                if crate::record::metric::is_router(model) {
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
            _ => self.validity(f),
        }
    }

    /// Runs whose numbers cannot stand: incomplete, descriptions unproven, errors.
    fn validity(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
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
            _ => self.definitions(f),
        }
    }

    /// What the definitions and the tasks show: lint, new findings, the lock, invalid tasks, contract calls.
    fn definitions(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
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
            _ => self.comparisons(f),
        }
    }

    /// Changes against the base: regressions and drops.
    fn comparisons(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
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
                crate::record::metric::name(model),
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
                if crate::record::metric::is_router(model) {
                    "is harder to find (findability@1 dropped)"
                } else {
                    "regressed"
                },
                pct(*base),
                pct(*head),
                p(*p_adjusted)
            ),
            _ => self.rest(f),
        }
    }

    /// Reasons read from a file: recorded as words, or of a kind this toolgate does not know.
    fn rest(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GateReason::Recorded { reasons } => f.write_str(&reasons.join("; ")),
            // `Unknown`; every other kind was written by an earlier group.
            _ => f.write_str(
                "a failure of a kind this toolgate does not know (see the report's reasons)",
            ),
        }
    }
}

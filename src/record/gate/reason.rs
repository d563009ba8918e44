//! Why a gate failed (or what it noticed), as data. Each kind has one wording (its `Display`,
//! in `super::wording`), so every report says the same thing, and ci.json carries the data
//! under `failures`.

use serde::{Deserialize, Serialize};

use super::{Exit, LintFailOn};
use crate::record::run::RunStatus;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum GateReason {
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
    pub(crate) fn exit(&self) -> Exit {
        match self {
            GateReason::Incomplete { .. }
            | GateReason::DescriptionsUnproven { .. }
            | GateReason::Errored { .. }
            | GateReason::RecallUnmeasured { .. }
            | GateReason::UnreviewedSuite { .. } => Exit::CouldNotRun,
            _ => Exit::GateFailed,
        }
    }
}

/// Why tasks count as unreviewed: never approved, or edited since their approval.
pub(crate) fn unreviewed_why(pending: usize, stale: usize) -> String {
    match (pending - stale.min(pending), stale) {
        (_, 0) => "generated, not approved".into(),
        (0, s) => format!("{s} edited since their approval"),
        (p, s) => format!("{p} generated and not approved, {s} edited since their approval"),
    }
}

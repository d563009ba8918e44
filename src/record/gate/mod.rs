//! The gate's states and reasons as data: what a command ends with ([`Exit`]), the policy's
//! enumerations, the lock check's result, the typed reasons ([`GateReason`], their wording with
//! them) and the decision a run file records. The gate stage (`crate::gate`) decides; this
//! module only holds what it decides.

mod reason;
mod wording;

use serde::{Deserialize, Serialize};

pub(crate) use reason::{GateReason, unreviewed_why};

use crate::record::lock::LockDiff;

/// What a command ends with: the process exit code is decided from this alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Exit {
    /// 0: the gate passed.
    Pass,
    /// 1: the gate failed.
    GateFailed,
    /// 2: toolgate could not measure (an errored or partial run).
    CouldNotRun,
}

impl Exit {
    pub(crate) fn code(self) -> u8 {
        match self {
            Exit::Pass => 0,
            Exit::GateFailed => 1,
            Exit::CouldNotRun => 2,
        }
    }
}

/// Lint findings at or above this severity fail the gate.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LintFailOn {
    /// Lint errors fail the gate.
    #[default]
    Error,
    /// Lint errors and warnings fail the gate.
    Warning,
    /// Lint findings never fail the gate (they are still reported).
    Never,
}

impl LintFailOn {
    pub fn as_str(self) -> &'static str {
        match self {
            LintFailOn::Error => "error",
            LintFailOn::Warning => "warning",
            LintFailOn::Never => "never",
        }
    }
}

/// What a lock mismatch does.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LockCheck {
    /// A lock mismatch fails the gate.
    #[default]
    Fail,
    /// A lock mismatch is reported but does not fail the gate.
    Warn,
    /// Do not read the lock file.
    Off,
}

/// How the server compares with the reviewed lock file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum LockState {
    Match,
    Changed,
    Missing,
    Off,
}

impl std::fmt::Display for LockState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::out::wire_name(self))
    }
}

/// The lock check's result, as ci.json carries it.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub(crate) struct LockStatus {
    pub path: String,
    pub status: LockState,
    pub policy: LockCheck,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<LockDiff>,
}

impl LockStatus {
    /// Tools added, removed or changed since the lock.
    pub(crate) fn tools_changed(&self) -> usize {
        self.diff
            .as_ref()
            .map_or(0, |d| d.added.len() + d.removed.len() + d.changed.len())
    }
}

/// `--fail-under-recall K:RATE`: recall@K (K one of 1, 3, 5, 10) must reach RATE.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RecallFloor {
    pub k: usize,
    pub min: f64,
}

impl TryFrom<String> for RecallFloor {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<RecallFloor> for String {
    fn from(f: RecallFloor) -> String {
        format!("{}:{}", f.k, f.min)
    }
}

impl std::str::FromStr for RecallFloor {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (k, rate) = s
            .split_once(':')
            .ok_or_else(|| format!("`{s}` is not K:RATE (e.g. 5:0.9)"))?;
        let k: usize = k
            .trim()
            .parse()
            .ok()
            .filter(|k| crate::record::scores::retrieval::CUTOFFS.contains(k))
            .ok_or_else(|| format!("`{s}`: K must be one of 1, 3, 5, 10"))?;
        let min: f64 = rate
            .trim()
            .parse()
            .ok()
            .filter(|r: &f64| (0.0..=1.0).contains(r))
            .ok_or_else(|| format!("`{s}`: RATE must be a number from 0 to 1"))?;
        Ok(RecallFloor { k, min })
    }
}

/// The verdict with its reasons; `notices` are reported but do not fail.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct GateDecision {
    pub reasons: Vec<GateReason>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<GateReason>,
}

impl GateDecision {
    pub(crate) fn passed(&self) -> bool {
        self.reasons.is_empty()
    }

    pub(crate) fn exit(&self) -> Exit {
        self.reasons
            .iter()
            .map(GateReason::exit)
            .max()
            .unwrap_or(Exit::Pass)
    }

    /// The reasons as sentences (the v1 files' `reasons`).
    pub(crate) fn wording(&self) -> Vec<String> {
        self.reasons.iter().map(ToString::to_string).collect()
    }
}

/// The gate's decision on a run, as run.json carries it: the wording (v1) and the typed
/// reasons (`failures`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct GateResult {
    pub passed: bool,
    pub reasons: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<GateReason>,
}

impl From<&GateDecision> for GateResult {
    fn from(d: &GateDecision) -> Self {
        GateResult {
            passed: d.passed(),
            reasons: d.wording(),
            failures: d.reasons.clone(),
        }
    }
}

//! Whether tool descriptions reach a model, shown by behaviour: the description probe's
//! result as run.json keeps it.

use serde::{Deserialize, Serialize};

/// The result of the description probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DescriptionProbe {
    /// What the probe showed: passed, failed or could not check. Only `passed` lets a run of
    /// this model pass a gate.
    pub outcome: ProbeOutcome,
    /// Why it could not check (or what failed), in a sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// Shown to reach the model (the canary followed the descriptions).
    pub reach: bool,
    #[serde(default)]
    pub canary: Canary,
    /// What the canary model called: with the descriptions as written, then swapped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub picked: Vec<String>,
    /// Prompt tokens of one request as reported, for the record (never the verdict: an
    /// endpoint may report a constant, or nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
}

/// The description probe's outcome, as every sink shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeOutcome {
    /// The canary followed the descriptions: they reach the model.
    Passed,
    /// The canary called the same tool with the descriptions swapped: they do not reach it.
    Failed,
    /// The canary was not sent, errored, or gave no clear answer.
    CouldNotCheck,
}

impl ProbeOutcome {
    pub fn label(self) -> &'static str {
        match self {
            ProbeOutcome::Passed => "passed",
            ProbeOutcome::Failed => "failed",
            ProbeOutcome::CouldNotCheck => "could not check",
        }
    }
}

impl From<Canary> for ProbeOutcome {
    fn from(c: Canary) -> Self {
        match c {
            Canary::Follows => ProbeOutcome::Passed,
            Canary::Ignores => ProbeOutcome::Failed,
            Canary::Inconclusive => ProbeOutcome::CouldNotCheck,
        }
    }
}

impl DescriptionProbe {
    /// A probe that was not (or could not be) sent, and why.
    pub fn unchecked(why: impl Into<String>) -> Self {
        DescriptionProbe {
            outcome: ProbeOutcome::CouldNotCheck,
            why: Some(why.into()),
            reach: false,
            canary: Canary::Inconclusive,
            picked: vec![],
            prompt_tokens: None,
        }
    }
}

/// What the description canary showed. Two tools with neutral names and one parameter alike
/// differ only in their descriptions; one request fits one description. Asked once as
/// written and once with the two descriptions swapped, a model that reads descriptions calls
/// a different tool each time — the described one; a model that never sees them calls the
/// same name (or position) both times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Canary {
    /// It called the described tool both times.
    Follows,
    /// It called the same tool both times: the descriptions made no difference.
    Ignores,
    /// No call, an error, or a wrong call once: it could not tell.
    #[default]
    Inconclusive,
}

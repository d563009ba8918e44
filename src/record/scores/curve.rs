//! Accuracy as distractors are added (the curve), and with parts of the definitions taken
//! away (the ablation), as run.json keeps them.

use serde::{Deserialize, Serialize};

use super::Rate;

/// How the distractors of a size were drawn from the belt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Draw {
    /// Seeded random order; each size's draw is a prefix of the next size's.
    Random,
    /// The belt's tools most similar to yours first (BM25 of their name and description
    /// against your tools, best over your tools; ties by server and tool name).
    Nearest,
}

/// One size of one draw for one model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Point {
    /// Distractor tools beside yours.
    pub size: usize,
    pub accuracy: Rate,
    /// Tasks right with no distractors and wrong here (clustered over trials).
    pub lost: u64,
    /// Tasks wrong with no distractors and right here.
    pub gained: u64,
    /// One-sided exact p that this size is worse than size 0 (1 at size 0).
    pub p: f64,
    /// `p < alpha`: significantly below the no-distractor accuracy.
    pub below: bool,
}

/// A model's curve for one draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Series {
    pub model: String,
    pub draw: Draw,
    pub points: Vec<Point>,
    /// The first size significantly below size 0; `None`: none up to the largest size.
    pub breaking_point: Option<usize>,
}

/// The order a draw adds the belt's tools in (a size's distractors are the first `size`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct DrawOrder {
    pub draw: Draw,
    /// `(server, tool)`, up to the largest size measured.
    pub tools: Vec<(String, String)>,
}

/// The whole measurement, as run.json keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Curve {
    /// What each point measures (the run's headline metric).
    pub metric: String,
    pub alpha: f64,
    /// The seed of the random draw.
    pub seed: u64,
    /// The belt's tools that could be drawn.
    pub available: usize,
    /// Distractor counts measured (0: your catalog alone).
    pub sizes: Vec<usize>,
    /// Trials per task at each point.
    pub trials: u32,
    pub draws: Vec<DrawOrder>,
    pub series: Vec<Series>,
    /// Models left out of the curve, and other things a reader should know.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// What an arm takes away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Arm {
    /// Names and schema shapes only: no description, title or example anywhere.
    NoDescriptions,
    /// Every tool renamed `tool_01`, `tool_02`, …; descriptions kept.
    NeutralNames,
}

/// One model on one arm, paired with the same model on the full catalog.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ArmResult {
    pub model: String,
    pub arm: Arm,
    /// Tool accuracy on the full catalog (the pairing's other side).
    pub full: Rate,
    /// Tool accuracy on the ablated catalog.
    pub accuracy: Rate,
    /// Percentage points: ablated minus full.
    pub delta_pts: f64,
    /// Tasks right on the full catalog and wrong here.
    pub lost: u64,
    /// Tasks wrong on the full catalog and right here.
    pub gained: u64,
    /// One-sided exact p that the ablated catalog scores lower.
    pub p: f64,
    /// `p < alpha`: the score drops significantly without this part.
    pub drops: bool,
}

/// The whole check, as run.json keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Ablation {
    pub alpha: f64,
    pub results: Vec<ArmResult>,
    /// Models left out, and other things a reader should know.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

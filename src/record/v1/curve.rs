//! The distractor curve and the ablation inside `toolgate.run/v1`, frozen (see the parent
//! module). `Draw` and `Arm` are leaves whose wire names their own serde attributes pin.

use serde::{Deserialize, Serialize};

use crate::record::scores::Rate;
use crate::record::scores::curve::{
    Ablation, Arm, ArmResult, Curve, Draw, DrawOrder, Point, Series,
};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct PointV1 {
    pub size: usize,
    pub accuracy: Rate,
    pub lost: u64,
    pub gained: u64,
    pub p: f64,
    pub below: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct SeriesV1 {
    pub model: String,
    pub draw: Draw,
    pub points: Vec<PointV1>,
    pub breaking_point: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct DrawOrderV1 {
    pub draw: Draw,
    pub tools: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct CurveV1 {
    pub metric: String,
    pub alpha: f64,
    pub seed: u64,
    pub available: usize,
    pub sizes: Vec<usize>,
    pub trials: u32,
    pub draws: Vec<DrawOrderV1>,
    pub series: Vec<SeriesV1>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ArmResultV1 {
    pub model: String,
    pub arm: Arm,
    pub full: Rate,
    pub accuracy: Rate,
    pub delta_pts: f64,
    pub lost: u64,
    pub gained: u64,
    pub p: f64,
    pub drops: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct AblationV1 {
    pub alpha: f64,
    pub results: Vec<ArmResultV1>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

both_ways!(Point <-> PointV1 { size, accuracy, lost, gained, p, below ; });
both_ways!(Series <-> SeriesV1 { model, draw, breaking_point ; points });
both_ways!(DrawOrder <-> DrawOrderV1 { draw, tools ; });
both_ways!(Curve <-> CurveV1 { metric, alpha, seed, available, sizes, trials, notes ; draws, series });
both_ways!(ArmResult <-> ArmResultV1 { model, arm, full, accuracy, delta_pts, lost, gained, p, drops ; });
both_ways!(Ablation <-> AblationV1 { alpha, notes ; results });

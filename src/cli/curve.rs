//! `run`'s seed and distractor-curve flags (flattened into `RunArgs`).

use clap::Args;

use crate::eval::curve::Size;

#[derive(Args, Debug, Clone, Default)]
pub struct CurveArgs {
    /// Seed passed to APIs that accept one, and the seed of the distractor curve's random draw
    /// [curve default: 12].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// With --belt: measure the distractor curve (accuracy as the belt's tools join yours).
    /// Default: for offline models only; `--curve` measures LLMs too (each size is a whole run
    /// of the suite: the number of calls is printed first), `--curve=false` skips it.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub curve: Option<bool>,
    /// Distractor tools per point of the curve, comma-separated (`all`: every tool of the belt)
    /// [default: 0,10,50,100,200,500,all; each capped at the belt's size].
    #[arg(long, value_name = "N,…", value_delimiter = ',')]
    pub curve_sizes: Vec<Size>,
    /// Run the suite again without descriptions and with neutral names, to show what it
    /// measures. Default: for offline models only; `--ablation` measures LLMs too (two more
    /// calls per task), `--ablation=false` skips it.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub ablation: Option<bool>,
}

impl CurveArgs {
    /// The ablation check: auto, on or off.
    pub fn ablation_when(&self) -> crate::eval::curve::When {
        crate::eval::curve::When::from(self.ablation)
    }

    /// Auto, on or off.
    pub fn when(&self) -> crate::eval::curve::When {
        crate::eval::curve::When::from(self.curve)
    }
}

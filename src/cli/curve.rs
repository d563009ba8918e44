//! `run`'s seed and distractor-curve flags (flattened into `RunArgs`).

use clap::Args;

use crate::eval::curve::Size;

#[derive(Args, Debug, Clone, Default)]
pub struct CurveArgs {
    /// Seed passed to APIs that accept one, and the seed of the distractor curve's random draw
    /// [curve default: 12].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// With --belt: measure the distractor curve for LLMs too (each size is a whole run of the
    /// suite: the number of calls is printed first). Offline models (bm25) get it by default.
    #[arg(long, conflicts_with = "no_curve")]
    pub curve: bool,
    /// With --belt: skip the distractor curve.
    #[arg(long)]
    pub no_curve: bool,
    /// Distractor tools per point of the curve, comma-separated (`all`: every tool of the belt)
    /// [default: 0,10,50,100,200,500,all; each capped at the belt's size].
    #[arg(long, value_name = "N,…", value_delimiter = ',')]
    pub curve_sizes: Vec<Size>,
    /// Run the suite again without descriptions and with neutral names, to show what it
    /// measures, for LLMs too (two more calls per task). Offline models get it by default.
    #[arg(long, conflicts_with = "no_ablation")]
    pub ablation: bool,
    /// Skip the ablation check.
    #[arg(long)]
    pub no_ablation: bool,
}

impl CurveArgs {
    /// The ablation check: auto, on or off.
    pub fn ablation_when(&self) -> crate::eval::curve::When {
        use crate::eval::curve::When;
        match (self.ablation, self.no_ablation) {
            (_, true) => When::Off,
            (true, _) => When::On,
            _ => When::Auto,
        }
    }

    /// Auto, on or off.
    pub fn when(&self) -> crate::eval::curve::When {
        use crate::eval::curve::When;
        match (self.curve, self.no_curve) {
            (_, true) => When::Off,
            (true, _) => When::On,
            _ => When::Auto,
        }
    }
}

//! The tasks stage: labelled requests (JSONL), their validation, and their generation from a
//! catalog (seeded schema sampler + offline templates).

pub mod args;
pub mod echo;
pub mod leak;
pub mod quality;
pub mod review;
pub mod review_state;
pub mod sampler;
pub mod solvable;
pub mod task;
pub mod template;
pub mod validate;
pub mod vocab;
pub mod writer;

pub use task::{Numbered, parse_tasks};

pub use task::{Expected, Kind, Split, Task, read_tasks, suite_hash, write_tasks};

/// Which tasks of a suite to run.
#[derive(
    Copy,
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum SplitArg {
    #[default]
    All,
    Dev,
    Heldout,
}

impl SplitArg {
    pub fn as_str(self) -> &'static str {
        match self {
            SplitArg::All => "all",
            SplitArg::Dev => "dev",
            SplitArg::Heldout => "heldout",
        }
    }

    /// True when `split` belongs to this selection.
    pub fn keeps(self, split: Split) -> bool {
        match self {
            SplitArg::All => true,
            SplitArg::Dev => split == Split::Dev,
            SplitArg::Heldout => split == Split::Heldout,
        }
    }
}

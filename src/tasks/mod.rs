//! The tasks stage: labelled requests (JSONL), their validation, and their generation from a
//! catalog (seeded schema sampler + offline templates).

pub(crate) mod args;
pub(crate) mod echo;
pub(crate) mod leak;
pub(crate) mod quality;
pub(crate) mod review;
pub(crate) mod review_state;
pub(crate) mod sampler;
pub(crate) mod solvable;
pub(crate) mod task;
pub(crate) mod template;
pub(crate) mod validate;
pub(crate) mod vocab;
pub(crate) mod writer;

pub(crate) use task::parse_tasks;

pub(crate) use task::{Kind, Split, Task, suite_hash, write_tasks};

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

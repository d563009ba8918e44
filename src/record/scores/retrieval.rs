//! How high a ranking model put the expected tool: recall@k, MRR and nDCG.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Rate;

/// How deep a ranking is kept and scored.
pub(crate) const DEPTH: usize = 10;

/// The recall cut-offs reported.
pub(crate) const CUTOFFS: [usize; 4] = [1, 3, 5, 10];

/// A mean of per-task values in [0, 1] with its 95% t interval.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Mean {
    pub n: u64,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Retrieval quality of one group of tasks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct RetrievalScores {
    /// recall@k by k (1, 3, 5, 10).
    pub recall: BTreeMap<usize, Rate>,
    pub mrr: Mean,
    pub ndcg: Mean,
}

/// Overall and per expected tool.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Retrieval {
    pub overall: RetrievalScores,
    pub per_tool: BTreeMap<String, RetrievalScores>,
}

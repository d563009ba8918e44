//! The metrics of one model's run: accuracy overall and by kind, the confusion matrix,
//! per-tool rates, the failure buckets, preconditions and retrieval.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::retrieval::Retrieval;
use super::{ArgsLayer, Precondition, Rate};

fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// A right-tool call whose arguments were wrong, and what was wrong with them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ArgumentProblem {
    pub task_id: String,
    pub tool: String,
    /// The layer that failed: the schema (the tool would reject the call) or a value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<ArgsLayer>,
    pub problems: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ToolMetrics {
    pub tool: String,
    /// Tasks expecting this tool.
    pub support: u64,
    /// Right calls among tasks expecting this tool.
    pub recall: Rate,
    /// Right calls among all calls of this tool.
    pub precision: Rate,
    pub f1: f64,
    /// Accuracy on the tasks expecting this tool (= recall).
    pub accuracy: Rate,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ConfusedPair {
    pub expected: String,
    pub called: String,
    pub count: u64,
    /// Up to five task ids and requests that tripped the model.
    pub examples: Vec<(String, String)>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Metrics {
    /// Task × trial observations scored.
    pub n: u64,
    pub accuracy: Rate,
    pub by_kind: BTreeMap<String, Rate>,
    pub by_split: BTreeMap<String, Rate>,
    /// Tool expected, another tool called.
    pub confusions: u64,
    /// Tool expected, nothing called.
    pub missed_calls: u64,
    /// No tool fits, one was called.
    pub false_calls: u64,
    /// Transport failures, malformed output, invented tools.
    pub errors: u64,
    pub error_rate: Rate,
    /// The intended tool was called, and so was an unasked tool that may write (before, after
    /// or beside it).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unasked_writes: u64,
    /// Like `unasked_writes`, but the unasked tool has no `readOnlyHint` (assumed to write):
    /// fixed by an annotation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unasked_unannotated: u64,
    /// Right tool, wrong arguments: which layer, which argument and why (the first
    /// `crate::score::metrics::ARGUMENT_PROBLEMS_KEPT`; `attribution.argument_problems` counts them all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub argument_problems: Vec<ArgumentProblem>,
    /// Errors counted by cause ("connection refused", "HTTP 500", "context length exceeded", …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub errors_by_cause: BTreeMap<String, u64>,
    /// The first error's full text (in task order), so a reader sees what went wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_error: Option<String>,
    /// Among decisions to call nothing, how many were right to.
    pub abstention_precision: Rate,
    /// Among tasks no tool serves, how many got no call.
    pub abstention_recall: Rate,
    /// Among right-tool calls with arguments, schema-valid ones.
    pub args_valid: Rate,
    /// Among right-tool calls with arguments and expected values, fully correct ones.
    pub args_correct: Rate,
    /// Rows: expected tool or (no call). Columns: called tool, (no call) or (error).
    pub labels: Vec<String>,
    pub confusion: BTreeMap<String, BTreeMap<String, u64>>,
    pub per_tool: Vec<ToolMetrics>,
    pub most_confused: Vec<ConfusedPair>,
    #[serde(default)]
    pub attribution: Attribution,
    /// With several trials: the share of tasks solved in every trial (pass^k).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_all: Option<Rate>,
    /// With several trials: the share of tasks whose trials all agree (all pass or all fail).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consistency: Option<Rate>,
    /// Multi-step runs: tools called before the intended one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preconditions: Vec<Precondition>,
    /// Ranking models: how high the expected tool was ranked (recall@k, MRR, nDCG).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieval: Option<Retrieval>,
}

/// Every failure in one bucket, so a reader knows what a description change can move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Attribution {
    /// Another tool was chosen: the descriptions did not tell the tools apart.
    pub description_confusion: u64,
    /// Trials that passed (the right tool) with invalid or wrong arguments: not a failure of
    /// tool choice, so in no failure bucket; counted beside them.
    pub argument_problems: u64,
    /// A tool that may write (or has no `readOnlyHint`) was called, unasked, with the intended
    /// one: a failure.
    #[serde(default)]
    pub unasked_writes: u64,
    /// Malformed output, invented tools, transport errors: a floor no description can move.
    pub model_mechanics: u64,
    /// A tool was needed and none was called.
    pub no_call: u64,
    /// No tool fits and one was called.
    pub false_call: u64,
    /// What the model said instead of calling (up to five), with the task id.
    #[serde(default)]
    pub no_call_replies: Vec<(String, String)>,
}

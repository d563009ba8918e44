//! The metrics inside `toolgate.run/v1`, frozen (see the parent module).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::record::scores::Rate;
use crate::record::scores::metrics as m;
use crate::record::scores::retrieval::{Mean, Retrieval, RetrievalScores};

fn is_zero(v: &u64) -> bool {
    *v == 0
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ToolMetricsV1 {
    pub tool: String,
    pub support: u64,
    pub recall: Rate,
    pub precision: Rate,
    pub f1: f64,
    pub accuracy: Rate,
}

impl From<m::ToolMetrics> for ToolMetricsV1 {
    fn from(v: m::ToolMetrics) -> Self {
        ToolMetricsV1 {
            tool: v.tool,
            support: v.support,
            recall: v.recall,
            precision: v.precision,
            f1: v.f1,
            accuracy: v.accuracy,
        }
    }
}

impl From<ToolMetricsV1> for m::ToolMetrics {
    fn from(v: ToolMetricsV1) -> Self {
        m::ToolMetrics {
            tool: v.tool,
            support: v.support,
            recall: v.recall,
            precision: v.precision,
            f1: v.f1,
            accuracy: v.accuracy,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ConfusedPairV1 {
    pub expected: String,
    pub called: String,
    pub count: u64,
    pub examples: Vec<(String, String)>,
}

impl From<m::ConfusedPair> for ConfusedPairV1 {
    fn from(v: m::ConfusedPair) -> Self {
        ConfusedPairV1 {
            expected: v.expected,
            called: v.called,
            count: v.count,
            examples: v.examples,
        }
    }
}

impl From<ConfusedPairV1> for m::ConfusedPair {
    fn from(v: ConfusedPairV1) -> Self {
        m::ConfusedPair {
            expected: v.expected,
            called: v.called,
            count: v.count,
            examples: v.examples,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct AttributionV1 {
    pub description_confusion: u64,
    pub argument_problems: u64,
    /// Written only when some trial failed so (files without it read as 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unasked_writes: u64,
    pub model_mechanics: u64,
    pub no_call: u64,
    pub false_call: u64,
    #[serde(default)]
    pub no_call_replies: Vec<(String, String)>,
}

impl From<m::Attribution> for AttributionV1 {
    fn from(v: m::Attribution) -> Self {
        AttributionV1 {
            description_confusion: v.description_confusion,
            argument_problems: v.argument_problems,
            unasked_writes: v.unasked_writes,
            model_mechanics: v.model_mechanics,
            no_call: v.no_call,
            false_call: v.false_call,
            no_call_replies: v.no_call_replies,
        }
    }
}

impl From<AttributionV1> for m::Attribution {
    fn from(v: AttributionV1) -> Self {
        m::Attribution {
            description_confusion: v.description_confusion,
            argument_problems: v.argument_problems,
            unasked_writes: v.unasked_writes,
            model_mechanics: v.model_mechanics,
            no_call: v.no_call,
            false_call: v.false_call,
            no_call_replies: v.no_call_replies,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ArgumentProblemV1 {
    pub task_id: String,
    pub tool: String,
    /// `schema` or `values`: the layer of argument grading that failed (absent in runs of
    /// older toolgates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<crate::record::scores::ArgsLayer>,
    pub problems: Vec<String>,
}

impl From<m::ArgumentProblem> for ArgumentProblemV1 {
    fn from(v: m::ArgumentProblem) -> Self {
        ArgumentProblemV1 {
            task_id: v.task_id,
            tool: v.tool,
            layer: v.layer,
            problems: v.problems,
        }
    }
}

impl From<ArgumentProblemV1> for m::ArgumentProblem {
    fn from(v: ArgumentProblemV1) -> Self {
        m::ArgumentProblem {
            task_id: v.task_id,
            tool: v.tool,
            layer: v.layer,
            problems: v.problems,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct MetricsV1 {
    pub n: u64,
    pub accuracy: Rate,
    pub by_kind: BTreeMap<String, Rate>,
    pub by_split: BTreeMap<String, Rate>,
    pub confusions: u64,
    pub missed_calls: u64,
    pub false_calls: u64,
    pub errors: u64,
    pub error_rate: Rate,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unasked_writes: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unasked_unannotated: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub argument_problems: Vec<ArgumentProblemV1>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub errors_by_cause: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_error: Option<String>,
    pub abstention_precision: Rate,
    pub abstention_recall: Rate,
    pub args_valid: Rate,
    pub args_correct: Rate,
    pub labels: Vec<String>,
    pub confusion: BTreeMap<String, BTreeMap<String, u64>>,
    pub per_tool: Vec<ToolMetricsV1>,
    pub most_confused: Vec<ConfusedPairV1>,
    #[serde(default)]
    pub attribution: AttributionV1,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_all: Option<Rate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consistency: Option<Rate>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preconditions: Vec<PreconditionV1>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieval: Option<RetrievalV1>,
}

impl From<m::Metrics> for MetricsV1 {
    fn from(v: m::Metrics) -> Self {
        MetricsV1 {
            n: v.n,
            accuracy: v.accuracy,
            by_kind: v.by_kind,
            by_split: v.by_split,
            confusions: v.confusions,
            missed_calls: v.missed_calls,
            false_calls: v.false_calls,
            errors: v.errors,
            error_rate: v.error_rate,
            unasked_writes: v.unasked_writes,
            unasked_unannotated: v.unasked_unannotated,
            argument_problems: v.argument_problems.into_iter().map(Into::into).collect(),
            errors_by_cause: v.errors_by_cause,
            first_error: v.first_error,
            abstention_precision: v.abstention_precision,
            abstention_recall: v.abstention_recall,
            args_valid: v.args_valid,
            args_correct: v.args_correct,
            labels: v.labels,
            confusion: v.confusion,
            per_tool: v.per_tool.into_iter().map(Into::into).collect(),
            most_confused: v.most_confused.into_iter().map(Into::into).collect(),
            attribution: v.attribution.into(),
            pass_all: v.pass_all,
            consistency: v.consistency,
            preconditions: v.preconditions.into_iter().map(Into::into).collect(),
            retrieval: v.retrieval.map(Into::into),
        }
    }
}

impl From<MetricsV1> for m::Metrics {
    fn from(v: MetricsV1) -> Self {
        m::Metrics {
            n: v.n,
            accuracy: v.accuracy,
            by_kind: v.by_kind,
            by_split: v.by_split,
            confusions: v.confusions,
            missed_calls: v.missed_calls,
            false_calls: v.false_calls,
            errors: v.errors,
            error_rate: v.error_rate,
            unasked_writes: v.unasked_writes,
            unasked_unannotated: v.unasked_unannotated,
            argument_problems: v.argument_problems.into_iter().map(Into::into).collect(),
            errors_by_cause: v.errors_by_cause,
            first_error: v.first_error,
            abstention_precision: v.abstention_precision,
            abstention_recall: v.abstention_recall,
            args_valid: v.args_valid,
            args_correct: v.args_correct,
            labels: v.labels,
            confusion: v.confusion,
            per_tool: v.per_tool.into_iter().map(Into::into).collect(),
            most_confused: v.most_confused.into_iter().map(Into::into).collect(),
            attribution: v.attribution.into(),
            pass_all: v.pass_all,
            consistency: v.consistency,
            preconditions: v.preconditions.into_iter().map(Into::into).collect(),
            retrieval: v.retrieval.map(Into::into),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct PreconditionV1 {
    pub before: String,
    pub tool: String,
    pub rate: Rate,
    pub declared: bool,
    pub undeclared: bool,
}

impl From<crate::record::scores::Precondition> for PreconditionV1 {
    fn from(v: crate::record::scores::Precondition) -> Self {
        PreconditionV1 {
            before: v.before,
            tool: v.tool,
            rate: v.rate,
            declared: v.declared,
            undeclared: v.undeclared,
        }
    }
}

impl From<PreconditionV1> for crate::record::scores::Precondition {
    fn from(v: PreconditionV1) -> Self {
        crate::record::scores::Precondition {
            before: v.before,
            tool: v.tool,
            rate: v.rate,
            declared: v.declared,
            undeclared: v.undeclared,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct MeanV1 {
    pub n: u64,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct RetrievalScoresV1 {
    pub recall: BTreeMap<usize, Rate>,
    pub mrr: MeanV1,
    pub ndcg: MeanV1,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct RetrievalV1 {
    pub overall: RetrievalScoresV1,
    pub per_tool: BTreeMap<String, RetrievalScoresV1>,
}

both_ways!(Mean <-> MeanV1 { n, value, lo, hi ; });
both_ways!(RetrievalScores <-> RetrievalScoresV1 { recall, mrr, ndcg ; });

impl From<Retrieval> for RetrievalV1 {
    fn from(v: Retrieval) -> Self {
        RetrievalV1 {
            overall: v.overall.into(),
            per_tool: v.per_tool.into_iter().map(|(k, s)| (k, s.into())).collect(),
        }
    }
}

impl From<RetrievalV1> for Retrieval {
    fn from(v: RetrievalV1) -> Self {
        Retrieval {
            overall: v.overall.into(),
            per_tool: v.per_tool.into_iter().map(|(k, s)| (k, s.into())).collect(),
        }
    }
}

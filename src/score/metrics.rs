//! Aggregates graded observations into the numbers of the scoring contract: tool accuracy
//! overall and by kind, a confusion matrix with a no-call row and column, per-tool precision /
//! recall / F1, missed calls, false calls and errors apart from confusions, abstention
//! precision and recall, argument validity and correctness, and the most-confused pairs.

use std::collections::BTreeMap;

pub(crate) use super::attribution::Attribution;
use super::grade::{Graded, Outcome};
use super::stats::Rate;
use crate::tasks::{Kind, Task};

/// The label of "no tool" in the confusion matrix.
pub(crate) const NONE: &str = "(no call)";
/// The label of errors in the confusion matrix's columns.
pub(crate) const ERROR: &str = "(error)";
/// Rows, columns, and (row, column) → count of a confusion matrix as rendered.
pub(crate) type MatrixView = (Vec<String>, Vec<String>, BTreeMap<(String, String), u64>);

/// The label that folds tools left out of a large matrix.
pub(crate) const OTHER: &str = "(other tools)";

pub(crate) use super::preconditions::preconditions;
pub(crate) use crate::record::scores::metrics::{
    ArgumentProblem, ConfusedPair, Metrics, ToolMetrics,
};

/// An error's first line, cut at 60 characters: the cause it is counted under when its kind
/// has no label.
fn first_line(msg: &str) -> String {
    let first = msg.lines().next().unwrap_or_default();
    let short: String = first.chars().take(60).collect();
    if short.len() < first.len() {
        format!("{short}…")
    } else {
        short
    }
}

/// How many right-tool calls with wrong arguments [`Metrics::argument_problems`] keeps; the
/// count of all of them is `attribution.argument_problems`.
pub(crate) const ARGUMENT_PROBLEMS_KEPT: usize = 50;

/// One graded trial of one task.
#[derive(Clone, Debug)]
pub(crate) struct Observation<'a> {
    pub task: &'a Task,
    pub trial: u32,
    /// The tool called (`None` for no call or an error).
    pub called: Option<String>,
    pub graded: Graded,
    pub text: Option<String>,
}

impl Metrics {
    /// The metrics of `obs` over the catalog's `tools`: rates, outcome counts, errors by
    /// cause, the failure buckets, the confusion matrix, per-tool rates and the most-confused
    /// pairs.
    pub(crate) fn compute(tools: &[String], obs: &[Observation]) -> Metrics {
        let mut m = Metrics {
            n: obs.len() as u64,
            ..Default::default()
        };
        rates(&mut m, obs);
        outcomes(&mut m, obs);
        errors(&mut m, obs);
        m.attribution = attribution(&m, obs);
        let mut labels: Vec<String> = tools.to_vec();
        labels.push(NONE.into());
        m.labels = labels;
        m.confusion = matrix(obs);
        m.per_tool = per_tool(tools, obs);
        m.most_confused = most_confused(obs);
        m
    }
}

#[cfg(test)]
impl Metrics {
    /// The per-tool entry for `tool`.
    pub(crate) fn tool(&self, tool: &str) -> Option<&ToolMetrics> {
        self.per_tool.iter().find(|t| t.tool == tool)
    }
}

fn count(obs: &[Observation], f: &dyn Fn(&Observation) -> bool) -> u64 {
    obs.iter().filter(|o| f(o)).count() as u64
}

fn correct(o: &Observation) -> bool {
    o.graded.outcome == Outcome::Correct
}

/// Every rate over trials is clustered by task (trials of one task are not independent);
/// with one trial per task it is the plain Wilson interval.
fn within(
    obs: &[Observation],
    among: &dyn Fn(&Observation) -> bool,
    hit: &dyn Fn(&Observation) -> bool,
) -> Rate {
    Rate::clustered_by(obs, |o| o.task.id.as_str(), among, hit)
}

/// A right-tool call whose arguments were invalid or wrong.
fn wrong_arguments(o: &Observation) -> bool {
    o.graded.outcome == Outcome::Correct
        && (o.graded.args_valid == Some(false) || o.graded.args_correct == Some(false))
}

/// Accuracy overall, by kind and by split; with several trials, pass^k and consistency;
/// abstention and argument rates.
fn rates(m: &mut Metrics, obs: &[Observation]) {
    let rate = |f: &dyn Fn(&Observation) -> bool| within(obs, f, &correct);
    m.accuracy = rate(&|_| true);
    if obs.iter().any(|o| o.trial > 0) {
        let mut per: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        for o in obs {
            let e = per.entry(o.task.id.as_str()).or_default();
            e.1 += 1;
            if correct(o) {
                e.0 += 1;
            }
        }
        let tasks = per.len() as u64;
        let all = per.values().filter(|(k, n)| k == n).count() as u64;
        m.pass_all = Some(Rate::new(all, tasks));
        let agree = per.values().filter(|(k, n)| *k == 0 || k == n).count() as u64;
        m.consistency = Some(Rate::new(agree, tasks));
    }
    for kind in Kind::ALL {
        if count(obs, &|o| o.task.kind == kind) > 0 {
            m.by_kind
                .insert(kind.as_str().into(), rate(&|o| o.task.kind == kind));
        }
    }
    for (split, name) in [
        (crate::tasks::Split::Dev, "dev"),
        (crate::tasks::Split::Heldout, "heldout"),
    ] {
        if count(obs, &|o| o.task.split == split) > 0 {
            m.by_split
                .insert(name.into(), rate(&|o| o.task.split == split));
        }
    }
    let no_call = |o: &Observation| o.called.is_none() && o.graded.outcome != Outcome::Error;
    m.abstention_precision = within(obs, &no_call, &|o| o.task.expected.is_none());
    m.abstention_recall = within(obs, &|o| o.task.expected.is_none(), &no_call);
    m.args_valid = within(obs, &|o| o.graded.args_valid.is_some(), &|o| {
        o.graded.args_valid == Some(true)
    });
    m.args_correct = within(obs, &|o| o.graded.args_correct.is_some(), &|o| {
        o.graded.args_correct == Some(true)
    });
}

/// Outcomes counted, and the first right-tool calls with wrong arguments.
fn outcomes(m: &mut Metrics, obs: &[Observation]) {
    let outcome = |k: Outcome| count(obs, &|o| o.graded.outcome == k);
    m.confusions = outcome(Outcome::Confused);
    m.missed_calls = outcome(Outcome::Missed);
    m.false_calls = outcome(Outcome::FalseCall);
    m.unasked_writes = outcome(Outcome::UnaskedWrite);
    m.unasked_unannotated = outcome(Outcome::UnannotatedCall);
    m.errors = outcome(Outcome::Error);
    m.argument_problems = obs
        .iter()
        .filter(|o| wrong_arguments(o))
        .take(ARGUMENT_PROBLEMS_KEPT)
        .map(|o| ArgumentProblem {
            task_id: o.task.id.clone(),
            tool: o.called.clone().unwrap_or_default(),
            layer: super::grade::args_layer(&o.graded),
            problems: o.graded.notes.iter().take(5).cloned().collect(),
        })
        .collect();
}

/// The error rate, errors by cause, and the first error's text.
fn errors(m: &mut Metrics, obs: &[Observation]) {
    m.error_rate = within(obs, &|_| true, &|o| o.graded.outcome == Outcome::Error);
    for o in obs.iter().filter(|o| o.graded.outcome == Outcome::Error) {
        let text = o
            .graded
            .notes
            .first()
            .map(String::as_str)
            .unwrap_or("error");
        // Typed where the error happened (or where an untyped file was read): counted by
        // kind, or by the message's first line where a label would say less.
        let cause = o
            .graded
            .error_kind
            .and_then(crate::models::ErrorKind::label)
            .unwrap_or_else(|| first_line(text));
        *m.errors_by_cause.entry(cause).or_default() += 1;
        if m.first_error.is_none() {
            m.first_error = Some(text.chars().take(1000).collect());
        }
    }
}

/// Every failure in one bucket (from the counts already in `m`).
fn attribution(m: &Metrics, obs: &[Observation]) -> Attribution {
    Attribution {
        description_confusion: m.confusions,
        argument_problems: count(obs, &wrong_arguments),
        unasked_writes: m.unasked_writes + m.unasked_unannotated,
        model_mechanics: m.errors,
        no_call: m.missed_calls,
        false_call: m.false_calls,
        no_call_replies: obs
            .iter()
            .filter(|o| o.graded.outcome == Outcome::Missed)
            .filter_map(|o| {
                o.text
                    .clone()
                    .map(|t| (o.task.id.clone(), t.chars().take(200).collect()))
            })
            .take(5)
            .collect(),
    }
}

/// The confusion matrix: rows the expected tool or (no call), columns the tool called, (no
/// call) or (error).
fn matrix(obs: &[Observation]) -> BTreeMap<String, BTreeMap<String, u64>> {
    let mut confusion: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    for o in obs {
        let row = o.task.expected_tool().unwrap_or(NONE).to_string();
        let col = if o.graded.outcome == Outcome::Error {
            ERROR.to_string()
        } else {
            o.called.clone().unwrap_or_else(|| NONE.into())
        };
        *confusion.entry(row).or_default().entry(col).or_default() += 1;
    }
    confusion
}

/// Recall, precision and F1 per tool. Observations are grouped by expected and by called tool
/// in one pass, so the cost is tools + observations, not their product.
fn per_tool(tools: &[String], obs: &[Observation]) -> Vec<ToolMetrics> {
    let mut expecting_of: std::collections::HashMap<&str, Vec<&Observation>> =
        std::collections::HashMap::new();
    // Per called tool, per task: (right calls, calls), for a precision clustered by task.
    let mut calls_of: std::collections::HashMap<&str, BTreeMap<&str, (u64, u64)>> =
        std::collections::HashMap::new();
    for o in obs {
        if let Some(t) = o.task.expected_tool() {
            expecting_of.entry(t).or_default().push(o);
        }
        if let Some(c) = o.called.as_deref() {
            let e = calls_of
                .entry(c)
                .or_default()
                .entry(o.task.id.as_str())
                .or_default();
            e.1 += 1;
            e.0 += u64::from(correct(o) && o.task.expected.is_some());
        }
    }
    let mut out = Vec::with_capacity(tools.len());
    for t in tools {
        let expecting: &[&Observation] = expecting_of.get(t.as_str()).map_or(&[], Vec::as_slice);
        let mut per: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        for o in expecting {
            let e = per.entry(o.task.id.as_str()).or_default();
            e.1 += 1;
            if correct(o) {
                e.0 += 1;
            }
        }
        let recall = Rate::clustered(&per.into_values().collect::<Vec<_>>());
        let precision = calls_of.get(t.as_str()).map_or_else(
            || Rate::new(0, 0),
            |per| Rate::clustered(&per.values().copied().collect::<Vec<_>>()),
        );
        let f1 = if precision.value + recall.value > 0.0 {
            2.0 * precision.value * recall.value / (precision.value + recall.value)
        } else {
            0.0
        };
        out.push(ToolMetrics {
            tool: t.clone(),
            support: expecting.len() as u64,
            recall,
            precision,
            f1,
            accuracy: recall,
        });
    }
    out
}

/// The ten most-confused pairs (confusions, missed calls, false calls and unasked writes),
/// each with up to five example requests.
fn most_confused(obs: &[Observation]) -> Vec<ConfusedPair> {
    let mut pairs: BTreeMap<(String, String), ConfusedPair> = BTreeMap::new();
    for o in obs {
        if !matches!(
            o.graded.outcome,
            Outcome::Confused
                | Outcome::Missed
                | Outcome::FalseCall
                | Outcome::UnaskedWrite
                | Outcome::UnannotatedCall
        ) {
            continue;
        }
        let exp = o.task.expected_tool().unwrap_or(NONE).to_string();
        let got = o.called.clone().unwrap_or_else(|| NONE.into());
        let p = pairs
            .entry((exp.clone(), got.clone()))
            .or_insert(ConfusedPair {
                expected: exp,
                called: got,
                count: 0,
                examples: vec![],
            });
        p.count += 1;
        if p.examples.len() < 5 && !p.examples.iter().any(|(id, _)| id == &o.task.id) {
            p.examples.push((o.task.id.clone(), o.task.request.clone()));
        }
    }
    let mut pairs: Vec<ConfusedPair> = pairs.into_values().collect();
    pairs.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then(a.expected.cmp(&b.expected))
            .then(a.called.cmp(&b.called))
    });
    pairs.truncate(10);
    pairs
}

#[cfg(test)]
#[path = "metrics_tests.rs"]
mod tests;

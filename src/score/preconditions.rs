//! Observed preconditions of multi-step runs: tools called before the intended one.

use std::collections::BTreeMap;

use super::Rate;
pub(crate) use crate::record::scores::Precondition;
use crate::tasks::Task;

/// One trial's calls in order, each with the reply it was made in (`None`: its own step).
pub(crate) type Calls = Vec<(String, Option<u32>)>;

/// Share of trials at which an unmentioned precondition is reported as undeclared.
pub(crate) const UNDECLARED_AT: f64 = 0.3;

/// Observed preconditions from multi-step decisions: for each task whose intended tool was
/// called at some step, the distinct tools called in an earlier reply. Each call comes with
/// the reply it was made in (`None` in replayed logs, where each call is its own step): calls
/// of the reply that made the intended call were made beside it, in parallel, and are never
/// its preconditions.
pub(crate) fn preconditions(
    obs: &[(&Task, Calls)],
    description_of: &dyn Fn(&str) -> String,
) -> Vec<Precondition> {
    let mut n: BTreeMap<String, u64> = BTreeMap::new();
    let mut k: BTreeMap<(String, String), u64> = BTreeMap::new();
    for (task, steps) in obs {
        let Some(exp) = &task.expected else { continue };
        let Some(at) = steps.iter().position(|(s, _)| exp.accepts(s)) else {
            continue;
        };
        let (tool, turn) = &steps[at];
        *n.entry(tool.clone()).or_default() += 1;
        let mut before: Vec<&String> = steps[..at]
            .iter()
            .filter(|(s, t)| s != tool && !(t.is_some() && t == turn))
            .map(|(s, _)| s)
            .collect();
        before.sort();
        before.dedup();
        for b in before {
            *k.entry((b.clone(), tool.clone())).or_default() += 1;
        }
    }
    let mut out: Vec<Precondition> = k
        .into_iter()
        .map(|((before, tool), count)| {
            let rate = Rate::new(count, n.get(&tool).copied().unwrap_or(count));
            let declared = crate::text::mentions(&description_of(&tool), &before);
            Precondition {
                undeclared: !declared && rate.value >= UNDECLARED_AT,
                before,
                tool,
                rate,
                declared,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.rate
            .value
            .total_cmp(&a.rate.value)
            .then(a.tool.cmp(&b.tool))
            .then(a.before.cmp(&b.before))
    });
    out
}

//! Before/after comparison of two runs on the tasks both ran: per-tool and overall deltas,
//! each with an exact paired McNemar test, Bonferroni-corrected across everything compared,
//! and a plain statement when n is too small to reach a verdict.

use std::collections::{BTreeMap, HashMap};

use super::stats::{Rate, bonferroni, mcnemar_exact, mcnemar_floor};
pub(crate) use crate::record::scores::compare::{Delta, ModelComparison, Verdict};
use crate::score::{Outcome, OutcomeLine};

impl Verdict {
    /// Better or worse at the corrected significance level.
    pub(crate) fn is_significant(self) -> bool {
        matches!(self, Verdict::Better | Verdict::Worse)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::out::wire_name(self))
    }
}

/// `(base correct, head correct)` for each trial of one task.
type Trials = Vec<(bool, bool)>;
/// Paired outcomes grouped by task.
type TaskPairs = Vec<Trials>;

fn delta(label: &str, tasks: &TaskPairs, m: usize, alpha: f64) -> Delta {
    // Trials of one task are not independent: rates are clustered by task and the exact test
    // counts tasks, each discordant when its share of correct trials differs. With one trial
    // per task this is the plain McNemar test on trials.
    let per = |side: fn(&(bool, bool)) -> bool| -> Vec<(u64, u64)> {
        tasks
            .iter()
            .map(|t| (t.iter().filter(|p| side(p)).count() as u64, t.len() as u64))
            .collect()
    };
    let (bper, hper) = (per(|p| p.0), per(|p| p.1));
    let only_base = bper.iter().zip(&hper).filter(|(b, h)| b.0 > h.0).count() as u64;
    let only_head = bper.iter().zip(&hper).filter(|(b, h)| h.0 > b.0).count() as u64;
    let p = mcnemar_exact(only_base, only_head);
    let p_adjusted = bonferroni(p, m);
    let (base, head) = (Rate::clustered(&bper), Rate::clustered(&hper));
    let verdict = if p_adjusted < alpha {
        if only_head > only_base {
            Verdict::Better
        } else {
            Verdict::Worse
        }
    } else if bonferroni(mcnemar_floor(only_base + only_head), m) >= alpha {
        Verdict::TooFewPairs
    } else {
        Verdict::NoSignificantChange
    };
    Delta {
        label: label.into(),
        delta: head.value - base.value,
        base,
        head,
        only_base,
        only_head,
        p,
        p_adjusted,
        verdict,
    }
}

/// Compares one model's outcomes in two runs.
pub(crate) fn compare(
    base_model: &str,
    base: &[OutcomeLine],
    head_model: &str,
    head: &[OutcomeLine],
    alpha: f64,
) -> ModelComparison {
    let key = |o: &OutcomeLine| (o.task_id.clone(), o.trial);
    let head_by: HashMap<(String, u32), &OutcomeLine> = head
        .iter()
        .filter(|o| o.model == head_model)
        .map(|o| (key(o), o))
        .collect();
    let mut by_task: BTreeMap<&str, (String, Trials)> = BTreeMap::new();
    let mut shared = 0;
    for b in base.iter().filter(|o| o.model == base_model) {
        let Some(h) = head_by.get(&key(b)) else {
            continue;
        };
        shared += 1;
        let pair = (b.outcome == Outcome::Correct, h.outcome == Outcome::Correct);
        let label = b.expected.clone().unwrap_or_else(|| "(no tool)".into());
        by_task
            .entry(b.task_id.as_str())
            .or_insert_with(|| (label, Vec::new()))
            .1
            .push(pair);
    }
    let all: TaskPairs = by_task.values().map(|(_, p)| p.clone()).collect();
    let mut groups: BTreeMap<String, TaskPairs> = BTreeMap::new();
    for (label, pairs) in by_task.into_values() {
        groups.entry(label).or_default().push(pairs);
    }
    let m = 1 + groups.len();
    ModelComparison {
        base_model: base_model.into(),
        head_model: head_model.into(),
        shared,
        shared_tasks: all.len(),
        overall: delta("overall", &all, m, alpha),
        per_tool: groups
            .iter()
            .map(|(label, pairs)| delta(label, pairs, m, alpha))
            .collect(),
        comparisons: m,
        alpha,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Kind;

    fn line(id: &str, tool: &str, ok: bool) -> OutcomeLine {
        OutcomeLine {
            model: "m".into(),
            task_id: id.into(),
            trial: 0,
            kind: Kind::Direct,
            expected: Some(tool.into()),
            called: None,
            outcome: if ok {
                Outcome::Correct
            } else {
                Outcome::Confused
            },
            args_correct: None,
        }
    }

    #[test]
    fn pairs_on_shared_tasks_and_corrects_for_multiple_tests() {
        let mut base = Vec::new();
        let mut head = Vec::new();
        for i in 0..20 {
            base.push(line(&format!("a{i}"), "a", false));
            head.push(line(&format!("a{i}"), "a", true));
        }
        for i in 0..3 {
            base.push(line(&format!("b{i}"), "b", true));
            head.push(line(&format!("b{i}"), "b", false));
        }
        base.push(line("only-in-base", "a", true));
        let c = compare("m", &base, "m", &head, 0.05);
        assert_eq!(c.shared, 23);
        assert_eq!(c.comparisons, 3);
        assert_eq!((c.overall.only_base, c.overall.only_head), (3, 20));
        assert_eq!(c.overall.verdict, Verdict::Better);
        let a = c.per_tool.iter().find(|d| d.label == "a").unwrap();
        assert_eq!(a.verdict, Verdict::Better);
        assert!((a.p_adjusted - 3.0 * 2.0 * 0.5f64.powi(20)).abs() < 1e-12);
        let b = c.per_tool.iter().find(|d| d.label == "b").unwrap();
        assert_eq!(b.verdict, Verdict::TooFewPairs);
    }

    #[test]
    fn trials_of_one_task_are_one_pair() {
        // 5 tasks flipped, each seen in 4 identical trials: 5 discordant tasks, not 20 pairs.
        let (mut base, mut head) = (Vec::new(), Vec::new());
        for i in 0..5 {
            for t in 0..4 {
                let mut b = line(&format!("a{i}"), "a", false);
                b.trial = t;
                let mut h = line(&format!("a{i}"), "a", true);
                h.trial = t;
                base.push(b);
                head.push(h);
            }
        }
        let c = compare("m", &base, "m", &head, 0.05);
        assert_eq!(c.shared, 20);
        assert_eq!((c.overall.only_base, c.overall.only_head), (0, 5));
        assert_eq!(c.overall.verdict, Verdict::TooFewPairs);
        assert_eq!(c.overall.head.n, 20);
    }
}

//! Before/after comparison of two runs on the tasks both ran: per-tool and overall deltas,
//! each with an exact paired McNemar test, Bonferroni-corrected across everything compared,
//! and a plain statement when n is too small to reach a verdict.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::stats::{Rate, bonferroni, mcnemar_exact, mcnemar_floor};
use crate::score::{Outcome, OutcomeLine};

/// What a paired test says about a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    #[serde(rename = "better")]
    Better,
    #[serde(rename = "worse")]
    Worse,
    #[serde(rename = "no significant change")]
    NoSignificantChange,
    /// So few tasks changed outcome that no result could reach significance.
    #[serde(rename = "too few discordant pairs")]
    TooFewPairs,
}

impl Verdict {
    /// Better or worse at the corrected significance level.
    pub fn is_significant(self) -> bool {
        matches!(self, Verdict::Better | Verdict::Worse)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::out::wire_name(self))
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Delta {
    /// `overall`, a tool name, or `(no tool)`.
    pub label: String,
    pub base: Rate,
    pub head: Rate,
    /// head − base, in rate units.
    pub delta: f64,
    /// Pairs only the base got right.
    pub only_base: u64,
    /// Pairs only the head got right.
    pub only_head: u64,
    pub p: f64,
    /// Bonferroni-corrected p.
    pub p_adjusted: f64,
    pub verdict: Verdict,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelComparison {
    pub base_model: String,
    pub head_model: String,
    /// Task × trial pairs both runs have.
    pub shared: usize,
    pub overall: Delta,
    pub per_tool: Vec<Delta>,
    pub comparisons: usize,
    pub alpha: f64,
}

fn delta(label: &str, pairs: &[(bool, bool)], m: usize, alpha: f64) -> Delta {
    let n = pairs.len() as u64;
    let base_k = pairs.iter().filter(|p| p.0).count() as u64;
    let head_k = pairs.iter().filter(|p| p.1).count() as u64;
    let only_base = pairs.iter().filter(|p| p.0 && !p.1).count() as u64;
    let only_head = pairs.iter().filter(|p| !p.0 && p.1).count() as u64;
    let p = mcnemar_exact(only_base, only_head);
    let p_adjusted = bonferroni(p, m);
    let (base, head) = (Rate::new(base_k, n), Rate::new(head_k, n));
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
pub fn compare(
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
    let mut all: Vec<(bool, bool)> = Vec::new();
    let mut groups: BTreeMap<String, Vec<(bool, bool)>> = BTreeMap::new();
    for b in base.iter().filter(|o| o.model == base_model) {
        let Some(h) = head_by.get(&key(b)) else {
            continue;
        };
        let pair = (b.outcome == Outcome::Correct, h.outcome == Outcome::Correct);
        all.push(pair);
        let label = b.expected.clone().unwrap_or_else(|| "(no tool)".into());
        groups.entry(label).or_default().push(pair);
    }
    let m = 1 + groups.len();
    ModelComparison {
        base_model: base_model.into(),
        head_model: head_model.into(),
        shared: all.len(),
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
}

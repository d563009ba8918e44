//! Retrieval metrics, for hosts that pre-select tools by search before the model sees them:
//! given each task's ranked candidate list (a ranking model's top [`DEPTH`]) and its expected
//! tool, recall@1/3/5/10 (Wilson intervals), MRR@10 and nDCG@10 (t intervals), overall and per
//! expected tool. Tasks that expect no tool have nothing to retrieve and are left out.
//!
//! With one relevant tool per task, nDCG@10 is `1 / log2(rank + 1)` when the tool is ranked
//! within 10 and 0 otherwise (the ideal DCG is 1), and the reciprocal rank is `1 / rank`
//! within 10 and 0 otherwise.

use std::collections::BTreeMap;

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::Rate;
pub(crate) use crate::record::scores::retrieval::{
    CUTOFFS, DEPTH, Mean, Retrieval, RetrievalScores,
};

impl Mean {
    pub(crate) fn of(values: &[f64]) -> Self {
        let n = values.len();
        if n == 0 {
            return Mean::default();
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        if n < 2 {
            return Mean {
                n: n as u64,
                value: mean,
                lo: 0.0,
                hi: 1.0,
            };
        }
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let t = StudentsT::new(0.0, 1.0, (n - 1) as f64)
            .map(|d| d.inverse_cdf(0.975))
            .unwrap_or(1.96);
        let half = t * (var / n as f64).sqrt();
        Mean {
            n: n as u64,
            value: mean,
            lo: (mean - half).max(0.0),
            hi: (mean + half).min(1.0),
        }
    }

    pub(crate) fn show(&self) -> String {
        format!(
            "{:.3} [{:.3}, {:.3}] (n={})",
            self.value, self.lo, self.hi, self.n
        )
    }
}

/// The 1-based rank of `expected` in `ranking`, within [`DEPTH`].
pub(crate) fn rank_of(expected: &str, ranking: &[String]) -> Option<usize> {
    ranking
        .iter()
        .take(DEPTH)
        .position(|t| t == expected)
        .map(|i| i + 1)
}

fn scores(ranks: &[Option<usize>]) -> RetrievalScores {
    let n = ranks.len() as u64;
    let recall = CUTOFFS
        .iter()
        .map(|&k| {
            let hits = ranks.iter().filter(|r| r.is_some_and(|r| r <= k)).count() as u64;
            (k, Rate::new(hits, n))
        })
        .collect();
    let rr: Vec<f64> = ranks
        .iter()
        .map(|r| r.map_or(0.0, |r| 1.0 / r as f64))
        .collect();
    let gain: Vec<f64> = ranks
        .iter()
        .map(|r| r.map_or(0.0, |r| 1.0 / ((r + 1) as f64).log2()))
        .collect();
    RetrievalScores {
        recall,
        mrr: Mean::of(&rr),
        ndcg: Mean::of(&gain),
    }
}

/// Scores `(expected tool, ranking)` pairs, one per task decision that expects a tool.
#[cfg(test)]
pub(crate) fn score<'a>(items: impl IntoIterator<Item = (&'a str, &'a [String])>) -> Retrieval {
    score_ranks(
        items
            .into_iter()
            .map(|(expected, ranking)| (expected, rank_of(expected, ranking))),
    )
}

/// [`score`] from each decision's expected tool and its [`rank_of`] (so rankings need not be
/// kept until scoring).
pub(crate) fn score_ranks<'a>(
    items: impl IntoIterator<Item = (&'a str, Option<usize>)>,
) -> Retrieval {
    let mut all = Vec::new();
    let mut by_tool: BTreeMap<&str, Vec<Option<usize>>> = BTreeMap::new();
    for (expected, r) in items {
        all.push(r);
        by_tool.entry(expected).or_default().push(r);
    }
    Retrieval {
        overall: scores(&all),
        per_tool: by_tool
            .iter()
            .map(|(t, r)| (t.to_string(), scores(r)))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn hand_computed_example() {
        // Ranks 1, 2, 4 and missing.
        let rankings = [
            ("a", list(&["a", "b", "c"])),
            ("b", list(&["a", "b", "c"])),
            ("c", list(&["a", "b", "x", "c"])),
            ("d", list(&["a", "b", "c"])),
        ];
        let r = score(rankings.iter().map(|(e, l)| (*e, l.as_slice())));
        let o = &r.overall;
        assert_eq!(o.recall[&1].k, 1);
        assert_eq!(o.recall[&3].k, 2);
        assert_eq!(o.recall[&5].k, 3);
        assert_eq!(o.recall[&10].n, 4);
        let mrr = (1.0 + 0.5 + 0.25 + 0.0) / 4.0;
        assert!((o.mrr.value - mrr).abs() < 1e-12);
        let ndcg = (1.0 + 1.0 / 3f64.log2() + 1.0 / 5f64.log2()) / 4.0;
        assert!((o.ndcg.value - ndcg).abs() < 1e-12);
        assert!(o.mrr.lo <= o.mrr.value && o.mrr.value <= o.mrr.hi);
        assert_eq!(r.per_tool["c"].recall[&3].k, 0);
        assert_eq!(r.per_tool["c"].recall[&5].k, 1);
    }

    #[test]
    fn the_t_interval_matches_a_reference() {
        // mean 0.5, sd 0.5345 (n=8: four 1s, four 0s → s² = 2/7), t(7, .975) = 2.3646.
        let m = Mean::of(&[1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
        let half = 2.364_624 * (2.0f64 / 7.0 / 8.0).sqrt();
        assert!((m.lo - (0.5 - half)).abs() < 1e-5, "{m:?}");
        assert!((m.hi - (0.5 + half)).abs() < 1e-5, "{m:?}");
        assert_eq!(rank_of("z", &list(&["a"; 12])), None);
    }
}

//! Statistics for honest numbers: Wilson score intervals for every rate, the exact McNemar test
//! for paired before/after comparisons, and the Bonferroni correction.

pub(crate) use crate::record::scores::Rate;
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal};

impl Rate {
    /// The share of `items` inside `among` for which `hit` holds, clustered by `cluster` (a
    /// task id: trials of one task are not independent).
    pub(crate) fn clustered_by<'a, T>(
        items: &'a [T],
        cluster: impl Fn(&'a T) -> &'a str,
        among: &dyn Fn(&T) -> bool,
        hit: &dyn Fn(&T) -> bool,
    ) -> Rate {
        let mut per: std::collections::BTreeMap<&str, (u64, u64)> = Default::default();
        for x in items.iter().filter(|x| among(x)) {
            let e = per.entry(cluster(x)).or_default();
            e.1 += 1;
            e.0 += u64::from(hit(x));
        }
        Rate::clustered(&per.into_values().collect::<Vec<_>>())
    }

    pub(crate) fn new(k: u64, n: u64) -> Self {
        let (lo, hi) = wilson(k, n);
        Rate {
            k,
            n,
            value: if n == 0 { 0.0 } else { k as f64 / n as f64 },
            lo,
            hi,
        }
    }

    /// `0.83 [0.75, 0.89] (n=120)` style text, as percentages.
    pub(crate) fn show(&self) -> String {
        if self.n == 0 {
            return "n/a (n=0)".into();
        }
        format!(
            "{:.1}% [{:.1}, {:.1}] (n={})",
            self.value * 100.0,
            self.lo * 100.0,
            self.hi * 100.0,
            self.n
        )
    }
}

impl Rate {
    /// A rate over tasks run several times each: `(correct trials, trials)` per task. The
    /// trials of one task are not independent samples, so the interval is a Wilson interval
    /// at the cluster-robust effective sample size (between the number of tasks and the
    /// number of trials); with one trial per task it is exactly [`Rate::new`].
    pub(crate) fn clustered(per_task: &[(u64, u64)]) -> Self {
        let k: u64 = per_task.iter().map(|t| t.0).sum();
        let n: u64 = per_task.iter().map(|t| t.1).sum();
        let tasks = per_task.iter().filter(|t| t.1 > 0).count() as f64;
        if n == 0 || per_task.iter().all(|t| t.1 <= 1) {
            return Rate::new(k, n);
        }
        let p = k as f64 / n as f64;
        // Variance of the ratio estimator with tasks as clusters.
        let ss: f64 = per_task
            .iter()
            .map(|(ki, mi)| (*ki as f64 - p * *mi as f64).powi(2))
            .sum();
        let var = if tasks > 1.0 {
            tasks / (tasks - 1.0) * ss / (n as f64).powi(2)
        } else {
            0.0
        };
        let n_eff = if var > 0.0 && p > 0.0 && p < 1.0 {
            (p * (1.0 - p) / var).clamp(tasks, n as f64)
        } else {
            tasks
        };
        let (lo, hi) = wilson_p(p, n_eff);
        Rate {
            k,
            n,
            value: p,
            lo,
            hi,
        }
    }
}

fn z975() -> f64 {
    Normal::standard().inverse_cdf(0.975)
}

/// The significance level of every paired test unless the policy says otherwise
/// (`GatePolicy::alpha`, `--alpha`, `[ci] alpha`).
pub(crate) const DEFAULT_ALPHA: f64 = 0.05;

/// `--alpha`: a significance level strictly between 0 and 1.
pub(crate) fn alpha(flag: &str, v: f64) -> Result<f64, String> {
    if v > 0.0 && v < 1.0 {
        Ok(v)
    } else {
        Err(format!("{flag} must be between 0 and 1, not {v}"))
    }
}

/// Wilson score interval at 95% for k successes in n trials; (0, 1) when n is 0.
pub(crate) fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    wilson_p(k as f64 / n as f64, n as f64)
}

/// Wilson score interval at 95% for a proportion `p` at a (possibly effective) sample size.
pub(crate) fn wilson_p(p: f64, n_f: f64) -> (f64, f64) {
    if n_f <= 0.0 {
        return (0.0, 1.0);
    }
    let z = z975();
    let denom = 1.0 + z * z / n_f;
    let centre = (p + z * z / (2.0 * n_f)) / denom;
    let half = z * ((p * (1.0 - p) / n_f) + z * z / (4.0 * n_f * n_f)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Two-sided exact McNemar p-value from the discordant counts: `b` pairs only A got right,
/// `c` pairs only B got right. 1.0 when there are no discordant pairs.
pub(crate) fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    match Binomial::new(0.5, n) {
        Ok(bin) => (2.0_f64 * bin.cdf(b.min(c))).min(1.0),
        Err(_) => 1.0,
    }
}

/// The smallest p-value an exact McNemar test can reach with `n` discordant pairs.
pub(crate) fn mcnemar_floor(n: u64) -> f64 {
    mcnemar_exact(0, n)
}

/// Bonferroni-corrected p-value for one of `m` comparisons.
pub(crate) fn bonferroni(p: f64, m: usize) -> f64 {
    (p * m.max(1) as f64).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trials_of_a_deterministic_model_count_once() {
        // 24 tasks, 7 solved, 3 identical trials each: the interval is the one of n=24.
        let per: Vec<(u64, u64)> = (0..24)
            .map(|i| if i < 7 { (3, 3) } else { (0, 3) })
            .collect();
        let r = Rate::clustered(&per);
        let plain = Rate::new(7, 24);
        assert_eq!((r.k, r.n), (21, 72));
        assert!(
            (r.lo - plain.lo).abs() < 1e-9 && (r.hi - plain.hi).abs() < 1e-9,
            "{r:?} vs {plain:?}"
        );
        // Independent-looking trials approach the n=72 interval.
        let mixed: Vec<(u64, u64)> = (0..24)
            .map(|i| (if i % 3 == 0 { 2 } else { 1 }, 3))
            .collect();
        let m = Rate::clustered(&mixed);
        assert!(m.hi - m.lo < plain.hi - plain.lo);
        assert_eq!(Rate::clustered(&[(1, 1), (0, 1)]), Rate::new(1, 2));
    }

    #[test]
    fn wilson_matches_known_values() {
        // Known: 8/10 → [0.490, 0.943]; 0/10 → [0, 0.278]; 50/100 → [0.404, 0.596].
        let (lo, hi) = wilson(8, 10);
        assert!(
            (lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 10);
        assert!(lo.abs() < 1e-12 && (hi - 0.2775).abs() < 1e-3);
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
    }

    #[test]
    fn mcnemar_exact_matches_the_binomial() {
        // b=0, c=6: p = 2 * 0.5^6 = 0.03125
        assert!((mcnemar_exact(0, 6) - 0.03125).abs() < 1e-9);
        assert!((mcnemar_exact(6, 0) - 0.03125).abs() < 1e-9);
        // b=2, c=8: 2 * P(X<=2 | n=10) = 2 * 56/1024
        assert!((mcnemar_exact(2, 8) - 112.0 / 1024.0).abs() < 1e-9);
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert!(mcnemar_floor(5) > 0.05 && mcnemar_floor(6) < 0.05);
        assert_eq!(bonferroni(0.02, 3), 0.06);
        assert_eq!(bonferroni(0.5, 3), 1.0);
    }
}

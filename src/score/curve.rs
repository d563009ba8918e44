//! The distractor curve's statistics: each point's accuracy (the run's headline metric, tool
//! accuracy, with its 95% Wilson interval and n), a one-sided exact paired test of each point
//! against the same tasks with no distractors (the sign test on discordant tasks, i.e. an exact
//! McNemar test), and the breaking point: the first size whose accuracy is significantly below
//! the no-distractor accuracy. The types here are what run.json records (`curve`).

use std::collections::BTreeMap;

use statrs::distribution::{Binomial, DiscreteCDF};

use super::compare::compare;
use super::stats::Rate;
pub(crate) use crate::record::scores::curve::{Curve, Draw, DrawOrder, Point, Series};
use crate::score::{Outcome, OutcomeLine};

/// The tests' significance level (a curve's own is the policy's, in `Curve::alpha`).
#[cfg(test)]
const ALPHA: f64 = super::stats::DEFAULT_ALPHA;

impl Draw {
    pub(crate) const ALL: [Draw; 2] = [Draw::Random, Draw::Nearest];

    pub(crate) fn label(self) -> &'static str {
        match self {
            Draw::Random => "random",
            Draw::Nearest => "nearest-first",
        }
    }
}

impl Curve {
    /// "50 tools" or "none up to 479 tools", for a series.
    pub(crate) fn breaking_text(&self, s: &Series) -> String {
        match s.breaking_point {
            Some(size) => {
                let p = s.points.iter().find(|p| p.size == size).map(|p| p.p);
                format!(
                    "{size} distractor tools{}",
                    p.map(|p| format!(
                        " (p {})",
                        if p < 0.001 {
                            p_text(p)
                        } else {
                            format!("= {}", p_text(p))
                        }
                    ))
                    .unwrap_or_default()
                )
            }
            None => format!(
                "none up to {} distractor tools",
                s.points.last().map_or(0, |p| p.size)
            ),
        }
    }
}

/// A p-value for people: `0.003`, `< 0.001`.
pub(crate) fn p_text(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".into()
    } else {
        format!("{p:.3}")
    }
}

/// One-sided exact p that a change is for the worse: `lost` tasks went from right to wrong and
/// `gained` from wrong to right; under no change each discordant task is a fair coin, so p is
/// P(X ≥ lost) for X ~ Binomial(lost + gained, ½). When `lost > gained` this is half the
/// two-sided exact McNemar p of [`super::stats::mcnemar_exact`].
pub(crate) fn p_worse(lost: u64, gained: u64) -> f64 {
    let n = lost + gained;
    if n == 0 || lost == 0 {
        return 1.0;
    }
    match Binomial::new(0.5, n) {
        Ok(b) => b.sf(lost - 1).clamp(0.0, 1.0),
        Err(_) => 1.0,
    }
}

/// A model's tool accuracy over outcome lines, clustered by task (as the run's metrics are).
pub(crate) fn accuracy(lines: &[OutcomeLine], model: &str) -> Rate {
    let mut per: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for o in lines.iter().filter(|o| o.model == model) {
        let e = per.entry(o.task_id.as_str()).or_default();
        e.1 += 1;
        if o.outcome == Outcome::Correct {
            e.0 += 1;
        }
    }
    Rate::clustered(&per.into_values().collect::<Vec<_>>())
}

/// The point at `size` whose outcomes are `here`, paired on the same tasks with `base` (the
/// outcomes with no distractors).
pub(crate) fn point(
    model: &str,
    size: usize,
    base: &[OutcomeLine],
    here: &[OutcomeLine],
    alpha: f64,
) -> Point {
    // The paired comparison of `compare` (tasks as clusters, discordant tasks counted), read
    // one-sided: only a drop is a break.
    let c = compare(model, base, model, here, alpha);
    let (lost, gained) = (c.overall.only_base, c.overall.only_head);
    let p = p_worse(lost, gained);
    Point {
        size,
        accuracy: accuracy(here, model),
        lost,
        gained,
        p,
        below: p < alpha,
    }
}

/// A series from its points (in size order, size 0 first).
pub(crate) fn series(model: &str, draw: Draw, points: Vec<Point>) -> Series {
    let breaking_point = points
        .iter()
        .find(|p| p.size > 0 && p.below)
        .map(|p| p.size);
    Series {
        model: model.to_string(),
        draw,
        points,
        breaking_point,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::stats::mcnemar_exact;
    use crate::tasks::Kind;

    fn lines(model: &str, right: &[bool]) -> Vec<OutcomeLine> {
        right
            .iter()
            .enumerate()
            .map(|(i, ok)| OutcomeLine {
                model: model.into(),
                task_id: format!("t{i:02}"),
                trial: 0,
                kind: Kind::Direct,
                expected: Some("a".into()),
                called: None,
                outcome: if *ok {
                    Outcome::Correct
                } else {
                    Outcome::Confused
                },
                args_correct: None,
            })
            .collect()
    }

    #[test]
    fn the_one_sided_test_is_the_binomial_tail() {
        // 5 lost, 0 gained: (1/2)^5 = 0.03125 — the fewest discordant tasks that can break.
        assert!((p_worse(5, 0) - 0.03125).abs() < 1e-12);
        assert!((p_worse(4, 0) - 0.0625).abs() < 1e-12);
        // 8 lost, 2 gained: P(X ≥ 8 | n=10) = (45 + 10 + 1) / 1024.
        assert!((p_worse(8, 2) - 56.0 / 1024.0).abs() < 1e-12);
        assert!((p_worse(8, 2) - mcnemar_exact(8, 2) / 2.0).abs() < 1e-12);
        // 2 lost, 8 gained: P(X ≥ 2 | n=10) = 1 − 11/1024: better, not worse.
        assert!((p_worse(2, 8) - 1013.0 / 1024.0).abs() < 1e-12);
        assert_eq!(p_worse(0, 0), 1.0);
        assert_eq!(p_worse(0, 7), 1.0);
    }

    #[test]
    fn accuracy_has_its_wilson_interval_and_n() {
        let r = accuracy(
            &lines(
                "m",
                &[true, true, true, true, true, true, true, true, false, false],
            ),
            "m",
        );
        assert_eq!((r.k, r.n), (8, 10));
        // Known Wilson 95% interval of 8/10: [0.490, 0.943].
        assert!((r.lo - 0.4902).abs() < 1e-3 && (r.hi - 0.9433).abs() < 1e-3);
        assert_eq!(accuracy(&lines("m", &[true]), "other").n, 0);
    }

    #[test]
    fn the_breaking_point_is_the_first_significant_drop() {
        let base = lines("m", &[true; 12]);
        // 10: 4 tasks lost (p = 1/16, not significant); 50: 6 lost (1/64); 100: 12 lost.
        let at = |lost: usize| {
            let right: Vec<bool> = (0..12).map(|i| i >= lost).collect();
            lines("m", &right)
        };
        let points = vec![
            point("m", 0, &base, &base, ALPHA),
            point("m", 10, &base, &at(4), ALPHA),
            point("m", 50, &base, &at(6), ALPHA),
            point("m", 100, &base, &at(12), ALPHA),
        ];
        assert_eq!((points[0].p, points[0].below), (1.0, false));
        assert_eq!((points[1].lost, points[1].gained), (4, 0));
        assert!(!points[1].below && (points[1].p - 0.0625).abs() < 1e-12);
        assert!(points[2].below && (points[2].p - 1.0 / 64.0).abs() < 1e-12);
        assert_eq!(points[2].accuracy.k, 6);
        let s = series("m", Draw::Random, points);
        assert_eq!(s.breaking_point, Some(50));
    }

    #[test]
    fn the_policy_alpha_decides_a_break() {
        // 4 of 20 tasks lost: one-sided p = 1/16, a break at alpha 0.1, not at the default.
        let base: Vec<bool> = (0..20).map(|i| i < 10).collect();
        let here: Vec<bool> = (0..20).map(|i| (4..10).contains(&i)).collect();
        let (b, h) = (lines("m", &base), lines("m", &here));
        assert!(!point("m", 10, &b, &h, ALPHA).below);
        assert!(point("m", 10, &b, &h, 0.1).below);
    }

    #[test]
    fn swaps_that_cancel_out_do_not_break() {
        // 6 tasks lost and 6 gained: the accuracy is unchanged and nothing breaks.
        let base: Vec<bool> = (0..20).map(|i| i < 10).collect();
        let here: Vec<bool> = (0..20).map(|i| (4..16).contains(&i) ^ (i < 10)).collect();
        let p = point("m", 10, &lines("m", &base), &lines("m", &here), ALPHA);
        assert_eq!((p.lost, p.gained), (6, 6));
        assert!(!p.below);
        let s = series("m", Draw::Nearest, vec![p]);
        assert_eq!(s.breaking_point, None);
        let curve = Curve {
            metric: "score".into(),
            alpha: ALPHA,
            seed: 1,
            available: 10,
            sizes: vec![10],
            trials: 1,
            draws: vec![],
            series: vec![s.clone()],
            notes: vec![],
        };
        assert_eq!(curve.breaking_text(&s), "none up to 10 distractor tools");
    }
}

//! The ablation check's statistics: what a suite measures. The suite runs three times on the
//! same tasks: as the catalog is, with every description removed (names only), and with every
//! name neutralised (`tool_01`, …). Each ablated arm is paired with the full catalog task by
//! task (the exact one-sided sign test on discordant tasks of [`super::curve::point`]): a drop
//! is significant when p < alpha. A suite whose score does not drop without descriptions does
//! not measure them, whatever its headline says. The types here are what run.json records
//! (`ablation`).

use super::curve::p_worse;
use super::stats::Rate;
pub(crate) use crate::record::scores::curve::{Ablation, Arm, ArmResult};

impl Ablation {
    /// The models whose score does not drop significantly without descriptions: for them the
    /// suite does not measure the descriptions.
    pub(crate) fn blind_to_descriptions(&self) -> Vec<&ArmResult> {
        self.results
            .iter()
            .filter(|r| r.arm == Arm::NoDescriptions && !r.drops)
            .collect()
    }

    /// One line a reader can act on, for a model that is blind to descriptions.
    pub(crate) fn blind_text(r: &ArmResult) -> String {
        format!(
            "This suite does not measure the descriptions for `{}`: without them it scores {:.1}% against {:.1}% (p {}), so its score says how well the names and requests match, not how clear the descriptions are. Write requests in users' words (not the tools' names), or review an LLM-written suite.",
            r.model,
            r.accuracy.value * 100.0,
            r.full.value * 100.0,
            super::curve::p_text(r.p)
        )
    }
}

/// One arm paired with the full catalog, for one model: `full` and `ablated` say, for each task
/// of the suite (by position), whether the model's decision was right (`None`: no decision).
/// The numbers are those of pairing the arms' outcome lines task by task (one trial each): the
/// rates over the tasks each arm decided, the discordant tasks among those both decided.
pub(crate) fn arm_result(
    model: &str,
    arm: Arm,
    full: &[Option<bool>],
    ablated: &[Option<bool>],
    alpha: f64,
) -> ArmResult {
    let rate = |side: &[Option<bool>]| {
        let decided = side.iter().flatten();
        let right = decided.clone().filter(|r| **r).count() as u64;
        Rate::new(right, decided.count() as u64)
    };
    let (full_rate, accuracy) = (rate(full), rate(ablated));
    let pairs = full
        .iter()
        .zip(ablated)
        .filter_map(|(f, a)| Some(((*f)?, (*a)?)));
    let lost = pairs.clone().filter(|(f, a)| *f && !*a).count() as u64;
    let gained = pairs.filter(|(f, a)| !*f && *a).count() as u64;
    let p = p_worse(lost, gained);
    ArmResult {
        model: model.to_string(),
        arm,
        delta_pts: (accuracy.value - full_rate.value) * 100.0,
        full: full_rate,
        accuracy,
        lost,
        gained,
        p,
        drops: p < alpha,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::curve::{accuracy, point};
    use crate::score::{Outcome, OutcomeLine};
    use crate::tasks::Kind;

    fn lines(model: &str, right: &[bool]) -> Vec<OutcomeLine> {
        some_lines(model, &right.iter().map(|r| Some(*r)).collect::<Vec<_>>())
    }

    /// Outcome lines of the tasks decided (`Some`), task `t{i}` for position `i`.
    fn some_lines(model: &str, right: &[Option<bool>]) -> Vec<OutcomeLine> {
        right
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((i, (*r)?)))
            .map(|(i, r)| OutcomeLine {
                model: model.into(),
                task_id: format!("t{i}"),
                trial: 0,
                kind: Kind::Direct,
                expected: Some("a".into()),
                called: Some(if r { "a" } else { "b" }.into()),
                outcome: if r {
                    Outcome::Correct
                } else {
                    Outcome::Confused
                },
                args_correct: None,
            })
            .collect()
    }

    #[test]
    fn a_significant_drop_is_a_drop_and_no_drop_is_blindness() {
        let full = [Some(true); 20];
        let mut dropped = vec![Some(true); 10];
        dropped.extend([Some(false); 10]);
        let r = arm_result("bm25", Arm::NoDescriptions, &full, &dropped, 0.05);
        assert_eq!((r.lost, r.gained), (10, 0));
        assert!((r.delta_pts + 50.0).abs() < 1e-9);
        // P(X >= 10), X ~ Bin(10, 1/2) = 1/1024.
        assert!((r.p - 1.0 / 1024.0).abs() < 1e-12, "{}", r.p);
        assert!(r.drops);
        let same = arm_result("bm25", Arm::NoDescriptions, &full, &full, 0.05);
        assert_eq!(lines("m", &[true]).len(), 1);
        assert!(!same.drops);
        assert_eq!(same.p, 1.0);
        let a = Ablation {
            alpha: 0.05,
            results: vec![r, same.clone()],
            notes: vec![],
        };
        assert_eq!(a.blind_to_descriptions(), vec![&same]);
        assert!(Ablation::blind_text(&same).contains("does not measure the descriptions"));
    }

    /// The compact pairing gives the numbers of pairing outcome lines (`curve::point` and
    /// `curve::accuracy`, what run.json's ablation was computed with), on seeded arms with
    /// undecided tasks on either side.
    #[test]
    fn the_compact_pairing_matches_the_outcome_lines_pairing() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..200 {
            let n = (next() % 60) as usize;
            let mut draw = || match next() % 5 {
                0 => None,
                1 | 2 => Some(true),
                _ => Some(false),
            };
            let full: Vec<Option<bool>> = (0..n).map(|_| draw()).collect();
            let arm: Vec<Option<bool>> = (0..n).map(|_| draw()).collect();
            let got = arm_result("m", Arm::NeutralNames, &full, &arm, 0.05);
            let (fl, al) = (some_lines("m", &full), some_lines("m", &arm));
            let want = point("m", 0, &fl, &al, 0.05);
            let full_rate = accuracy(&fl, "m");
            assert_eq!(got.full, full_rate, "round {round}");
            assert_eq!(got.accuracy, want.accuracy, "round {round}");
            assert_eq!(
                (got.lost, got.gained),
                (want.lost, want.gained),
                "round {round}"
            );
            assert_eq!(got.p.to_bits(), want.p.to_bits(), "round {round}");
            assert_eq!(got.drops, want.below, "round {round}");
            let delta = (want.accuracy.value - full_rate.value) * 100.0;
            assert_eq!(got.delta_pts.to_bits(), delta.to_bits(), "round {round}");
        }
    }
}

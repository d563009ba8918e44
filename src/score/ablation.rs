//! The ablation check's statistics: what a suite measures. The suite runs three times on the
//! same tasks: as the catalog is, with every description removed (names only), and with every
//! name neutralised (`tool_01`, …). Each ablated arm is paired with the full catalog task by
//! task (the exact one-sided sign test on discordant tasks of [`super::curve::point`]): a drop
//! is significant when p < alpha. A suite whose score does not drop without descriptions does
//! not measure them, whatever its headline says. The types here are what run.json records
//! (`ablation`).

use super::curve::{accuracy, point};
pub(crate) use crate::record::scores::curve::{Ablation, Arm, ArmResult};
use crate::score::OutcomeLine;

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

/// One arm's result for `model`: `full` and `ablated` are the outcomes of the same tasks.
pub(crate) fn arm_result(
    model: &str,
    arm: Arm,
    full: &[OutcomeLine],
    ablated: &[OutcomeLine],
    alpha: f64,
) -> ArmResult {
    let p = point(model, 0, full, ablated, alpha);
    let full_rate = accuracy(full, model);
    ArmResult {
        model: model.to_string(),
        arm,
        delta_pts: (p.accuracy.value - full_rate.value) * 100.0,
        full: full_rate,
        accuracy: p.accuracy,
        lost: p.lost,
        gained: p.gained,
        p: p.p,
        drops: p.below,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Outcome;
    use crate::tasks::Kind;

    fn lines(model: &str, right: &[bool]) -> Vec<OutcomeLine> {
        right
            .iter()
            .enumerate()
            .map(|(i, &r)| OutcomeLine {
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
        let full = lines("bm25", &[true; 20]);
        let mut half = vec![true; 10];
        half.extend([false; 10]);
        let dropped = lines("bm25", &half);
        let r = arm_result("bm25", Arm::NoDescriptions, &full, &dropped, 0.05);
        assert_eq!((r.lost, r.gained), (10, 0));
        assert!((r.delta_pts + 50.0).abs() < 1e-9);
        // P(X >= 10), X ~ Bin(10, 1/2) = 1/1024.
        assert!((r.p - 1.0 / 1024.0).abs() < 1e-12, "{}", r.p);
        assert!(r.drops);
        let same = arm_result("bm25", Arm::NoDescriptions, &full, &full, 0.05);
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
}

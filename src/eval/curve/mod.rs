//! The distractor curve (`run --belt`): how your tasks' accuracy falls as the belt's tools join
//! yours. For each draw (seeded random, nearest-first) and each size (0, 10, 50, 100, 200, 500,
//! every tool), the combined catalog is built, each model is built for it and decides every
//! task (one trial, in memory: no run directory), and the decisions are graded by the run's own
//! scoring. Size 0 is your catalog alone; a set of tools measured once (size 0, every tool) is
//! reused by both draws. The statistics are [`crate::score::curve`]'s.

pub(crate) mod draw;

use std::collections::{HashMap, HashSet};

use crate::catalog::Catalog;
use crate::catalog::belt::Belt;
use crate::catalog::belt::combine::combine;
use crate::models::{self, ModelOptions, ModelSpec};
use crate::score::OutcomeLine;
use crate::score::curve::{self as stats, Curve, Draw, DrawOrder, Series};
use crate::tasks::Task;
pub(crate) use draw::{DEFAULT_SEED, Size};

/// The most decisions one curve makes (sizes × draws × tasks × models) before it is skipped.
pub(crate) const MAX_DECISIONS: usize = 2_000_000;

/// Whether the curve is measured: `Auto` measures models whose decisions cost no provider
/// call; `On` (`--curve`) measures LLMs too; `Off` (`--curve=false`) nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    Auto,
    On,
    Off,
}

impl From<Option<bool>> for When {
    /// A yes/no setting that may be unset (`[ci] curve`, `TOOLGATE_CURVE`): unset is `Auto`.
    fn from(flag: Option<bool>) -> Self {
        match flag {
            None => When::Auto,
            Some(true) => When::On,
            Some(false) => When::Off,
        }
    }
}

/// What to measure.
pub(crate) struct Request<'a> {
    pub own: &'a Catalog,
    pub belt: &'a Belt,
    pub tasks: &'a [Task],
    /// Model specs of the run.
    pub models: &'a [ModelSpec],
    /// The policy's significance level (a point is below the base when p < alpha).
    pub alpha: f64,
    pub model: &'a ModelOptions,
    pub when: When,
    /// `--curve-sizes`; `None`: the defaults.
    pub sizes: Option<&'a [Size]>,
    pub seed: u64,
    /// Decisions in flight at once.
    pub concurrency: usize,
}

/// The models the curve measures, and why others are left out.
pub(crate) fn models_for(specs: &[ModelSpec], when: When) -> (Vec<ModelSpec>, Vec<String>) {
    measured(
        specs,
        when,
        "the distractor curve",
        "it calls a provider for every decision; pass --curve to measure it",
    )
}

/// The models an in-memory check (`what`) measures under `when`: offline ones unless `On`,
/// never a replayed log; the notes say why each other model is left out (`llm_cost` for LLMs).
pub(crate) fn measured(
    specs: &[ModelSpec],
    when: When,
    what: &str,
    llm_cost: &str,
) -> (Vec<ModelSpec>, Vec<String>) {
    let mut notes = Vec::new();
    if when == When::Off {
        return (Vec::new(), notes);
    }
    let mut out = Vec::new();
    for s in specs {
        if s.is_replay() {
            notes.push(format!(
                "`{s}` is left out of {what}: a replayed log does not depend on the catalog"
            ));
        } else if !s.is_llm() || when == When::On {
            out.push(s.clone());
        } else {
            notes.push(format!("`{s}` is left out of {what}: {llm_cost}"));
        }
    }
    (out, notes)
}

/// One set of distractors to measure: the first `size` tools of a draw's order.
struct Slot {
    keep: HashSet<(String, String)>,
}

/// Measures the curve, or says why it was not (`Ok(None)`, after a note on stderr).
pub(crate) async fn measure(req: &Request<'_>) -> anyhow::Result<Option<Curve>> {
    let (specs, mut notes) = models_for(req.models, req.when);
    for n in &notes {
        crate::elog!("note: {n}");
    }
    if specs.is_empty() {
        return Ok(None);
    }
    let own_name = super::belt::own_name(req.own);
    let candidates = draw::candidates(req.own, &own_name, req.belt);
    let sizes = draw::sizes(req.sizes, candidates.len());
    if sizes.len() > draw::MAX_SIZES {
        anyhow::bail!(
            "--curve-sizes: at most {} sizes (each one is a whole evaluation)",
            draw::MAX_SIZES
        );
    }
    let max = sizes.last().copied().unwrap_or(0);
    let draws: Vec<DrawOrder> = Draw::ALL
        .iter()
        .map(|&d| DrawOrder {
            draw: d,
            tools: draw::order(d, req.own, req.belt, &candidates, req.seed, max),
        })
        .collect();
    let (slots, slot_of) = distinct_sets(&draws, &sizes);
    let decisions = slots.len() * req.tasks.len() * specs.len();
    if decisions > MAX_DECISIONS {
        crate::elog!(
            "note: the distractor curve is skipped: {decisions} decisions ({} catalogs × {} tasks × {} models) is over {MAX_DECISIONS}; measure fewer sizes (--curve-sizes) or a split (--split dev)",
            slots.len(),
            req.tasks.len(),
            specs.len()
        );
        return Ok(None);
    }
    let calls = slots.len() * req.tasks.len() * specs.iter().filter(|s| s.is_llm()).count();
    crate::elog!(
        "distractor curve: {} sizes × {} draws ({} distinct catalogs) × {} tasks × {} model(s) = {decisions} decisions{}",
        sizes.len(),
        draws.len(),
        slots.len(),
        req.tasks.len(),
        specs.len(),
        if calls > 0 {
            format!(", {calls} of them LLM decisions (each at least one provider call)")
        } else {
            String::new()
        }
    );
    let bar = crate::progress::bar(decisions as u64, "curve decisions");
    let (outcomes, normalised, skipped) = run_slots(req, &specs, &own_name, &slots, &bar).await?;
    bar.finish_and_clear();
    if skipped > 0 {
        notes.push(format!(
            "{skipped} curve decision(s) were not made: --max-calls was reached; those points cover fewer tasks"
        ));
    }
    let series = all_series(&normalised, &draws, &sizes, &outcomes, &slot_of, req.alpha);
    Ok(Some(Curve {
        metric: crate::record::metric::name_of_all(normalised.iter().map(String::as_str)).into(),
        alpha: req.alpha,
        seed: req.seed,
        available: candidates.len(),
        sizes,
        trials: 1,
        draws,
        series,
        notes,
    }))
}

/// Each distinct set of tools once (size 0 and "every tool" are the same for both draws), and
/// which set each (draw, size) measures.
fn distinct_sets(
    draws: &[DrawOrder],
    sizes: &[usize],
) -> (Vec<Slot>, HashMap<(Draw, usize), usize>) {
    let mut slots: Vec<Slot> = Vec::new();
    let mut slot_of: HashMap<(Draw, usize), usize> = HashMap::new();
    let mut by_set: HashMap<Vec<(String, String)>, usize> = HashMap::new();
    for d in draws {
        for &size in sizes {
            let mut set: Vec<(String, String)> = d.tools[..size.min(d.tools.len())].to_vec();
            set.sort();
            let next = slots.len();
            let at = *by_set.entry(set.clone()).or_insert(next);
            if at == next {
                slots.push(Slot {
                    keep: set.into_iter().collect(),
                });
            }
            slot_of.insert((d.draw, size), at);
        }
    }
    (slots, slot_of)
}

/// Evaluates the tasks on your catalog with each set of distractors (in memory); returns each
/// set's outcome lines, the models' normalised specs, and the decisions `--max-calls` left
/// unmade.
async fn run_slots(
    req: &Request<'_>,
    specs: &[ModelSpec],
    own_name: &str,
    slots: &[Slot],
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<(Vec<Vec<OutcomeLine>>, Vec<String>, usize)> {
    let mut outcomes: Vec<Vec<OutcomeLine>> = Vec::with_capacity(slots.len());
    let mut normalised: Vec<String> = specs.iter().map(ToString::to_string).collect();
    let mut skipped = 0usize;
    for slot in slots {
        let combined = combine(req.own, own_name, req.belt, &|s, t| {
            slot.keep.contains(&(s.to_string(), t.to_string()))
        });
        let built: Vec<Box<dyn models::Model>> = specs
            .iter()
            .map(|s| models::build(s, &combined.catalog, req.model))
            .collect::<anyhow::Result<_>>()?;
        normalised = built.iter().map(|m| m.spec()).collect();
        let (ran, _, lines) = super::in_memory::in_memory(
            &built,
            &combined.catalog,
            req.tasks,
            req.concurrency,
            Some(bar),
        )
        .await?;
        skipped += ran.skipped;
        outcomes.push(lines);
    }
    Ok((outcomes, normalised, skipped))
}

/// One series per model and draw: each size paired with the no-distractor outcomes.
fn all_series(
    models: &[String],
    draws: &[DrawOrder],
    sizes: &[usize],
    outcomes: &[Vec<OutcomeLine>],
    slot_of: &HashMap<(Draw, usize), usize>,
    alpha: f64,
) -> Vec<Series> {
    let mut series = Vec::new();
    for model in models {
        for d in draws {
            let base = &outcomes[slot_of[&(d.draw, 0)]];
            let points = sizes
                .iter()
                .map(|&size| {
                    let here = &outcomes[slot_of[&(d.draw, size)]];
                    stats::point(model, size, base, here, alpha)
                })
                .collect();
            series.push(stats::series(model, d.draw, points));
        }
    }
    series
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llms_join_the_curve_only_when_asked() {
        let specs =
            ModelSpec::parse_all(&["bm25", "openai:gpt-4o-mini", "replay:x.jsonl"], "t").unwrap();
        let names = |v: Vec<ModelSpec>| v.iter().map(ToString::to_string).collect::<Vec<_>>();
        let (auto, notes) = models_for(&specs, When::Auto);
        assert_eq!(names(auto), ["bm25"]);
        assert_eq!(notes.len(), 2);
        assert!(
            notes[0].contains("--curve") && notes[1].contains("replayed"),
            "{notes:?}"
        );
        let (on, _) = models_for(&specs, When::On);
        assert_eq!(names(on), ["bm25", "openai:gpt-4o-mini"]);
        assert!(models_for(&specs, When::Off).0.is_empty());
    }
}

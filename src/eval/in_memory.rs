//! Evaluation in memory, nothing written: every decision scored as it arrives, in plan order
//! (the ablation's arms, the distractor curve's sizes, a belt's own-catalog run).

use std::collections::HashSet;

use super::runner::{Executed, Plan, Sink, execute};
use crate::catalog::Catalog;
use crate::models::Model;
use crate::record::{ModelResult, PredictionLine};
use crate::score::OutcomeLine;
use crate::tasks::Task;

/// Runs `models` once over `tasks` in memory (decisions kept in plan order) and scores them
/// against `catalog`: what ran, each model's metrics and every graded outcome.
pub(crate) async fn in_memory(
    models: &[Box<dyn Model>],
    catalog: &Catalog,
    tasks: &[Task],
    concurrency: usize,
    bar: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<(Executed, Vec<ModelResult>, Vec<OutcomeLine>)> {
    in_memory_as(models, catalog, tasks, &|_| {}, concurrency, bar).await
}

/// [`in_memory`], each decision passed through `fix` before it is scored against `catalog`
/// (the ablation's neutral-names arm: models that read renamed tools, scored on the names the
/// tasks use, without a renamed copy of every task).
pub(crate) async fn in_memory_as(
    models: &[Box<dyn Model>],
    catalog: &Catalog,
    tasks: &[Task],
    fix: &(dyn Fn(&mut PredictionLine) + Sync),
    concurrency: usize,
    bar: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<(Executed, Vec<ModelResult>, Vec<OutcomeLine>)> {
    let specs: Vec<String> = models.iter().map(|m| m.spec()).collect();
    let (ran, scorer) = scored(models, catalog, tasks, &specs, fix, concurrency, bar).await?;
    let scored = scorer.finish();
    let outcomes = scored.outcomes().collect();
    Ok((ran, scored.results, outcomes))
}

/// [`in_memory_as`] keeping only, for each model and task, whether it was right
/// ([`super::scorer::Scorer::correct`]): what the ablation's arms need.
pub(crate) async fn correct_as(
    models: &[Box<dyn Model>],
    catalog: &Catalog,
    tasks: &[Task],
    fix: &(dyn Fn(&mut PredictionLine) + Sync),
    concurrency: usize,
    bar: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<(Executed, Vec<Vec<Option<bool>>>)> {
    let specs: Vec<String> = models.iter().map(|m| m.spec()).collect();
    let (ran, scorer) = scored(models, catalog, tasks, &specs, fix, concurrency, bar).await?;
    Ok((ran, scorer.correct()))
}

/// Runs the plan, every decision graded as it arrives; the scorer is handed back unfinished.
async fn scored<'a>(
    models: &[Box<dyn Model>],
    catalog: &'a Catalog,
    tasks: &'a [Task],
    specs: &'a [String],
    fix: &'a (dyn Fn(&mut PredictionLine) + Sync),
    concurrency: usize,
    bar: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<(Executed, super::scorer::Scorer<'a>)> {
    let trials = vec![1; models.len()];
    let done = HashSet::new();
    let mut sink = Scoring {
        scorer: super::scorer::Scorer::new(catalog, tasks, specs),
        fix,
        next: 0,
        pending: Default::default(),
    };
    let ran = execute(
        &Plan {
            models,
            trials: &trials,
            tasks,
            done: &done,
            concurrency,
        },
        &mut sink,
        bar,
    )
    .await?;
    for p in std::mem::take(&mut sink.pending).into_values() {
        sink.scorer.add(&p);
    }
    Ok((ran, sink.scorer))
}

/// Decisions scored as they arrive, in plan order (one that comes early waits for those
/// before it): nothing but the scorer's tallies is kept, where holding every decision of a
/// 30,000-task arm took tens of megabytes.
struct Scoring<'a> {
    scorer: super::scorer::Scorer<'a>,
    fix: &'a (dyn Fn(&mut PredictionLine) + Sync),
    next: usize,
    /// Decisions that came before their turn; a gap (a decision never made) holds the rest
    /// here until the end.
    pending: std::collections::BTreeMap<usize, PredictionLine>,
}

impl Sink for Scoring<'_> {
    fn put(&mut self, job: usize, mut line: PredictionLine) -> anyhow::Result<()> {
        (self.fix)(&mut line);
        self.pending.insert(job, line);
        while let Some(p) = self.pending.remove(&self.next) {
            self.scorer.add(&p);
            self.next += 1;
        }
        Ok(())
    }
}

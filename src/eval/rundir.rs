//! The run directory: created (or resumed) from [`EvalOptions`], filled one decision at a time
//! (`predictions.jsonl`), scored into `run.json` and `outcomes.jsonl`, sealed by `SHA256SUMS`;
//! locked while a process writes to it, so two `--resume` of one directory cannot interleave.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use anyhow::bail;

use super::runner;
use super::scorer::Scorer;
use super::start::{Setup, Started, now};
use crate::catalog::Catalog;
use crate::gate::{GateDecision, GateInput, GatePolicy, decide};
use crate::models;
use crate::record::PredictionLine;
use crate::record::files::OUTCOMES_FILE;
use crate::record::run::{GateResult, RunFile, RunStatus, UsageTally};
use crate::record::{PredictionWriter, for_each_prediction, read_predictions};
use crate::tasks::Task;

pub(crate) use super::suite::load_tasks;

pub(crate) use super::options::{EvalOptions, IncrementalBase};

/// A run directory with its run file; its predictions stay in `predictions.jsonl` (read with
/// [`RunDir::predictions`]), so a large run never holds them all.
pub(crate) struct RunDir {
    pub dir: PathBuf,
    pub run: RunFile,
    /// Why an incremental run went in full, when it did.
    pub incremental_note: Option<String>,
    /// Deterministic models' outcomes on your catalog alone (a `--belt` run), paired with the
    /// belt run when it is scored; held in memory, never written.
    pub alone: Vec<super::belt::AloneRun>,
    _lock: DirLock,
}

/// Runs (or resumes) every model over `tasks`, persisting each decision as it arrives.
pub(crate) async fn evaluate(
    catalog: &Catalog,
    tasks_path: &Path,
    tasks: &[Task],
    opts: &EvalOptions,
) -> anyhow::Result<RunDir> {
    check_bounds(opts)?;
    let (model_opts, estimates) = super::cost::plan_cost(catalog, tasks, opts)?;
    let built: Vec<Box<dyn models::Model>> = opts
        .models
        .iter()
        .map(|s| models::build(s, catalog, &model_opts))
        .collect::<anyhow::Result<_>>()?;
    let nondeterministic: Vec<String> = built
        .iter()
        .filter(|m| !m.deterministic())
        .map(|m| m.spec())
        .collect();
    let trials: Vec<u32> = built
        .iter()
        .map(|m| if m.deterministic() { 1 } else { opts.trials })
        .collect();
    let setup = Setup {
        catalog,
        tasks_path,
        tasks,
        opts,
        built: &built,
        trials: &trials,
        estimates: &estimates,
        nondeterministic: &nondeterministic,
    };
    let Started {
        dir,
        lock,
        run,
        note: incremental_note,
    } = super::start::start(&setup)?;
    let mut run = run;
    decide_all(&dir, &mut run, &setup).await?;
    Ok(RunDir {
        dir,
        run,
        incremental_note,
        alone: Vec::new(),
        _lock: lock,
    })
}

/// At least one trial; at most 1000 trials and 50 steps per task (each is a provider call).
fn check_bounds(opts: &EvalOptions) -> anyhow::Result<()> {
    if opts.trials == 0 {
        bail!("--trials must be at least 1");
    }
    if opts.trials > 1000 || opts.max_steps > 50 {
        bail!(
            "--trials {} / --max-steps {}: at most 1000 trials and 50 steps per task (each is a provider call)",
            opts.trials,
            opts.max_steps
        );
    }
    Ok(())
}

/// Makes every decision not yet in `dir` (the description canary alongside), then records
/// what the models said about how they ran and probes the descriptions where still unproven.
async fn decide_all(dir: &Path, run: &mut RunFile, x: &Setup<'_>) -> anyhow::Result<()> {
    let mut done: HashSet<(String, String, u32)> = HashSet::new();
    for_each_prediction(dir, |p| {
        done.insert((p.model, p.task_id, p.trial));
    })?;
    if !done.is_empty() {
        crate::elog!(
            "resuming {}: {} decision(s) already made",
            dir.display(),
            done.len()
        );
    }
    let mut writer = PredictionWriter::open(dir)?;
    let concurrency = x.opts.concurrency.max(1) * x.built.len().max(1);
    let mine = super::shard::select(x.tasks, x.opts.shard);
    // The description canary goes out with the first tasks, so it adds no wait after the run.
    let canaries = super::probe::early_canaries(run, x.built);
    let plan = runner::Plan {
        models: x.built,
        trials: x.trials,
        tasks: &mine,
        done: &done,
        concurrency,
    };
    let (ran, early) = tokio::join!(runner::execute(&plan, &mut writer, None), canaries);
    let ran = ran?;
    runner::say_skipped(ran.skipped);
    // The canary spends two requests per model: not past a --max-calls budget that already
    // ran out (a resumed run probes when it completes).
    let budget_left = ran.skipped == 0;
    for (info, m) in run.models.iter_mut().zip(x.built) {
        for n in m.notes() {
            if !info.notes.contains(&n) {
                info.notes.push(n);
            }
        }
        // This run's word: a resumed run that got through clears an earlier stop.
        info.stopped = m.stopped();
    }
    crate::elog!(
        "{} decision(s) made; run directory {}",
        ran.made,
        dir.display()
    );
    if !super::probe::unprobed(run).is_empty() {
        let predictions = read_predictions(dir)?;
        probe_descriptions(run, x.built, &mine, &predictions, budget_left, early).await;
    }
    Ok(())
}

use super::dirs::{DirLock, claim_dir};
use super::probe::probe_descriptions;

impl RunDir {
    /// A new run directory `out` holding the merged shards' predictions: `first` (one shard's
    /// run file) stands for the whole run, its shard and results cleared.
    pub(crate) fn merged(
        out: &Path,
        mut first: RunFile,
        predictions: Vec<PredictionLine>,
    ) -> anyhow::Result<RunDir> {
        let dir = claim_dir(&EvalOptions {
            out: Some(out.to_path_buf()),
            ..EvalOptions::default()
        })?;
        let lock = DirLock::take(&dir)?;
        first.created = now();
        first.finished = None;
        first.status = RunStatus::Running;
        first.shard = None;
        first.results = vec![];
        first.gate = None;
        first.write(&dir)?;
        super::shard::write_predictions(&dir, &predictions)?;
        drop(predictions);
        Ok(RunDir {
            dir,
            run: first,
            incremental_note: None,
            alone: Vec::new(),
            _lock: lock,
        })
    }

    /// Every prediction of the run, read from its `predictions.jsonl`.
    pub(crate) fn predictions(&self) -> anyhow::Result<Vec<PredictionLine>> {
        read_predictions(&self.dir)
    }

    /// One pass over predictions.jsonl (read one at a time, never all held): what served each
    /// model and its usage go into the run's model list; the grades into the scorer.
    fn tally<'t>(
        &mut self,
        catalog: &'t Catalog,
        tasks: &'t [Task],
        specs: &'t [String],
    ) -> anyhow::Result<super::scorer::Scored<'t>> {
        let run = &mut self.run;
        let mut served: Vec<BTreeSet<String>> = specs.iter().map(|_| BTreeSet::new()).collect();
        let mut usage: Vec<Option<UsageTally>> = run
            .models
            .iter()
            .map(|m| (!m.deterministic).then(UsageTally::default))
            .collect();
        let mut scorer = Scorer::new(catalog, tasks, specs);
        for_each_prediction(&self.dir, |p| {
            for (i, spec) in specs.iter().enumerate() {
                if p.model == *spec {
                    if let Some(s) = &p.decision.served_by {
                        served[i].insert(s.clone());
                    }
                    if let Some(u) = &mut usage[i] {
                        u.add(&p);
                    }
                }
            }
            scorer.add(&p);
        })?;
        for ((info, served), usage) in run.models.iter_mut().zip(served).zip(usage) {
            info.served_by = served.into_iter().collect();
            if let Some(u) = usage {
                info.usage = Some(u.usage());
            }
        }
        Ok(scorer.finish())
    }

    /// Scores the predictions (read one at a time, never all held), decides the run's part of
    /// the gate, and writes run.json and outcomes.jsonl. The reports are the report stage's
    /// (`crate::report::write_run_reports`).
    pub(crate) fn finalize(
        &mut self,
        catalog: &Catalog,
        tasks: &[Task],
        policy: &GatePolicy,
    ) -> anyhow::Result<GateDecision> {
        Ok(self.finish(catalog, tasks, policy, false)?.0)
    }

    /// [`Self::finalize`], handing back the outcome lines it wrote too (`ci` reads them for
    /// the requests at risk: in memory, not read back from outcomes.jsonl).
    pub(crate) fn finalize_keeping(
        &mut self,
        catalog: &Catalog,
        tasks: &[Task],
        policy: &GatePolicy,
    ) -> anyhow::Result<(GateDecision, Vec<crate::score::OutcomeLine>)> {
        self.finish(catalog, tasks, policy, true)
    }

    fn finish(
        &mut self,
        catalog: &Catalog,
        tasks: &[Task],
        policy: &GatePolicy,
        keep: bool,
    ) -> anyhow::Result<(GateDecision, Vec<crate::score::OutcomeLine>)> {
        let specs: Vec<String> = self.run.models.iter().map(|m| m.spec.clone()).collect();
        let mut scored = self.tally(catalog, tasks, &specs)?;
        let run = &mut self.run;
        let expected: usize = run
            .models
            .iter()
            .map(|m| tasks.len() * m.trials as usize)
            .sum();
        let made: usize = scored.graded();
        run.status = if made >= expected {
            RunStatus::Complete
        } else {
            RunStatus::Partial
        };
        run.results = std::mem::take(&mut scored.results);
        if let Some(belt) = run.belt.as_mut() {
            // A belt run's outcomes are few (its suite, not the scale benches): held once here.
            let outcomes: Vec<_> = scored.outcomes().collect();
            super::belt::score_run(
                belt,
                &mut run.results,
                tasks,
                &outcomes,
                &self.alone,
                policy.alpha,
            );
        }
        let decision = decide(
            &GateInput {
                run: Some(run),
                ..Default::default()
            },
            policy,
        );
        // A complete run whose errors are over --max-error-rate measured the endpoint.
        if run.status == RunStatus::Complete
            && decision
                .reasons
                .iter()
                .any(|r| matches!(r, crate::record::GateReason::Errored { .. }))
        {
            run.status = RunStatus::Errored;
        }
        run.finished = Some(now());
        run.gate = Some(GateResult::from(&decision));
        run.write(&self.dir)?;
        // Streamed: the outcome lines of a 100,000-task run are never one string.
        let mut kept = Vec::new();
        crate::fsio::write_atomic_with(&self.dir.join(OUTCOMES_FILE), &mut |w| {
            kept.clear();
            for o in scored.outcomes() {
                serde_json::to_writer(&mut *w, &o)?;
                w.write_all(b"\n")?;
                if keep {
                    kept.push(o);
                }
            }
            Ok(())
        })?;
        crate::record::seal::write(&self.dir)?;
        Ok((decision, kept))
    }
}

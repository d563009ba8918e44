//! The one executor: runs every (model, task, trial) of a plan not yet made, with bounded
//! concurrency, putting each decision in a sink (a run directory's `predictions.jsonl`, or
//! memory) as it arrives; and the scoring of what it made.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::time::Instant;

use futures::StreamExt;

use crate::catalog::Catalog;
use crate::models::Model;
use crate::record::{ModelResult, PredictionLine, PredictionWriter};
use crate::tasks::Task;

/// One unit of work.
#[derive(Clone, Copy, Debug)]
struct Job {
    model: usize,
    task: usize,
    trial: u32,
}

/// Whether to draw a progress bar: on a terminal, and not in CI.
pub(crate) fn show_progress() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// Decisions in progress at once: twice the request cap. Each LLM provider's own limiter
/// bounds the requests sent; the slack keeps that limiter full while some decisions hold a
/// slot here without sending (waiting for an identical request in flight, or read from the
/// cache), with no batch barrier: a new decision starts as soon as any one ends.
fn window(concurrency: usize) -> usize {
    concurrency.max(1).saturating_mul(2)
}

/// Where the executor puts each decision: a run directory's `predictions.jsonl` (appended and
/// flushed as each arrives) or memory (the belt's alone run, the distractor curve).
pub(crate) trait Sink {
    /// `job` is the decision's place in the plan (model, then task, then trial).
    fn put(&mut self, job: usize, line: PredictionLine) -> anyhow::Result<()>;
}

impl Sink for PredictionWriter {
    fn put(&mut self, _job: usize, line: PredictionLine) -> anyhow::Result<()> {
        self.append(&line)
    }
}

/// What to run: every model × task × trial not in `done` (keys: model spec, task id, trial).
pub(crate) struct Plan<'a> {
    pub models: &'a [Box<dyn Model>],
    /// Trials per model.
    pub trials: &'a [u32],
    pub tasks: &'a [Task],
    pub done: &'a HashSet<(String, String, u32)>,
    /// Decisions in progress at once is twice this (see [`window`]).
    pub concurrency: usize,
}

/// What [`execute`] did: decisions made (and put in the sink), and decisions not made because
/// `--max-calls` ran out (not recorded: a resumed run makes them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Executed {
    pub made: usize,
    /// Not made: `--max-calls` ran out.
    pub skipped: usize,
    /// Not made: the model's endpoint was stopped ([`crate::models::Model::stopped`]).
    pub stopped: usize,
}

/// The one executor: runs the plan's missing jobs with bounded concurrency and puts each
/// decision in `sink` as it arrives. Every evaluation (a run directory, the belt's alone run,
/// the distractor curve, `--mutate` and `--fix`) runs its models through it. `bar`: a progress
/// bar shared across several plans; without one, a bar of its own on a terminal.
pub(crate) async fn execute(
    plan: &Plan<'_>,
    sink: &mut dyn Sink,
    bar: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<Executed> {
    let Plan {
        models,
        trials,
        tasks,
        done,
        concurrency,
    } = *plan;
    let specs: Vec<String> = models.iter().map(|m| m.spec()).collect();
    let jobs = missing_jobs(&specs, tasks, trials, done);
    for (mi, m) in models.iter().enumerate() {
        let requests: Vec<&str> = jobs
            .iter()
            .filter(|j| j.model == mi)
            .map(|j| tasks[j.task].request.as_str())
            .collect();
        if !requests.is_empty() {
            m.prepare(&requests);
        }
    }
    let total = jobs.len();
    let own_bar = match bar {
        Some(_) => None,
        None => Some(own_progress(total)),
    };
    let bar = bar.or(own_bar.as_ref());
    let mut stream = futures::stream::iter(jobs.into_iter().enumerate())
        .map(|(i, job)| async move {
            let start = Instant::now();
            let mut d = models[job.model].decide(&tasks[job.task], job.trial).await;
            if d.latency_ms == 0 {
                d.latency_ms = start.elapsed().as_millis() as u64;
            }
            (i, job, d)
        })
        .buffer_unordered(window(concurrency));
    let mut skipped = 0usize;
    let mut stopped = 0usize;
    while let Some((i, job, decision)) = stream.next().await {
        if let Some(b) = bar {
            b.inc(1);
        }
        // Not made (--max-calls ran out, or the endpoint was stopped): never recorded, so a
        // resumed run makes it.
        match decision.error_kind {
            Some(crate::models::ErrorKind::Budget) => {
                skipped += 1;
                continue;
            }
            Some(crate::models::ErrorKind::Stopped) => {
                stopped += 1;
                continue;
            }
            _ => {}
        }
        sink.put(
            i,
            PredictionLine {
                model: specs[job.model].clone(),
                task_id: tasks[job.task].id.clone(),
                trial: job.trial,
                decision,
            },
        )?;
    }
    if let Some(b) = &own_bar {
        b.finish_and_clear();
    }
    Ok(Executed::counted(total, skipped, stopped))
}

impl Executed {
    /// What ran of `total` jobs, `skipped` for --max-calls and `stopped` with their endpoint
    /// (said on stderr: a resumed run makes them once it answers).
    fn counted(total: usize, skipped: usize, stopped: usize) -> Executed {
        if stopped > 0 {
            crate::elog!(
                "stopped early: an endpoint was stopped; {stopped} decision(s) not made (resume the run once it answers)"
            );
        }
        Executed {
            made: total - skipped - stopped,
            skipped,
            stopped,
        }
    }
}

/// Every (model, task, trial) not in `done`, in model, task, trial order.
fn missing_jobs(
    specs: &[String],
    tasks: &[Task],
    trials: &[u32],
    done: &HashSet<(String, String, u32)>,
) -> Vec<Job> {
    let mut jobs = Vec::new();
    for (mi, spec) in specs.iter().enumerate() {
        for (ti, task) in tasks.iter().enumerate() {
            for trial in 0..trials[mi] {
                if !done.contains(&(spec.clone(), task.id.clone(), trial)) {
                    jobs.push(Job {
                        model: mi,
                        task: ti,
                        trial,
                    });
                }
            }
        }
    }
    jobs
}

/// A progress bar of `total` decisions on a terminal (hidden elsewhere, or with nothing to do).
fn own_progress(total: usize) -> indicatif::ProgressBar {
    if !(show_progress() && total > 0) {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {bar:40} {pos}/{len} decisions  {elapsed_precise} (eta {eta})",
    ) {
        b.set_style(style);
    }
    b
}

/// Says on stderr that `--max-calls` stopped a run before `skipped` decisions were made.
pub(crate) fn say_skipped(skipped: usize) {
    if skipped > 0 {
        crate::elog!(
            "stopped early: --max-calls reached; {skipped} decision(s) not made (resume with a larger budget)"
        );
    }
}

pub(crate) use crate::score::OutcomeLine;

/// For each model and task, whether the first trial was right ([`super::scorer::Scorer::correct`]),
/// of the predictions `feed` hands over one at a time (it is given the scorer's `add`), graded
/// as they come.
pub(crate) fn correct_each(
    catalog: &Catalog,
    tasks: &[Task],
    models: &[String],
    feed: impl FnOnce(&mut dyn FnMut(&PredictionLine)) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<Vec<Option<bool>>>> {
    let mut scorer = super::scorer::Scorer::new(catalog, tasks, models);
    feed(&mut |p| scorer.add(p))?;
    Ok(scorer.correct())
}

/// Grades every prediction and computes each model's metrics; also returns every graded
/// observation.
pub(crate) fn score(
    catalog: &Catalog,
    tasks: &[Task],
    models: &[String],
    predictions: &[PredictionLine],
) -> (Vec<ModelResult>, Vec<OutcomeLine>) {
    let mut scorer = super::scorer::Scorer::new(catalog, tasks, models);
    for p in predictions {
        scorer.add(p);
    }
    let scored = scorer.finish();
    let lines = scored.outcomes().collect();
    (scored.results, lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decisions held in memory, handed back in plan order whatever order they arrived in.
    #[derive(Default)]
    struct InMemory(Vec<(usize, PredictionLine)>);

    impl Sink for InMemory {
        fn put(&mut self, job: usize, line: PredictionLine) -> anyhow::Result<()> {
            self.0.push((job, line));
            Ok(())
        }
    }

    impl InMemory {
        fn into_predictions(mut self) -> Vec<PredictionLine> {
            self.0.sort_by_key(|(job, _)| *job);
            self.0.into_iter().map(|(_, p)| p).collect()
        }
    }
    use crate::models::{BoxFuture, Decision};

    /// Answers later for earlier tasks, so decisions arrive out of plan order; the budget runs
    /// out on task `t3`.
    struct Slow;

    impl Model for Slow {
        fn spec(&self) -> String {
            "slow".into()
        }
        fn deterministic(&self) -> bool {
            true
        }
        fn decide<'a>(&'a self, task: &'a Task, _trial: u32) -> BoxFuture<'a, Decision> {
            Box::pin(async move {
                let n: u64 = task.id[1..].parse().unwrap_or(0);
                tokio::time::sleep(std::time::Duration::from_millis(40 - 10 * n)).await;
                Decision {
                    error: (task.id == "t3").then(|| crate::models::llm::BUDGET_EXHAUSTED.into()),
                    error_kind: (task.id == "t3").then_some(crate::models::ErrorKind::Budget),
                    ..Default::default()
                }
            })
        }
    }

    fn tasks() -> Vec<Task> {
        (0..4)
            .map(|i| {
                serde_json::from_value(serde_json::json!({
                    "id": format!("t{i}"), "request": "r", "kind": "no_tool"
                }))
                .unwrap()
            })
            .collect()
    }

    #[tokio::test]
    async fn in_memory_decisions_come_back_in_plan_order_and_the_budget_is_counted() {
        let models: Vec<Box<dyn Model>> = vec![Box::new(Slow)];
        let tasks = tasks();
        let done = HashSet::new();
        let mut sink = InMemory::default();
        let ran = execute(
            &Plan {
                models: &models,
                trials: &[1],
                tasks: &tasks,
                done: &done,
                concurrency: 4,
            },
            &mut sink,
            None,
        )
        .await
        .unwrap();
        assert_eq!(
            ran,
            Executed {
                made: 3,
                skipped: 1,
                stopped: 0
            }
        );
        let ids: Vec<String> = sink
            .into_predictions()
            .into_iter()
            .map(|p| p.task_id)
            .collect();
        assert_eq!(ids, ["t0", "t1", "t2"]);
    }

    #[tokio::test]
    async fn jobs_already_done_are_not_run_again() {
        let models: Vec<Box<dyn Model>> = vec![Box::new(Slow)];
        let tasks = tasks();
        let done: HashSet<_> = [("slow".to_string(), "t0".to_string(), 0)].into();
        let mut sink = InMemory::default();
        let ran = execute(
            &Plan {
                models: &models,
                trials: &[1],
                tasks: &tasks[..3],
                done: &done,
                concurrency: 1,
            },
            &mut sink,
            None,
        )
        .await
        .unwrap();
        assert_eq!(ran.made, 2);
        let ids: Vec<String> = sink
            .into_predictions()
            .into_iter()
            .map(|p| p.task_id)
            .collect();
        assert_eq!(ids, ["t1", "t2"]);
    }
}

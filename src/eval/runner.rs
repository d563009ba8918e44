//! Runs every (model, task, trial) not yet in the run directory, with bounded concurrency,
//! appending each decision to `predictions.jsonl` as it arrives; then scores the run.

use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;
use std::time::Instant;

use futures::StreamExt;

use super::run_file::{ModelResult, PredictionLine, PredictionWriter};
use crate::catalog::Catalog;
use crate::models::Model;
use crate::score::{Metrics, Observation, grade};
use crate::tasks::Task;
use crate::tasks::validate::ArgChecker;

/// One unit of work.
#[derive(Clone, Copy, Debug)]
struct Job {
    model: usize,
    task: usize,
    trial: u32,
}

/// Whether to draw a progress bar: on a terminal, and not in CI.
pub fn show_progress() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// Decisions in progress at once: twice the request cap. Each LLM provider's own limiter
/// bounds the requests sent; the slack keeps that limiter full while some decisions hold a
/// slot here without sending (waiting for an identical request in flight, or read from the
/// cache), with no batch barrier: a new decision starts as soon as any one ends.
fn window(concurrency: usize) -> usize {
    concurrency.max(1).saturating_mul(2)
}

/// Runs the jobs missing from `done` (keys: model spec, task id, trial) and appends each
/// decision. Returns how many were run.
pub async fn execute(
    models: &[Box<dyn Model>],
    trials: &[u32],
    tasks: &[Task],
    done: &HashSet<(String, String, u32)>,
    writer: &mut PredictionWriter,
    concurrency: usize,
) -> anyhow::Result<usize> {
    let specs: Vec<String> = models.iter().map(|m| m.spec()).collect();
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
    let bar = if show_progress() && total > 0 {
        let bar = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} {bar:40} {pos}/{len} decisions  {elapsed_precise} (eta {eta})",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut stream = futures::stream::iter(jobs)
        .map(|job| async move {
            let start = Instant::now();
            let mut d = models[job.model].decide(&tasks[job.task], job.trial).await;
            if d.latency_ms == 0 {
                d.latency_ms = start.elapsed().as_millis() as u64;
            }
            (job, d)
        })
        .buffer_unordered(window(concurrency));
    let mut skipped = 0usize;
    while let Some((job, decision)) = stream.next().await {
        bar.inc(1);
        if decision.error.as_deref() == Some(crate::models::llm::BUDGET_EXHAUSTED) {
            // Not made, so not recorded: a resumed run makes it.
            skipped += 1;
            continue;
        }
        writer.append(&PredictionLine {
            model: specs[job.model].clone(),
            task_id: tasks[job.task].id.clone(),
            trial: job.trial,
            decision,
        })?;
    }
    bar.finish_and_clear();
    if skipped > 0 {
        eprintln!(
            "stopped early: --max-calls reached; {skipped} decision(s) not made (resume with a larger budget)"
        );
    }
    Ok(total - skipped)
}

pub use super::files::OUTCOMES_FILE;
pub use crate::score::OutcomeLine;

/// Grades every prediction and computes each model's metrics; also returns every graded
/// observation.
pub fn score(
    catalog: &Catalog,
    tasks: &[Task],
    models: &[String],
    predictions: &[PredictionLine],
) -> (Vec<ModelResult>, Vec<OutcomeLine>) {
    let mut lines = Vec::new();
    let by_id: HashMap<&str, &Task> = tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    let tools: Vec<String> = catalog.tools.iter().map(|t| t.name().to_string()).collect();
    let mut checker = ArgChecker::new(catalog);
    // One decision per (model, task, trial): a line repeated by an interrupted or concurrent
    // writer is scored once (the first one made).
    let mut seen: HashSet<(&str, &str, u32)> = HashSet::new();
    let mut predictions: Vec<&PredictionLine> = predictions
        .iter()
        .filter(|p| seen.insert((p.model.as_str(), p.task_id.as_str(), p.trial)))
        .collect();
    // Suite order, not arrival order: concurrent, resumed and merged runs score identically.
    let position: HashMap<&str, usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    predictions.sort_by_key(|p| {
        (
            position
                .get(p.task_id.as_str())
                .copied()
                .unwrap_or(usize::MAX),
            p.trial,
        )
    });
    let results = models
        .iter()
        .map(|model| {
            let obs: Vec<Observation> = predictions
                .iter()
                .filter(|p| &p.model == model)
                .filter_map(|p| {
                    let task = by_id.get(p.task_id.as_str())?;
                    let graded = grade(task, &p.decision, catalog, &mut checker);
                    Some(Observation {
                        task,
                        trial: p.trial,
                        // The call that served the task (multi-step), else the first call.
                        called: if p.decision.error.is_some() {
                            None
                        } else if graded.outcome == crate::score::Outcome::Correct
                            && let Some(at) = crate::score::grade::serving_step(task, &p.decision)
                        {
                            Some(p.decision.steps[at].tool.clone())
                        } else {
                            p.decision.tool.clone()
                        },
                        graded,
                        text: p.decision.text.clone(),
                    })
                })
                .collect();
            lines.extend(obs.iter().map(|o| OutcomeLine {
                model: model.clone(),
                task_id: o.task.id.clone(),
                trial: o.trial,
                kind: o.task.kind,
                expected: o.task.expected_tool().map(str::to_string),
                called: o.called.clone(),
                outcome: o.graded.outcome,
                args_correct: o.graded.args_correct,
            }));
            let mut metrics = Metrics::compute(&tools, &obs);
            let stepped: Vec<(&Task, Vec<String>)> = predictions
                .iter()
                .filter(|p| &p.model == model && p.decision.steps.len() > 1)
                .copied()
                .filter_map(|p| {
                    Some((
                        *by_id.get(p.task_id.as_str())?,
                        p.decision.steps.iter().map(|s| s.tool.clone()).collect(),
                    ))
                })
                .collect();
            let describe = |t: &str| {
                catalog
                    .tool(t)
                    .and_then(|t| t.description())
                    .unwrap_or("")
                    .to_string()
            };
            metrics.preconditions = crate::score::metrics::preconditions(&stepped, &describe);
            // Ranking models: where the expected tool stood in each ranked list.
            let ranked: Vec<(&str, &[String])> = predictions
                .iter()
                .filter(|p| &p.model == model)
                .filter_map(|p| {
                    let task = by_id.get(p.task_id.as_str())?;
                    Some((task.expected_tool()?, p.decision.ranking.as_deref()?))
                })
                .collect();
            if !ranked.is_empty() {
                metrics.retrieval = Some(crate::score::retrieval::score(ranked));
            }
            ModelResult {
                model: model.clone(),
                metrics,
            }
        })
        .collect();
    lines.sort_by(|a, b| (&a.model, &a.task_id, a.trial).cmp(&(&b.model, &b.task_id, b.trial)));
    (results, lines)
}

//! Runs every (model, task, trial) not yet in the run directory, with bounded concurrency,
//! appending each decision to `predictions.jsonl` as it arrives; then scores the run.

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

pub use crate::record::files::OUTCOMES_FILE;
pub use crate::score::OutcomeLine;

/// Grades every prediction and computes each model's metrics; also returns every graded
/// observation.
pub fn score(
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

//! Scoring that takes predictions one at a time, so a run's decisions are never all held: each
//! is graded as it is read and kept as a compact record (the called tool, the grade, the rank
//! of the expected tool), then the records are put in suite order and aggregated. The numbers
//! are those of grading the whole list at once: one decision per (model, task, trial) (the
//! first one read), graded in suite order (task position, then trial).

use std::collections::{HashMap, HashSet};

use crate::catalog::Catalog;
use crate::record::run::{ModelResult, PredictionLine};
use crate::score::{Graded, Metrics, Observation, Outcome, OutcomeLine, grade};
use crate::tasks::Task;
use crate::tasks::validate::ArgChecker;

/// One graded decision, without the decision.
struct Record {
    task: u32,
    trial: u32,
    /// The call that served the task (multi-step), else the first call; `None` for an error.
    called: Option<String>,
    graded: Graded,
    text: Option<String>,
    /// Where the expected tool stood in the decision's ranking (ranking models, tasks that
    /// expect a tool).
    rank: Option<Option<usize>>,
    /// Every call's tool and the reply it was made in, for decisions of several calls.
    steps: Option<crate::score::preconditions::Calls>,
}

/// A line of `outcomes.jsonl`, by index until it is written.
struct Row {
    model: u32,
    task: u32,
    trial: u32,
    called: Option<String>,
    outcome: Outcome,
    args_correct: Option<bool>,
}

/// Grades predictions as they come; [`Scorer::finish`] aggregates.
pub(super) struct Scorer<'a> {
    catalog: &'a Catalog,
    tasks: &'a [Task],
    models: &'a [String],
    position: HashMap<&'a str, u32>,
    checker: ArgChecker<'a>,
    /// (model, task id, trial) already read: a line repeated by an interrupted or concurrent
    /// writer is scored once (the first one made). Interned ids keep this small.
    seen: HashSet<(u32, u32, u32)>,
    records: Vec<Vec<Record>>,
}

/// Each model's metrics and the outcome lines, by index until written.
pub(super) struct Scored<'a> {
    pub results: Vec<ModelResult>,
    rows: Vec<Row>,
    tasks: &'a [Task],
    models: &'a [String],
}

impl Scored<'_> {
    /// How many decisions were graded.
    pub(super) fn graded(&self) -> usize {
        self.rows.len()
    }

    /// The outcome lines, sorted by model, task id and trial, one at a time.
    pub(super) fn outcomes(&self) -> impl Iterator<Item = OutcomeLine> + '_ {
        self.rows.iter().map(|r| {
            let task = &self.tasks[r.task as usize];
            OutcomeLine {
                model: self.models[r.model as usize].clone(),
                task_id: task.id.clone(),
                trial: r.trial,
                kind: task.kind,
                expected: task.expected_tool().map(str::to_string),
                called: r.called.clone(),
                outcome: r.outcome,
                args_correct: r.args_correct,
            }
        })
    }
}

impl<'a> Scorer<'a> {
    pub(super) fn new(catalog: &'a Catalog, tasks: &'a [Task], models: &'a [String]) -> Self {
        Scorer {
            catalog,
            tasks,
            models,
            position: tasks
                .iter()
                .enumerate()
                .map(|(i, t)| (t.id.as_str(), i as u32))
                .collect(),
            checker: ArgChecker::new(catalog),
            seen: HashSet::new(),
            records: models.iter().map(|_| Vec::new()).collect(),
        }
    }

    /// Grades one prediction (a repeat of one already read is ignored, and so is one of a
    /// model or task outside the run).
    pub(super) fn add(&mut self, p: &PredictionLine) {
        let Some(pos) = self.position.get(p.task_id.as_str()).copied() else {
            return;
        };
        for model in 0..self.models.len() {
            if self.models[model] == p.model && self.seen.insert((model as u32, pos, p.trial)) {
                self.grade(model, pos, p);
            }
        }
    }

    fn grade(&mut self, model: usize, pos: u32, p: &PredictionLine) {
        let task = &self.tasks[pos as usize];
        let d = &p.decision;
        let graded = grade(task, d, self.catalog, &mut self.checker);
        let called = if d.error.is_some() {
            None
        } else if let Some(unasked) = &graded.unasked {
            Some(unasked.clone())
        } else if graded.outcome == Outcome::Correct
            && let Some(tool) = crate::score::grade::serving_call(task, d)
        {
            Some(tool)
        } else {
            d.tool.clone()
        };
        let rank = match (task.expected_tool(), d.ranking.as_deref()) {
            (Some(e), Some(r)) => Some(crate::score::retrieval::rank_of(e, r)),
            _ => None,
        };
        self.records[model].push(Record {
            task: pos,
            trial: p.trial,
            called,
            graded,
            text: d.text.clone(),
            rank,
            steps: (d.steps.len() > 1)
                .then(|| d.steps.iter().map(|s| (s.tool.clone(), s.turn)).collect()),
        });
    }

    /// For each model and task (by suite position), whether its first trial was right
    /// (`None`: not decided): all the ablation's pairing needs, without the metrics and the
    /// outcome lines of every decision.
    pub(super) fn correct(self) -> Vec<Vec<Option<bool>>> {
        let n = self.tasks.len();
        self.records
            .into_iter()
            .map(|recs| {
                let mut out = vec![None; n];
                for r in recs.iter().filter(|r| r.trial == 0) {
                    out[r.task as usize] = Some(r.graded.outcome == Outcome::Correct);
                }
                out
            })
            .collect()
    }

    /// Each model's metrics, over its decisions in suite order, and the outcome lines.
    pub(super) fn finish(self) -> Scored<'a> {
        let Scorer {
            catalog,
            tasks,
            models,
            records,
            ..
        } = self;
        let tools: Vec<String> = catalog.tools.iter().map(|t| t.name().to_string()).collect();
        let describe = |t: &str| {
            catalog
                .tool(t)
                .and_then(|t| t.description())
                .unwrap_or("")
                .to_string()
        };
        let mut rows = Vec::new();
        let mut results = Vec::new();
        for (mi, (model, mut recs)) in models.iter().zip(records).enumerate() {
            // Suite order, not arrival order: concurrent, resumed and merged runs score
            // identically.
            recs.sort_unstable_by_key(|r| (r.task, r.trial));
            let mut stepped: Vec<(&Task, crate::score::preconditions::Calls)> = Vec::new();
            let mut ranked: Vec<(&str, Option<usize>)> = Vec::new();
            let mut obs = Vec::with_capacity(recs.len());
            let positions: Vec<u32> = recs.iter().map(|r| r.task).collect();
            for r in recs {
                let task = &tasks[r.task as usize];
                if let Some(s) = r.steps {
                    stepped.push((task, s));
                }
                if let (Some(rank), Some(e)) = (r.rank, task.expected_tool()) {
                    ranked.push((e, rank));
                }
                obs.push(Observation {
                    task,
                    trial: r.trial,
                    called: r.called,
                    graded: r.graded,
                    text: r.text,
                });
            }
            let mut metrics = Metrics::compute(&tools, &obs);
            metrics.preconditions = crate::score::metrics::preconditions(&stepped, &describe);
            if !ranked.is_empty() {
                metrics.retrieval = Some(crate::score::retrieval::score_ranks(ranked));
            }
            rows.extend(obs.into_iter().zip(positions).map(|(o, task)| Row {
                model: mi as u32,
                task,
                trial: o.trial,
                outcome: o.graded.outcome,
                args_correct: o.graded.args_correct,
                called: o.called,
            }));
            results.push(ModelResult {
                model: model.clone(),
                metrics,
            });
        }
        rows.sort_by(|a, b| {
            (
                &models[a.model as usize],
                &tasks[a.task as usize].id,
                a.trial,
            )
                .cmp(&(
                    &models[b.model as usize],
                    &tasks[b.task as usize].id,
                    b.trial,
                ))
        });
        Scored {
            results,
            rows,
            tasks,
            models,
        }
    }
}

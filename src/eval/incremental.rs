//! Incremental evaluation: with a base that carries its decisions, per-task marks and per-tool
//! hashes, re-run only the tasks a catalog change can reach and reuse the base's decisions for
//! the rest.
//!
//! A task is re-run when it is new or edited; when its expected tool or its lure changed; when
//! closest tool by BM25 is another one, or one of its top-[`NEIGHBOURS`] neighbours (before or
//! after the change) changed; when a base decision called a tool that changed or errored; or when the base lacks one of its decisions. A tool "changed" when its locked hash
//! differs, or it was added or removed.
//!
//! This is exact for a router that scores each tool on its own. BM25 is nearly that, but its IDF
//! and average document length tie tools together, so a change elsewhere can push a request
//! across its threshold: BM25's decisions cost microseconds, so each is recomputed and a task
//! whose decision would move is re-run too, which keeps BM25 runs exact. An LLM reads every
//! description and is not deterministic, so any change can move any of its decisions and a
//! reused decision could flip the verdict: a run with a model that is not deterministic reuses
//! nothing (it goes in full and says why). The `approximate` flag remains for deterministic
//! models that read every description (none ships today).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::baseline::Baseline;
use crate::catalog::Catalog;
use crate::catalog::lock::LockFile;
use crate::models::bm25::Bm25;
use crate::record::PredictionLine;
pub(crate) use crate::record::reuse::Reuse;
use crate::tasks::Task;

use super::marks::{TaskMark, marks};

/// The tools whose locked definition differs between `old` and `new` (added and removed too).
pub(crate) fn changed_tools(old: &LockFile, new: &LockFile) -> BTreeSet<String> {
    let a: HashMap<&str, &str> = old
        .tools
        .iter()
        .map(|t| (t.name.as_str(), t.sha256.as_str()))
        .collect();
    let b: HashMap<&str, &str> = new
        .tools
        .iter()
        .map(|t| (t.name.as_str(), t.sha256.as_str()))
        .collect();
    a.keys()
        .chain(b.keys())
        .filter(|n| a.get(*n) != b.get(*n))
        .map(|n| n.to_string())
        .collect()
}

/// Whether a task's closest tool is another one now. Tools entering or leaving the closest
/// few are caught when they changed; unchanged ones shuffling below the first only reflect
/// BM25's shared IDF and average length, which a per-tool scorer does not have.
fn moved(old: &[String], new: &[String]) -> bool {
    old.first() != new.first()
}

/// The plan: the base decisions to reuse and what the run says about them.
#[derive(Debug)]
pub(crate) struct Plan {
    pub predictions: Vec<PredictionLine>,
    pub reuse: Reuse,
}

/// What the current run will be, for the comparison with the base's.
pub(crate) struct Current<'a> {
    pub catalog: &'a Catalog,
    pub tasks: &'a [Task],
    /// Model specs with their trials, in order.
    pub models: &'a [(String, u32)],
    pub max_steps: u32,
    /// Whether a model reads every description (anything but a per-tool scorer).
    pub approximate: bool,
    /// The models whose decisions are not deterministic (LLMs): none of their decisions is
    /// reused, since a reused one may differ from the one made now and flip the verdict.
    pub nondeterministic: &'a [String],
}

/// Plans an incremental run against `base`; `Err` says why it must run in full.
pub(crate) fn plan(base: &Baseline, base_name: &str, cur: &Current) -> Result<Plan, String> {
    let (old_lock, old_marks, base_models) = reusable(base, cur)?;
    let new_lock = LockFile::from_catalog(cur.catalog);
    if old_lock.instructions != new_lock.instructions {
        return Err("the server's instructions changed (every decision can move)".into());
    }
    let changed = changed_tools(old_lock, &new_lock);
    let new_marks = marks(cur.catalog, cur.tasks);
    let per_task: usize = base_models.iter().map(|(_, t)| *t as usize).sum();
    let mut by_task: HashMap<&str, Vec<&PredictionLine>> = HashMap::new();
    let specs: BTreeSet<&str> = base_models.iter().map(|(s, _)| s.as_str()).collect();
    for p in &base.predictions {
        if specs.contains(p.model.as_str()) {
            by_task.entry(p.task_id.as_str()).or_default().push(p);
        }
    }
    let hit = |tool: &str| changed.contains(tool);
    // BM25's IDF and average length tie every tool together, so a change elsewhere can push a
    // request across its threshold: its decision is recomputed (microseconds) and compared.
    let routers = routers(&base_models, cur.catalog);
    let bm25_moved = |task: &Task, decisions: &[&PredictionLine]| {
        routers.iter().any(|(spec, r)| {
            let now = r.choose(&task.request).tool;
            decisions
                .iter()
                .filter(|p| p.model == *spec)
                .any(|p| p.decision.tool != now)
        })
    };
    let mut why: BTreeMap<String, usize> = BTreeMap::new();
    let mut predictions = Vec::new();
    for task in cur.tasks {
        let new = &new_marks[&task.id];
        let decisions = by_task
            .get(task.id.as_str())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let reason = match old_marks.get(&task.id) {
            None => Some("new task"),
            Some(old) if old.sha256 != new.sha256 => Some("edited task"),
            Some(_) if task.expected_tool().is_some_and(hit) => Some("expected tool changed"),
            Some(_) if task.lure.as_deref().is_some_and(hit) => Some("lure changed"),
            Some(old) if moved(&old.neighbours, &new.neighbours) => Some("closest tool moved"),
            Some(old) if old.neighbours.iter().any(|n| hit(n)) => Some("a neighbour changed"),
            Some(_) if decisions.len() != per_task => Some("no base decision"),
            Some(_) if bm25_moved(task, decisions) => Some("BM25 decision moved"),
            Some(_) if decisions.iter().any(|p| p.decision.error.is_some()) => {
                Some("base decision errored")
            }
            Some(_)
                if decisions
                    .iter()
                    .any(|p| p.decision.tool.as_deref().is_some_and(hit)) =>
            {
                Some("called tool changed")
            }
            Some(_) => None,
        };
        match reason {
            Some(r) => *why.entry(r.to_string()).or_default() += 1,
            None => predictions.extend(decisions.iter().map(|p| (*p).clone())),
        }
    }
    let rerun_tasks = why.values().sum();
    Ok(Plan {
        reuse: Reuse {
            base: base_name.to_string(),
            base_run: Some(base.run.created.clone()),
            reused: predictions.len(),
            rerun_tasks,
            tasks: cur.tasks.len(),
            why,
            changed_tools: changed.into_iter().collect(),
            approximate: cur.approximate,
        },
        predictions,
    })
}

/// The base's lock, task marks and models, when its decisions can be reused at all: it keeps
/// them, ran the same models, trials and steps, only deterministic ones, and completed.
#[allow(clippy::type_complexity)]
fn reusable<'b>(
    base: &'b Baseline,
    cur: &Current,
) -> Result<
    (
        &'b LockFile,
        &'b BTreeMap<String, TaskMark>,
        Vec<(String, u32)>,
    ),
    String,
> {
    let (Some(old_lock), Some(old_marks)) = (&base.lock, &base.tasks) else {
        return Err("the base keeps no task marks or lock (it was not written by `toolgate ci` of this version)".into());
    };
    if base.predictions.is_empty() {
        return Err("the base keeps no decisions".into());
    }
    let base_models: Vec<(String, u32)> = base
        .run
        .models
        .iter()
        .map(|m| (m.spec.clone(), m.trials))
        .collect();
    if base_models != cur.models || base.run.max_steps != cur.max_steps {
        return Err(format!(
            "the base ran other models, trials or steps ({base_models:?})"
        ));
    }
    if let Some(spec) = cur.nondeterministic.first() {
        return Err(format!(
            "`{spec}` is not deterministic and reads every description: a decision reused from the base may differ from the one made now, so reusing it could flip the verdict (incremental runs reuse only deterministic routers' decisions)"
        ));
    }
    if base.run.status != crate::record::RunStatus::Complete {
        return Err(format!("the base run is {}", base.run.status));
    }
    Ok((old_lock, old_marks, base_models))
}

/// The base's BM25 routers, rebuilt over the current catalog.
fn routers<'m>(base_models: &'m [(String, u32)], catalog: &Catalog) -> Vec<(&'m str, Bm25)> {
    base_models
        .iter()
        .filter_map(|(spec, _)| {
            let rest = spec.strip_prefix("bm25")?;
            let rest = rest.strip_prefix(':').unwrap_or(rest);
            Bm25::from_spec(rest, catalog)
                .ok()
                .map(|r| (spec.as_str(), r))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::lock::LockedTool;

    fn lock(tools: &[(&str, &str)]) -> LockFile {
        LockFile {
            lock_version: 1,
            catalog_sha256: String::new(),
            instructions: None,
            tools: tools
                .iter()
                .map(|(n, h)| LockedTool {
                    name: n.to_string(),
                    sha256: h.to_string(),
                    definition: serde_json::json!({}),
                })
                .collect(),
        }
    }

    #[test]
    fn changed_tools_are_edited_added_and_removed_ones() {
        let old = lock(&[("a", "1"), ("b", "2"), ("c", "3")]);
        let new = lock(&[("a", "1"), ("b", "9"), ("d", "4")]);
        let got: Vec<String> = changed_tools(&old, &new).into_iter().collect();
        assert_eq!(got, ["b", "c", "d"]);
        assert!(changed_tools(&old, &old).is_empty());
    }

    #[test]
    fn only_the_closest_tool_moving_counts() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(!moved(&s(&["a", "b", "c"]), &s(&["a", "c", "b"])));
        assert!(moved(&s(&["a", "b"]), &s(&["b", "a"])));
        assert!(moved(&s(&[]), &s(&["a"])));
    }
}

//! The base a change is measured against: a baseline file (`toolgate.baseline/v1`, one JSON
//! file to commit: the run, its per-task outcomes, the lint report and the lock of the
//! catalog), or a directory (`toolgate ci`'s output directory, e.g. downloaded from the base
//! branch's artifact, or a plain `toolgate run` directory).
//!
//! [`compare`] turns a base and the current results into a [`BaseComparison`]: paired score
//! deltas when the two runs are comparable, a plain statement of why they are not otherwise,
//! new and resolved lint findings, and which tools' definitions changed.

use crate::record::run::RunStatus;
use std::path::Path;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use super::runner::OutcomeLine;
use crate::catalog::lock::{self, LockFile};
use crate::record::lint::LintReport;
use crate::record::{RunFile, seal};
use crate::score::compare::compare as paired;

pub(crate) const BASELINE_SCHEMA: &str = "toolgate.baseline/v1";
/// The baseline file `toolgate ci` always writes into its output directory.
pub(crate) const BASELINE_FILE: &str = "baseline.json";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Baseline {
    pub schema_version: String,
    pub toolgate_version: String,
    #[serde(with = "crate::record::v1::run_serde")]
    pub run: RunFile,
    pub outcomes: Vec<OutcomeLine>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lint: Option<LintReport>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<LockFile>,
    /// Every decision of the run, so an incremental run can reuse what a change cannot reach.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub predictions: Vec<crate::record::PredictionLine>,
    /// Per task: its content hash and its closest tools (see [`super::incremental`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<std::collections::BTreeMap<String, super::marks::TaskMark>>,
    /// The gate settings this run was judged under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<crate::record::settings::AppliedPolicy>,
}

impl Baseline {
    pub(crate) fn new(
        run: RunFile,
        outcomes: Vec<OutcomeLine>,
        lint: LintReport,
        lock: LockFile,
    ) -> Self {
        Baseline {
            schema_version: BASELINE_SCHEMA.into(),
            toolgate_version: env!("CARGO_PKG_VERSION").into(),
            run,
            outcomes,
            lint: Some(lint),
            lock: Some(lock),
            predictions: vec![],
            tasks: None,
            policy: None,
        }
    }

    /// Adds what an incremental run needs: the decisions and the tasks' marks.
    pub(crate) fn with_decisions(
        mut self,
        predictions: Vec<crate::record::PredictionLine>,
        catalog: &crate::catalog::Catalog,
        tasks: &[crate::tasks::Task],
    ) -> Self {
        self.predictions = predictions;
        self.tasks = Some(super::marks::marks(catalog, tasks));
        self
    }

    /// A baseline file's value, once its seal holds.
    fn sealed(value: serde_json::Value, path: &Path) -> anyhow::Result<Self> {
        seal::verify_content(&value, path)?;
        serde_json::from_value(value)
            .with_context(|| format!("the base {} is not a valid baseline", path.display()))
    }

    fn from_file(path: &Path) -> anyhow::Result<Self> {
        let text = crate::fsio::read_text(path)
            .with_context(|| format!("could not read the base {}", path.display()))?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("the base {} is not JSON", path.display()))?;
        match value.get("schema_version").and_then(|v| v.as_str()) {
            Some(BASELINE_SCHEMA) => Self::sealed(value, path),
            Some(crate::record::run::RUN_SCHEMA) => {
                let dir = path.parent().unwrap_or(Path::new("."));
                Self::from_run_dir(if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                })
            }
            Some(other) => bail!(
                "the base {}: schema_version `{other}` is neither {BASELINE_SCHEMA} nor a run file",
                path.display()
            ),
            None => bail!(
                "the base {} has no schema_version: pass a baseline file written by `toolgate ci --write-baseline` or a run directory",
                path.display()
            ),
        }
    }

    fn from_dir(dir: &Path) -> anyhow::Result<Self> {
        let file = dir.join(BASELINE_FILE);
        if file.is_file() {
            let text = crate::fsio::read_text(&file)
                .with_context(|| format!("could not read the base {}", file.display()))?;
            let value = serde_json::from_str(&text)
                .with_context(|| format!("the base {} is not JSON", file.display()))?;
            return Self::sealed(value, &file);
        }
        Self::from_run_dir(dir)
    }

    /// A `toolgate run` directory, or a `toolgate ci` output directory (its run is in `run/`).
    fn from_run_dir(dir: &Path) -> anyhow::Result<Self> {
        let run_dir = if dir.join(crate::record::files::RUN_FILE).is_file() {
            dir.to_path_buf()
        } else {
            dir.join("run")
        };
        if run_dir.join(crate::record::files::RUN_FILE).is_file() {
            seal::verify(&run_dir)?;
        }
        let run = RunFile::read(&run_dir).with_context(|| {
            format!(
                "the base {} holds neither {BASELINE_FILE} nor a run",
                dir.display()
            )
        })?;
        let outcomes = crate::record::read_outcomes(&run_dir)?;
        let lint = read_json::<LintReport>(&dir.join("lint.json"))?;
        Ok(Baseline {
            schema_version: BASELINE_SCHEMA.into(),
            toolgate_version: run.toolgate_version.clone(),
            run,
            outcomes,
            lint,
            lock: None,
            predictions: crate::record::read_predictions(&run_dir)?,
            tasks: None,
            policy: None,
        })
    }
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<Option<T>> {
    if !path.is_file() {
        return Ok(None);
    }
    let text = crate::fsio::read_text(path)
        .with_context(|| format!("could not read {}", path.display()))?;
    serde_json::from_str(&text)
        .map(Some)
        .with_context(|| format!("{} is not valid", path.display()))
}

/// Reads a base: a baseline file, a run.json (with outcomes.jsonl beside it), or a directory
/// holding either.
pub(crate) fn read_base(path: &Path) -> anyhow::Result<Baseline> {
    if path.is_dir() {
        Baseline::from_dir(path)
    } else if path.is_file() {
        Baseline::from_file(path)
    } else {
        bail!("the base {} does not exist", path.display())
    }
}

/// Compares the current run (and lint report and lock) with a base.
pub(crate) fn compare(
    base_path: &Path,
    base: &Baseline,
    head: &RunFile,
    head_outcomes: &[OutcomeLine],
    head_lint: &LintReport,
    head_lock: &LockFile,
    alpha: f64,
) -> BaseComparison {
    let b = &base.run;
    let (pairs, comparable, mut notes) = comparability(base, head);
    let models = if comparable {
        pairs
            .iter()
            .map(|(bm, hm)| paired(bm, &base.outcomes, hm, head_outcomes, alpha))
            .collect()
    } else {
        Vec::new()
    };
    if comparable && models.iter().all(|c| c.shared == 0) {
        notes.push("The base's outcomes share no task with this run.".into());
    }
    if b.catalog.sha256 == head.catalog.sha256 && base.lock.is_none() {
        notes.push("No tool definition changed since the base.".into());
    }
    let (lint_new, lint_resolved) = match &base.lint {
        Some(bl) => {
            let d = crate::record::lint::LintDelta::between(
                String::new(),
                &bl.findings,
                &head_lint.findings,
            );
            (Some(d.introduced), Some(d.resolved))
        }
        None => (None, None),
    };
    let definitions = base.lock.as_ref().map(|l| lock::diff(l, head_lock));
    let tools_added = head
        .catalog
        .tools
        .iter()
        .filter(|t| !b.catalog.tools.contains(t))
        .cloned()
        .collect();
    let tools_removed = b
        .catalog
        .tools
        .iter()
        .filter(|t| !head.catalog.tools.contains(t))
        .cloned()
        .collect();
    BaseComparison {
        base: base_path.to_path_buf(),
        base_created: b.created.clone(),
        base_catalog_sha256: b.catalog.sha256.clone(),
        base_suite_sha256: b.suite.sha256.clone(),
        comparable,
        notes,
        base_accuracy: b.results.first().map(|r| r.metrics.accuracy),
        models,
        lint_new,
        lint_resolved,
        definitions,
        tools_added,
        tools_removed,
    }
}

/// The model pairs the two runs share (same spec, same trials), whether their scores can be
/// compared at all (the same suite, split and steps; descriptions that reach each model), and
/// what a reader should know either way.
fn comparability(base: &Baseline, head: &RunFile) -> (Vec<(String, String)>, bool, Vec<String>) {
    let b = &base.run;
    let mut notes = Vec::new();
    let mut comparable = true;
    if b.suite.sha256 != head.suite.sha256 {
        comparable = false;
        notes.push(format!(
            "The base was scored on another task suite ({} tasks, sha256 {}…) than this run ({} tasks, sha256 {}…), so score deltas would mislead and are not shown. Refresh the baseline on the default branch with the same task file.",
            b.suite.tasks,
            short(&b.suite.sha256),
            head.suite.tasks,
            short(&head.suite.sha256)
        ));
    }
    if b.split != head.split {
        comparable = false;
        notes.push(format!(
            "The base ran the `{}` split, this run `{}`.",
            b.split, head.split
        ));
    }
    let pairs: Vec<(String, String)> = head
        .models
        .iter()
        .filter_map(|m| {
            b.models
                .iter()
                .find(|n| n.spec == m.spec && n.trials == m.trials)
                .map(|n| (n.spec.clone(), m.spec.clone()))
        })
        .collect();
    if pairs.is_empty() {
        comparable = false;
        notes.push(format!(
            "The base was scored with {} and this run with {}: no model (with the same trials) to compare.",
            specs(b),
            specs(head)
        ));
    }
    for (side, run) in [("this run", head), ("the base", b)] {
        for m in run.models.iter().filter(|m| {
            m.descriptions
                .as_ref()
                .is_some_and(|p| p.canary == crate::models::Canary::Ignores)
        }) {
            comparable = false;
            notes.push(format!(
                "Tool descriptions do not reach `{}` on the endpoint {side} used (the description canary got the same call with the descriptions swapped), so a score delta could not come from a description change and is not shown.",
                m.spec
            ));
        }
    }
    if b.max_steps != head.max_steps {
        comparable = false;
        notes.push(format!(
            "The base let models make {} call(s) per task, this run {}.",
            b.max_steps, head.max_steps
        ));
    }
    if base.toolgate_version != env!("CARGO_PKG_VERSION") {
        notes.push(format!(
            "The base was made by toolgate {}, this run by {}: a scoring change between versions would show as a delta.",
            base.toolgate_version,
            env!("CARGO_PKG_VERSION")
        ));
    }
    if b.status != RunStatus::Complete {
        notes.push(format!(
            "The base run is {}: its numbers are not final.",
            b.status
        ));
    }
    (pairs, comparable, notes)
}

use crate::catalog::canonical::short_hash as short;
pub(crate) use crate::record::ci::BaseComparison;

fn specs(r: &RunFile) -> String {
    r.models
        .iter()
        .map(|m| format!("`{}` ×{}", m.spec, m.trials))
        .collect::<Vec<_>>()
        .join(", ")
}

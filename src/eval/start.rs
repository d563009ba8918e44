//! Where a run's decisions go: a resumed run directory, checked to be the same catalog, suite,
//! shard and models, or a new one whose run.json is written first (with, for an incremental
//! run, the base's decisions that still hold, and for a shard the catalog it ran against).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::bail;

use super::dirs::{DirLock, claim_dir};
use super::options::EvalOptions;
use crate::catalog::Catalog;
use crate::catalog::canonical::{catalog_hash, short_hash};
use crate::models::Model;
use crate::models::cost::Estimate;
use crate::record::files::RUN_FILE;
use crate::record::run::{CatalogInfo, ModelInfo, RUN_SCHEMA, RunFile, RunStatus, SuiteInfo};
use crate::tasks::{Task, suite_hash};

/// The time now, as run files record it.
pub(super) fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// What a run is started from.
pub(super) struct Setup<'a> {
    pub(super) catalog: &'a Catalog,
    pub(super) tasks_path: &'a Path,
    pub(super) tasks: &'a [Task],
    pub(super) opts: &'a EvalOptions,
    pub(super) built: &'a [Box<dyn Model>],
    /// Trials per model (1 for a deterministic one).
    pub(super) trials: &'a [u32],
    pub(super) estimates: &'a BTreeMap<String, Estimate>,
    pub(super) nondeterministic: &'a [String],
}

/// A run directory taken for this process, and its run file.
pub(super) struct Started {
    pub(super) dir: PathBuf,
    pub(super) lock: DirLock,
    pub(super) run: RunFile,
    /// Why an incremental run went in full, when it did.
    pub(super) note: Option<String>,
}

/// Resumes the directory `--resume` names, or starts a new one.
pub(super) fn start(x: &Setup) -> anyhow::Result<Started> {
    let previous = match &x.opts.resume {
        Some(dir) if dir.join(RUN_FILE).is_file() => Some((dir, RunFile::read(dir)?)),
        Some(dir) => bail!("{} is not a run directory (no {RUN_FILE})", dir.display()),
        None => None,
    };
    match previous {
        Some((dir, prev)) => resume(x, dir, prev),
        None => fresh(x),
    }
}

/// The directory of an earlier run of the same catalog, suite, shard and models.
fn resume(x: &Setup, dir: &Path, prev: RunFile) -> anyhow::Result<Started> {
    let lock = DirLock::take(dir)?;
    let catalog_sha = catalog_hash(x.catalog);
    if prev.catalog.sha256 != catalog_sha {
        bail!(
            "{} was made from another catalog (sha256 {}…, now {}…): its predictions cannot be resumed against this server",
            dir.display(),
            short_hash(&prev.catalog.sha256),
            short_hash(&catalog_sha)
        );
    }
    if prev.suite.sha256 != suite_hash(x.tasks) {
        bail!(
            "{} was made from another task suite than {} ({} split)",
            dir.display(),
            x.tasks_path.display(),
            x.opts.split.as_str()
        );
    }
    if prev.shard != x.opts.shard {
        bail!(
            "{} ran shard {:?}; resume it with the same --shard, not {:?}",
            dir.display(),
            prev.shard,
            x.opts.shard
        );
    }
    let prev_specs: Vec<String> = prev.models.iter().map(|m| m.spec.clone()).collect();
    let new_specs: Vec<String> = x.built.iter().map(|m| m.spec()).collect();
    if prev_specs != new_specs {
        bail!(
            "{} ran models {prev_specs:?}; resume it with the same models, not {new_specs:?}",
            dir.display()
        );
    }
    Ok(Started {
        dir: dir.to_path_buf(),
        lock,
        run: prev,
        note: None,
    })
}

/// A new run directory with its run file written (and the incremental base's decisions).
fn fresh(x: &Setup) -> anyhow::Result<Started> {
    let dir = claim_dir(x.opts)?;
    let lock = DirLock::take(&dir)?;
    let mut run = new_run(x);
    let note = match &x.opts.incremental {
        Some(inc) => reuse(x, inc, &dir, &mut run)?,
        None => None,
    };
    run.write(&dir)?;
    if x.opts.shard.is_some() {
        // A merge scores the shards without reaching the server again.
        crate::catalog::snapshot::write(&dir.join(super::shard::CATALOG_FILE), x.catalog)?;
    }
    Ok(Started {
        dir,
        lock,
        run,
        note,
    })
}

/// Writes the base's decisions an incremental run can reuse into `dir`; returns why it could
/// not, when it runs in full.
fn reuse(
    x: &Setup,
    inc: &super::options::IncrementalBase,
    dir: &Path,
    run: &mut RunFile,
) -> anyhow::Result<Option<String>> {
    let models: Vec<(String, u32)> = run
        .models
        .iter()
        .map(|m| (m.spec.clone(), m.trials))
        .collect();
    let cur = super::incremental::Current {
        catalog: x.catalog,
        tasks: x.tasks,
        models: &models,
        max_steps: run.max_steps,
        approximate: x.opts.models.iter().any(|m| !m.is_bm25()),
        nondeterministic: x.nondeterministic,
    };
    match super::incremental::plan(&inc.base, &inc.name, &cur) {
        Ok(plan) => {
            super::shard::write_predictions(dir, &plan.predictions)?;
            crate::elog!("{}", plan.reuse.sentence());
            run.reused = Some(plan.reuse);
            Ok(None)
        }
        Err(why) => {
            crate::elog!("incremental run not possible, running in full: {why}");
            Ok(Some(why))
        }
    }
}

/// The run file of a new run: what was run, on what, with what, before any decision.
fn new_run(x: &Setup) -> RunFile {
    let (catalog, tasks, opts) = (x.catalog, x.tasks, x.opts);
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    for t in tasks {
        *by_kind.entry(t.kind.as_str().to_string()).or_default() += 1;
    }
    RunFile {
        schema_version: RUN_SCHEMA.into(),
        toolgate_version: env!("CARGO_PKG_VERSION").into(),
        created: now(),
        finished: None,
        status: RunStatus::Running,
        catalog: CatalogInfo {
            source: catalog.source.clone(),
            sha256: catalog_hash(catalog),
            tools: catalog.tools.iter().map(|t| t.name().to_string()).collect(),
        },
        suite: SuiteInfo {
            path: x.tasks_path.display().to_string(),
            sha256: suite_hash(tasks),
            tasks: tasks.len(),
            by_kind,
            pending: tasks.iter().filter(|t| !t.reviewed()).count(),
            stale: tasks
                .iter()
                .filter(|t| t.approval() == crate::tasks::task::Approval::Stale)
                .count(),
        },
        models: x
            .built
            .iter()
            .zip(x.trials)
            .map(|(m, t)| ModelInfo {
                spec: m.spec(),
                deterministic: m.deterministic(),
                trials: *t,
                served_by: vec![],
                notes: vec![],
                descriptions: None,
                usage: None,
                stopped: None,
                estimate: x.estimates.get(&m.spec()).cloned(),
            })
            .collect(),
        trials: opts.trials,
        split: opts.split.as_str().into(),
        max_steps: opts.max_steps.max(1),
        seed: opts.model.llm.seed,
        base_url: RunFile::resumable_url(opts.model.base_url.as_deref()),
        concurrency: opts.model.llm.concurrency,
        shard: opts.shard,
        only: (!opts.only.is_empty()).then(|| opts.only.clone()),
        reused: None,
        belt: None,
        curve: None,
        ablation: None,
        results: vec![],
        gate: None,
    }
}

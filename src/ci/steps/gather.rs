//! Step 1: what the gate decides on. The base is read first (a bad base file fails before
//! anything is spent), then the catalog (live, in a belt, or the shards'), the lock check,
//! the lint report and what it changes against the base, and the tasks (the user's, or
//! generated from this catalog).

use std::path::PathBuf;

use super::Trail;
use crate::catalog::Catalog;
use crate::catalog::lock::LockFile;
use crate::ci::files::{self, OutDir};
use crate::ci::inputs::tasks_file;
use crate::ci::settings::CiSettings;
use crate::ci::{belt, lint_delta, shards};
use crate::eval::baseline::{self, Baseline};
use crate::lint::LintSettings;
use crate::out::write_file;
use crate::record::gate::LockStatus;
use crate::record::lint::{LintDelta, LintReport};
use crate::tasks::Task;

/// Where `toolgate ci`'s run comes from.
pub(crate) enum Source {
    /// The server's catalog (already listed): evaluate here.
    Live(Box<Catalog>),
    /// Fan-in: the shard folders of a CI matrix (`ci --shard K/N` jobs), joined.
    Shards(Vec<PathBuf>),
    /// The server's catalog, evaluated inside a belt (`--belt`).
    Belt(Box<Catalog>, Box<belt::BeltRun>),
}

/// Everything the later steps read.
pub(crate) struct Inputs {
    /// The base file and what it holds (`None`: no base, or none yet on this branch).
    pub base: Option<(PathBuf, Baseline)>,
    pub catalog: Catalog,
    /// A fan-in's shards, joined by the measure step.
    pub shards: Option<shards::Gathered>,
    pub belt: Option<belt::BeltRun>,
    /// The catalog as a lock (written to the output folder, and into the baseline).
    pub head_lock: LockFile,
    pub lock: LockStatus,
    pub lint: LintReport,
    /// Lint findings introduced and resolved against the base, and whether they gate.
    pub lint_delta: Option<LintDelta>,
    pub delta_gates: bool,
    pub tasks_path: PathBuf,
    pub tasks_generated: bool,
    pub tasks: Vec<Task>,
}

/// Gathers the inputs, writing the lock and the lint reports into `out`.
pub(crate) async fn gather(
    s: &CiSettings,
    lint_settings: &LintSettings,
    source: Source,
    out: &OutDir,
    trail: &mut Trail,
) -> anyhow::Result<Inputs> {
    let base = read_base(s, &mut trail.notices)?;
    let (catalog, shards, belt) = match source {
        Source::Live(c) => (*c, None, None),
        Source::Belt(c, b) => (*c, None, Some(*b)),
        Source::Shards(dirs) => {
            let (catalog, gathered) = shards::gather(&dirs, &mut trail.notices)?;
            (catalog, Some(gathered), None)
        }
    };
    trail.notices.extend(
        base.as_ref()
            .and_then(|(_, b)| belt::base_notice(&b.run, belt.as_ref().map(|b| &b.info))),
    );
    out.prepare()?;

    let head_lock = LockFile::from_catalog(&catalog);
    let lock = belt::check_lock(s, &head_lock, belt.as_ref(), &mut trail.notices)?;
    write_file(&out.file(files::LOCK), &head_lock.to_text())?;
    trail.wrote(|w| &mut w.lock, &out.file(files::LOCK));

    let lint = lint(s, lint_settings, &catalog, out, trail)?;
    let delta = lint_delta::delta(
        s,
        lint_settings,
        &head_lock,
        &lint,
        base.as_ref().map(|(_, b)| b),
    )?;
    let (lint_delta, delta_gates) = match delta {
        Some((d, g)) => (Some(d), g),
        None => (None, false),
    };
    crate::limits::trim_heap();

    let (tasks_path, tasks_generated) = tasks_file(s, &catalog, &lock, out, &mut trail.notices)?;
    let tasks = crate::eval::load_tasks(&catalog, &tasks_path, s.eval.split)?;
    Ok(Inputs {
        base,
        catalog,
        shards,
        belt,
        head_lock,
        lock,
        lint,
        lint_delta,
        delta_gates,
        tasks_path,
        tasks_generated,
        tasks,
    })
}

/// The base, if one was given and exists (the first run on a branch has none: a notice).
fn read_base(
    s: &CiSettings,
    notices: &mut Vec<String>,
) -> anyhow::Result<Option<(PathBuf, Baseline)>> {
    Ok(match &s.base {
        None => None,
        Some(p) if !p.exists() => {
            notices.push(format!(
                "No base at {}: score deltas are not shown (the first run on a branch has none).",
                p.display()
            ));
            None
        }
        Some(p) => Some((p.clone(), baseline::read_base(p)?)),
    })
}

/// Lints the catalog (findings located in the snapshot read, else the lock file) and writes
/// lint.json and lint.sarif.
fn lint(
    s: &CiSettings,
    lint_settings: &LintSettings,
    catalog: &Catalog,
    out: &OutDir,
    trail: &mut Trail,
) -> anyhow::Result<LintReport> {
    let locate = catalog.snapshot_path.clone().or_else(|| {
        s.policy
            .lock_path
            .is_file()
            .then(|| s.policy.lock_path.clone())
    });
    let lint = LintReport::for_catalog(catalog, lint_settings, locate.as_deref())?;
    // Streamed through the mask: at scale each is tens of megabytes.
    crate::out::write_shown_json(&out.file(files::LINT_JSON), &lint)?;
    crate::out::write_shown_json(
        &out.file(files::LINT_SARIF),
        &crate::report::sarif::lint(&lint),
    )?;
    trail.wrote(|w| &mut w.lint_json, &out.file(files::LINT_JSON));
    trail.wrote(|w| &mut w.sarif, &out.file(files::LINT_SARIF));
    Ok(lint)
}

//! `toolgate ci` on a CI matrix: `--shard K/N` jobs each evaluate one slice of the suite and
//! keep its run folder; one fan-in job (`--merge`) joins them and gates, comments and draws the
//! badge from the joined run exactly as an unsharded `toolgate ci` would.

use std::path::{Path, PathBuf};

use super::CiSettings;
use super::files::OutDir;
use super::inputs::tasks_file;
use crate::catalog::Catalog;
use crate::eval::shard::{self, Shard};
use crate::eval::{self, EvalOptions, RunDir};
use crate::gate::Exit;
use crate::record::{PredictionLine, RunFile};
use crate::report::Format;
use crate::tasks::Task;

/// The shards, checked against each other, waiting for the suite check and the join.
pub(crate) struct Gathered {
    first: RunFile,
    predictions: Vec<PredictionLine>,
}

/// Finds and checks the shards under `dirs` (every shard once, one catalog, suite and model
/// set) and returns the catalog they ran against.
pub(crate) fn gather(
    dirs: &[PathBuf],
    notices: &mut Vec<String>,
) -> anyhow::Result<(Catalog, Gathered)> {
    let dirs = shard::expand_dirs(dirs)?;
    let (first, predictions, catalog) = shard::gather(&dirs)?;
    notices.push(format!(
        "This run joins {} shards of a CI matrix ({} decisions); the catalog is the one the shards listed.",
        dirs.len(),
        predictions.len()
    ));
    Ok((catalog, Gathered { first, predictions }))
}

/// Joins the shards into `<out>/run` once `tasks` (read from `tasks_path`) is shown to be the
/// suite they ran.
pub(crate) fn join(
    g: Gathered,
    out: &OutDir,
    tasks: &[Task],
    tasks_path: &Path,
) -> anyhow::Result<RunDir> {
    let Gathered {
        mut first,
        predictions,
    } = g;
    shard::check_suite(&first, tasks, tasks_path)?;
    first.suite.path = tasks_path.display().to_string();
    out.clear_run()?;
    RunDir::merged(&out.run_dir(), first, predictions)
}

/// A matrix job: evaluates slice `shard` into `<out>/run` (resumable) and stops there; the
/// fan-in job lints, gates and reports. Exits 0 once the slice is complete, whatever its
/// scores: a slice's numbers are not the server's.
pub(crate) async fn run_shard(
    s: &CiSettings,
    catalog: &Catalog,
    shard: Shard,
    format: Format,
) -> anyhow::Result<Exit> {
    let out = OutDir(s.out.clone());
    out.prepare()?;
    let mut notices = s.notices.clone();
    // The same lock reading as the fan-in's, so both generate the same suite.
    let lock = super::inputs::lock_status(
        s.policy.lock_check,
        &s.policy.lock_path,
        &crate::catalog::lock::LockFile::from_catalog(catalog),
    )?;
    let (tasks_path, _) = tasks_file(s, catalog, &lock, &out, &mut notices)?;
    let tasks = eval::load_tasks(catalog, &tasks_path, s.eval.split)?;
    let run_dir = out.run_dir();
    let mut opts = EvalOptions {
        model: s.model_options()?,
        ..s.eval.clone()
    };
    if s.resume && run_dir.join(crate::record::files::RUN_FILE).is_file() {
        opts.resume = Some(run_dir.clone());
        opts.out = None;
    } else {
        out.clear_run()?;
    }
    let mut rd = eval::evaluate(catalog, &tasks_path, &tasks, &opts).await?;
    let mine = shard::select(&tasks, Some(shard));
    rd.finalize(catalog, &mine, &s.policy)?;
    crate::report::write_run_reports(&rd.dir, &rd.run)?;
    let line = format!(
        "shard {}/{}: {} of {} tasks evaluated into {} ({}); join every shard with `toolgate ci --merge DIR…` in a fan-in job",
        shard.k,
        shard.n,
        mine.len(),
        tasks.len(),
        rd.dir.display(),
        rd.run.status
    );
    match format {
        Format::Json => crate::out::println(&serde_json::to_string_pretty(&rd.run)?),
        _ => crate::out::println(&line),
    }
    for n in notices {
        crate::elog!("note: {n}");
    }
    Ok(crate::gate::shard(&rd.run).exit())
}

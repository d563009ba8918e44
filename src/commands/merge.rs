//! `toolgate merge SHARD_DIR… --out DIR`: one run from the shards of a CI matrix.

use std::path::PathBuf;

use crate::adapt::run::policy;
use crate::adapt::{print_run, verdict, write_badge};
use crate::cli::MergeArgs;
use crate::eval::{self, RunDir, shard};
use crate::gate::Exit;

pub(crate) fn run(a: &MergeArgs) -> anyhow::Result<Exit> {
    let policy = policy(&a.gate)?;
    let dirs = shard::expand_dirs(&a.shards)?;
    let (first, predictions, catalog) = shard::gather(&dirs)?;
    let tasks_path = a
        .tasks
        .clone()
        .unwrap_or_else(|| PathBuf::from(&first.suite.path));
    let tasks = eval::load_tasks(&catalog, &tasks_path, shard::split_of(&first)?)?;
    shard::check_suite(&first, &tasks, &tasks_path)?;
    crate::elog!(
        "merging {} shard(s): {} decision(s)",
        dirs.len(),
        predictions.len()
    );
    let mut rd = RunDir::merged(&a.out, first, predictions)?;
    let decision = rd.finalize(&catalog, &tasks, &policy)?;
    crate::report::write_run_reports(&rd.dir, &rd.run)?;
    if decision.passed() {
        write_badge(&rd.run, &a.gate)?;
    }
    print_run(&rd.run, a.format);
    Ok(verdict(&decision))
}

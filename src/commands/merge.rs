//! `toolgate merge SHARD_DIR… --out DIR`: one run from the shards of a CI matrix.

use std::path::PathBuf;

use anyhow::bail;

use super::run::policy;
use super::{Exit, print_run, verdict, write_badge};
use crate::cli::MergeArgs;
use crate::eval::{self, RunDir, shard};

pub fn run(a: &MergeArgs) -> anyhow::Result<Exit> {
    let policy = policy(&a.gate)?;
    let (first, predictions, catalog) = shard::gather(&a.shards)?;
    let tasks_path = PathBuf::from(&first.suite.path);
    let split = <crate::tasks::SplitArg as clap::ValueEnum>::from_str(&first.split, true)
        .map_err(|e| anyhow::anyhow!("the shards' split `{}`: {e}", first.split))?;
    let tasks = eval::load_tasks(&catalog, &tasks_path, split)?;
    if crate::tasks::suite_hash(&tasks) != first.suite.sha256 {
        bail!(
            "{} is not the task suite the shards ran (its sha256 differs): merge where the same task file is checked out",
            tasks_path.display()
        );
    }
    eprintln!(
        "merging {} shard(s): {} decision(s)",
        a.shards.len(),
        predictions.len()
    );
    let mut rd = RunDir::merged(&a.out, first, predictions)?;
    let decision = rd.finalize(&catalog, &tasks, &policy)?;
    if decision.passed() {
        write_badge(&rd.run, &a.gate)?;
    }
    print_run(&rd.run, a.format);
    Ok(verdict(&decision))
}

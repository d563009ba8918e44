//! Sharding a run across CI jobs and merging the shards back: `--shard K/N` runs the tasks whose
//! id hashes to slice K of N (every model and trial of a task stays in one shard), and
//! `toolgate merge` joins the shards' predictions into one run directory that scores exactly as
//! an unsharded run of the same suite would.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::catalog::Catalog;
use crate::record::files::{PREDICTIONS_FILE, RUN_FILE};
pub(crate) use crate::record::shard::Shard;
use crate::record::{RunFile, RunStatus, read_predictions};
use crate::tasks::Task;

/// The catalog a shard ran against, kept in its run directory so a merge needs no server.
pub(crate) const CATALOG_FILE: &str = "catalog.json";

/// The tasks a run with `shard` works on.
/// A whole run borrows the suite; a shard copies only its slice.
pub(crate) fn select(tasks: &[Task], shard: Option<Shard>) -> std::borrow::Cow<'_, [Task]> {
    match shard {
        None => std::borrow::Cow::Borrowed(tasks),
        Some(s) => tasks.iter().filter(|t| s.keeps(&t.id)).cloned().collect(),
    }
}

/// Shard run directories checked against each other: same catalog, suite, models, split,
/// trials and N; every shard 1..=N present once. Returns the first run, every prediction,
/// the catalog the shards ran against, and the shards' notes.
pub(crate) fn gather(
    dirs: &[PathBuf],
) -> anyhow::Result<(RunFile, Vec<crate::record::PredictionLine>, Catalog)> {
    if dirs.is_empty() {
        bail!("merge: name the shard run directories");
    }
    let runs: Vec<(PathBuf, RunFile)> = dirs
        .iter()
        .map(|d| {
            crate::record::seal::verify(d)?;
            RunFile::read(d).map(|r| (d.clone(), r))
        })
        .collect::<anyhow::Result<_>>()?;
    let (first_dir, first) = &runs[0];
    let Some(n) = first.shard.map(|s| s.n) else {
        bail!(
            "{} is not a shard (it was not run with --shard K/N)",
            first_dir.display()
        );
    };
    check_set(&runs, n)?;
    let mut predictions = Vec::new();
    for (dir, _) in &runs {
        predictions.extend(read_predictions(dir).with_context(|| format!("in {}", dir.display()))?);
    }
    let catalog_file = first_dir.join(CATALOG_FILE);
    let mut catalog = crate::catalog::snapshot::read(&catalog_file)
        .with_context(|| format!("{} keeps no {CATALOG_FILE}", first_dir.display()))?;
    catalog.source = first.catalog.source.clone();
    if crate::catalog::canonical::catalog_hash(&catalog) != first.catalog.sha256 {
        bail!(
            "{} does not match the catalog its run was scored with",
            catalog_file.display()
        );
    }
    Ok((first.clone(), predictions, catalog))
}

/// Every shard ran the same run (catalog, suite, split, models, trials, steps and N), is
/// complete, and each of 1..=N is there once.
fn check_set(runs: &[(PathBuf, RunFile)], n: u32) -> anyhow::Result<()> {
    let (first_dir, first) = &runs[0];
    let mut seen: BTreeMap<u32, &Path> = BTreeMap::new();
    for (dir, r) in runs {
        let Some(s) = r.shard else {
            bail!(
                "{} is not a shard (it was not run with --shard K/N)",
                dir.display()
            );
        };
        let differs = |what: &str| {
            anyhow::anyhow!(
                "{} ran another {what} than {}: shards of different runs cannot be merged",
                dir.display(),
                first_dir.display()
            )
        };
        if s.n != n {
            return Err(differs(&format!("number of shards ({} vs {n})", s.n)));
        }
        if r.catalog.sha256 != first.catalog.sha256 {
            return Err(differs("catalog"));
        }
        if r.suite.sha256 != first.suite.sha256 || r.split != first.split {
            return Err(differs("task suite or split"));
        }
        let specs = |x: &RunFile| {
            x.models
                .iter()
                .map(|m| (m.spec.clone(), m.trials))
                .collect::<Vec<_>>()
        };
        if specs(r) != specs(first) || r.max_steps != first.max_steps {
            return Err(differs("set of models, trials or steps"));
        }
        if r.status != RunStatus::Complete {
            bail!(
                "{} is {}, not complete: finish it with --resume first",
                dir.display(),
                r.status
            );
        }
        if let Some(other) = seen.insert(s.k, dir) {
            bail!(
                "shard {}/{n} is given twice: {} and {}",
                s.k,
                other.display(),
                dir.display()
            );
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        bail!(
            "shard(s) {} missing: every shard 1..={n} must be merged",
            missing.join(", ")
        );
    }
    Ok(())
}

/// The shard run directories named by `dirs`: each may be a run directory (run.json), a
/// `toolgate ci` output folder (run/run.json), or a folder of those (e.g. where the CI
/// matrix's artifacts were downloaded), expanded in name order.
pub(crate) fn expand_dirs(dirs: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    fn run_dir(d: &Path) -> Option<PathBuf> {
        if d.join(RUN_FILE).is_file() {
            Some(d.to_path_buf())
        } else if d.join("run").join(RUN_FILE).is_file() {
            Some(d.join("run"))
        } else {
            None
        }
    }
    let mut out = Vec::new();
    for d in dirs {
        if let Some(r) = run_dir(d) {
            out.push(r);
            continue;
        }
        let entries = std::fs::read_dir(d)
            .with_context(|| format!("{} is not a shard run directory", d.display()))?;
        let mut subs: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .filter_map(|p| run_dir(&p))
            .collect();
        if subs.is_empty() {
            bail!(
                "{} holds no shard run directory (no {RUN_FILE}, run/{RUN_FILE} or sub-folder with one)",
                d.display()
            );
        }
        subs.sort();
        out.extend(subs);
    }
    Ok(out)
}

/// Checks that `tasks` (read from `path`) is the suite the shards ran.
pub(crate) fn check_suite(first: &RunFile, tasks: &[Task], path: &Path) -> anyhow::Result<()> {
    if crate::tasks::suite_hash(tasks) != first.suite.sha256 {
        bail!(
            "{} is not the task suite the shards ran (its sha256 differs): merge where the same task file is checked out",
            path.display()
        );
    }
    Ok(())
}

/// The split the shards ran.
pub(crate) fn split_of(first: &RunFile) -> anyhow::Result<crate::tasks::SplitArg> {
    <crate::tasks::SplitArg as clap::ValueEnum>::from_str(&first.split, true)
        .map_err(|e| anyhow::anyhow!("the shards' split `{}`: {e}", first.split))
}

/// Writes the merged predictions into `out` (a new directory).
pub(crate) fn write_predictions(
    out: &Path,
    predictions: &[crate::record::PredictionLine],
) -> anyhow::Result<()> {
    let mut text = String::new();
    for p in predictions {
        text.push_str(&serde_json::to_string(p)?);
        text.push('\n');
    }
    crate::out::write_file(&out.join(PREDICTIONS_FILE), &text)?;
    let _ = RUN_FILE;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_every_task_once() {
        let ids: Vec<String> = (0..1000).map(|i| format!("task-{i}")).collect();
        for n in [1, 4, 8] {
            let mut count = 0;
            for k in 1..=n {
                let s = Shard { k, n };
                count += ids.iter().filter(|id| s.keeps(id)).count();
            }
            assert_eq!(count, ids.len());
        }
        assert!("0/4".parse::<Shard>().is_err() && "5/4".parse::<Shard>().is_err());
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { k: 2, n: 8 }));
    }
}

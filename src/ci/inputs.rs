//! What a `toolgate ci` run starts from, besides the catalog: the lock check's result, the
//! task file (the user's, or generated into the output folder), and the base an incremental
//! run may reuse.

use std::path::{Path, PathBuf};

use anyhow::bail;

use super::CiSettings;
use super::files::{self, OutDir};
use crate::catalog::Catalog;
use crate::catalog::lock::{self, LockFile};
use crate::eval::baseline::Baseline;
use crate::gate::{LockCheck, LockState, LockStatus};
use crate::github::GithubEnv;
use crate::tasks::template::{GenerateOptions, generate};

/// The lock check: how the server compares with the reviewed lock at `path`.
pub fn lock_status(
    policy: LockCheck,
    path: &Path,
    current: &LockFile,
) -> anyhow::Result<LockStatus> {
    let mut status = LockStatus {
        path: path.display().to_string(),
        status: LockState::Off,
        policy,
        diff: None,
    };
    if policy == LockCheck::Off {
        return Ok(status);
    }
    if !path.is_file() {
        status.status = LockState::Missing;
        return Ok(status);
    }
    let old = LockFile::read(path)?;
    let d = lock::diff(&old, current);
    if d.is_empty() {
        status.status = LockState::Match;
    } else {
        status.status = LockState::Changed;
        status.diff = Some(d);
    }
    Ok(status)
}

/// The task file: the user's, or one generated from `catalog` into the output folder (with a
/// notice that it cannot be compared with a base). Returns its path and whether it was made.
pub fn tasks_file(
    s: &CiSettings,
    catalog: &Catalog,
    out: &OutDir,
    notices: &mut Vec<String>,
) -> anyhow::Result<(PathBuf, bool)> {
    if let Some(p) = &s.tasks {
        return Ok((p.clone(), false));
    }
    let g = generate(catalog, &GenerateOptions::default());
    if g.tasks.is_empty() {
        bail!(
            "no tasks could be generated from {}: pass --tasks FILE",
            catalog.source
        );
    }
    if !g.unphrased.is_empty() {
        let names: Vec<String> = g.unphrased.iter().map(|(t, _)| format!("`{t}`")).collect();
        notices.push(format!(
            "{} tool(s) have no generated tasks because their descriptions add too few words to their names to ask for them without echoing the name: {}. Write tasks for them.",
            names.len(),
            names.join(", ")
        ));
    }
    let p = out.file(files::TASKS_JSONL);
    crate::tasks::write_tasks(&p, &g.tasks)?;
    notices.push(format!(
        "No task file was given, so {} tasks were generated from this catalog (templates, seed 1). They change when descriptions change, so they cannot be compared with a base: generate a task file once (`toolgate generate`), review it and commit it.",
        g.tasks.len()
    ));
    Ok((p, true))
}

/// The base an `--incremental` run reuses, unless this run must be a full one (no base; on
/// GitHub outside a pull request; the `--full-every` turn), which a notice then says.
pub(super) fn incremental_base(
    s: &CiSettings,
    gh: &GithubEnv,
    base: Option<&(PathBuf, Baseline)>,
    notices: &mut Vec<String>,
) -> Option<crate::eval::rundir::IncrementalBase> {
    if !s.incremental {
        return None;
    }
    let full = |why: &str, notices: &mut Vec<String>| {
        notices.push(format!("This run went in full (not incremental): {why}."));
        None
    };
    let event = gh.event_name.as_deref().unwrap_or("");
    if gh.actions && !event.starts_with("pull_request") {
        return full(
            &format!(
                "outside a pull request (`{event}`) every decision is made anew, so the next base is a full one"
            ),
            notices,
        );
    }
    if let (Some(n), Some(k)) = (s.full_every, gh.run_number)
        && k % n == 0
    {
        return full(
            &format!("run {k} is a full run (--full-every {n})"),
            notices,
        );
    }
    let Some((path, b)) = base else {
        return full("there is no base to reuse decisions from", notices);
    };
    Some(crate::eval::rundir::IncrementalBase {
        base: std::sync::Arc::new(b.clone()),
        name: path.display().to_string(),
    })
}

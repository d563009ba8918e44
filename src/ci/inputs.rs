//! What a `toolgate ci` run starts from, besides the catalog: the lock check's result, the
//! task file (the user's, or generated into the output folder), and the base an incremental
//! run may reuse.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use anyhow::bail;

use super::CiSettings;
use super::files::{self, OutDir};
use crate::catalog::Catalog;
use crate::catalog::lock::{self, LockFile};
use crate::eval::baseline::Baseline;
use crate::gate::{LockCheck, LockState, LockStatus};
use crate::github::GithubEnv;
use crate::tasks::Task;
use crate::tasks::template::{GenerateOptions, generate};

/// The lock check: how the server compares with the reviewed lock at `path`.
pub(crate) fn lock_status(
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

/// Where generated tasks are written from: the base revision's reviewed definitions in a pull
/// request (so base and head are scored on the same requests), else the reviewed lock when it
/// matches the server (the same canonical form, so the base branch's run generates the same
/// suite), else the server's catalog as listed.
fn generation_source<'c>(
    s: &CiSettings,
    catalog: &'c Catalog,
    lock: &LockStatus,
) -> anyhow::Result<(Cow<'c, Catalog>, &'static str)> {
    // A belt's lock holds every server's section: the server's own catalog is generated from.
    if s.belt.is_some() || s.lock_section.is_some() {
        return Ok((Cow::Borrowed(catalog), "this catalog"));
    }
    if let Some(p) = &s.base_lock {
        return Ok((
            Cow::Owned(crate::catalog::snapshot::read(p)?),
            "the base revision's reviewed definitions (its toolgate.lock)",
        ));
    }
    if lock.status == LockState::Match {
        return Ok((
            Cow::Owned(crate::catalog::snapshot::read(&s.policy.lock_path)?),
            "the reviewed definitions (toolgate.lock, which matches the server)",
        ));
    }
    Ok((Cow::Borrowed(catalog), "this catalog"))
}

/// The generated requests for tools whose description changed since `from`: how many tools,
/// and how many of the requests' words only the old description has and only the new one has
/// (words of the tool's name and parameter names, which requests carry either way, set
/// aside). Requests written from the old wording reuse its words, so a word-matching score
/// favours it.
fn wording_overlap(from: &Catalog, catalog: &Catalog, tasks: &[Task]) -> (usize, usize, usize) {
    use std::collections::HashSet;
    let (mut tools, mut old_only, mut new_only) = (0, 0, 0);
    for old in &from.tools {
        let Some(new) = catalog.tool(old.name()) else {
            continue;
        };
        if old.description() == new.description() {
            continue;
        }
        tools += 1;
        let mut common: HashSet<String> =
            crate::text::content_words(&crate::text::name_words(old.name()).join(" "))
                .into_iter()
                .collect();
        for t in [old, new] {
            for (p, _) in t.params() {
                common.extend(crate::text::content_words(
                    &crate::text::name_words(p).join(" "),
                ));
            }
        }
        let words = |t: &crate::catalog::Tool| -> HashSet<String> {
            crate::text::content_words(t.description().unwrap_or(""))
                .into_iter()
                .filter(|w| !common.contains(w))
                .collect()
        };
        let (ow, nw) = (words(old), words(new));
        for t in tasks
            .iter()
            .filter(|t| t.expected.as_ref().is_some_and(|e| e.tool == old.name()))
        {
            for w in crate::text::content_words(&t.request) {
                match (ow.contains(&w), nw.contains(&w)) {
                    (true, false) => old_only += 1,
                    (false, true) => new_only += 1,
                    _ => {}
                }
            }
        }
    }
    (tools, old_only, new_only)
}

/// The task file: the user's, or one generated (see [`generation_source`]) into the output
/// folder, with notices that say what it is and whom it favours. Returns its path and whether
/// it was made.
pub(crate) fn tasks_file(
    s: &CiSettings,
    catalog: &Catalog,
    lock: &LockStatus,
    out: &OutDir,
    notices: &mut Vec<String>,
) -> anyhow::Result<(PathBuf, bool)> {
    if let Some(p) = &s.tasks {
        return Ok((p.clone(), false));
    }
    let (from, source) = generation_source(s, catalog, lock)?;
    let g = generate(&from, &GenerateOptions::default());
    let (tasks, mut gone) = askable(g.tasks, catalog);
    if tasks.is_empty() {
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
    if !gone.is_empty() {
        gone.sort();
        gone.dedup();
        notices.push(format!(
            "Generated requests naming tools this change removed were left out ({}), so this suite differs from the base's.",
            crate::text::list_some(&gone, 5)
        ));
    }
    let p = out.file(files::TASKS_JSONL);
    crate::tasks::write_tasks(&p, &tasks)?;
    let same = if s.base_lock.is_some() {
        " Base and head are scored on these same requests."
    } else {
        ""
    };
    notices.push(format!(
        "No task file was given, so {} tasks were generated from {source} (templates, seed 1), pending review: a smoke suite.{same} Generate a task file once (`toolgate generate`), review it and commit it for numbers that stand.",
        tasks.len()
    ));
    notices.extend(what_favours(&from, catalog, &tasks));
    Ok((p, true))
}

/// Requests for tools this change removed cannot be asked of it: the generated tasks that
/// can, and the removed tools the others named (a removed lure only loses its near-miss
/// label).
fn askable(generated: Vec<Task>, catalog: &Catalog) -> (Vec<Task>, Vec<String>) {
    let (mut tasks, mut gone) = (Vec::new(), Vec::new());
    for mut t in generated {
        if t.lure.as_ref().is_some_and(|l| catalog.tool(l).is_none()) {
            gone.extend(t.lure.take());
        }
        let missing: Vec<String> = t
            .expected
            .iter()
            .flat_map(|e| std::iter::once(&e.tool).chain(&e.acceptable))
            .filter(|n| catalog.tool(n).is_none())
            .cloned()
            .collect();
        if missing.is_empty() {
            tasks.push(t);
        } else {
            gone.extend(missing);
        }
    }
    (tasks, gone)
}

/// What requests generated from the base's definitions leave out or favour: tools this change
/// adds have none, and words only the old descriptions have favour the old wording.
fn what_favours(from: &Catalog, catalog: &Catalog, tasks: &[Task]) -> Vec<String> {
    let mut notices = Vec::new();
    let added: Vec<String> = catalog
        .tools
        .iter()
        .filter(|t| from.tool(t.name()).is_none())
        .map(|t| t.name().to_string())
        .collect();
    if !added.is_empty() {
        notices.push(format!(
            "{} tool(s) this change adds have no generated requests (the requests come from the base's definitions): {}. Write tasks for them.",
            added.len(),
            crate::text::list_some(&added, 5)
        ));
    }
    let (changed, old_only, new_only) = wording_overlap(from, catalog, tasks);
    // Requests made from the old wording carry the words a rewrite dropped: each is a match
    // for a word-matching search that only the old description can win.
    if changed > 0 && old_only > 0 {
        notices.push(format!(
            "The generated requests were written from the base's descriptions, so this comparison favours the old wording: for the {changed} tool(s) whose description changed, the requests use {old_only} word(s) that only the old description has (and {new_only} that only the new one has; names and parameter names set aside). Judge a rewrite on requests written in users' words (a reviewed task file) or with a model."
        ));
    }
    notices
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

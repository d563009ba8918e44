//! Judging each proposal: measured on every dev task against the catalog as served (paired,
//! exact McNemar, Bonferroni-corrected over the proposals measured), rejected when it costs
//! another tool more than `--max-loss` tasks, and when significantly better, confirmed on the
//! held-out split.

use std::path::Path;

use super::types::{Proposal, tasks_for};
use crate::catalog::Catalog;
use crate::improve::ImproveOptions;
use crate::improve::mutate::{arm, patched};
use crate::models::{ModelOptions, ModelSpec};
use crate::record::scores::ModelComparison;
use crate::score::compare::compare;
use crate::score::stats::bonferroni;
use crate::tasks::{Split, Task};

/// What every measurement of the loop shares.
pub(super) struct Bench<'a> {
    pub(super) dir: &'a Path,
    pub(super) catalog: &'a Catalog,
    pub(super) tasks: &'a [Task],
    pub(super) dev: &'a [Task],
    pub(super) spec: &'a ModelSpec,
    pub(super) opts: &'a ModelOptions,
    pub(super) args: &'a ImproveOptions,
}

/// Measures and judges every proposal still open (no reason yet); returns the notes a reader
/// should see (dev splits too small for the correction).
pub(super) async fn judge(
    b: &Bench<'_>,
    proposals: &mut [Proposal],
) -> anyhow::Result<Vec<String>> {
    let measured = proposals.iter().filter(|p| p.reason.is_empty()).count();
    let mut notes: Vec<String> = Vec::new();
    for p in proposals.iter_mut().filter(|p| p.reason.is_empty()) {
        // Every dev task is measured, so a rewrite that steals other tools' tasks shows.
        let touching = tasks_for(b.dev, &p.tool, Split::Dev).len();
        let alpha = b.args.alpha;
        if let Some(n) = crate::improve::too_small_note(&p.tool, touching, measured, alpha) {
            crate::elog!("toolgate: note: {n}");
            notes.push(n);
        }
        let change = [(p.tool.clone(), p.after.clone())];
        let mutated = patched(b.catalog, &change);
        let c = measure(b, &format!("dev-{}", p.tool), &mutated, b.dev).await?;
        p.dev_before = c.overall.base.value;
        p.dev_after = c.overall.head.value;
        p.dev_n = c.overall.base.n;
        p.p = c.overall.p;
        p.p_corrected = bonferroni(c.overall.p, measured);
        let hurt = crate::improve::hurt_tools(&c, b.args.max_loss);
        if !hurt.is_empty() {
            p.reason = format!("rejected: {}", hurt.join("; "));
        } else if p.p_corrected < alpha && c.overall.only_head > c.overall.only_base {
            confirm(b, p, &mutated).await?;
        } else {
            p.reason =
                format!("not significantly better after the correction for {measured} proposal(s)");
        }
    }
    Ok(notes)
}

/// A proposal significantly better on dev, confirmed (or not) on the held-out split.
async fn confirm(b: &Bench<'_>, p: &mut Proposal, mutated: &Catalog) -> anyhow::Result<()> {
    let held: Vec<Task> = b
        .tasks
        .iter()
        .filter(|t| t.split == Split::Heldout)
        .cloned()
        .collect();
    if held.is_empty() {
        p.reason =
            "significantly better on dev, but there are no held-out tasks to confirm it".into();
        return Ok(());
    }
    let hc = measure(b, &format!("heldout-{}", p.tool), mutated, &held).await?;
    p.heldout = Some((
        hc.overall.base.value,
        hc.overall.head.value,
        hc.overall.base.n,
    ));
    let held_hurt = crate::improve::hurt_tools(&hc, b.args.max_loss);
    if !held_hurt.is_empty() {
        p.reason = format!("better on dev but on held-out it {}", held_hurt.join("; "));
    } else if hc.overall.head.value >= hc.overall.base.value {
        p.accepted = true;
        p.reason = "significantly better on dev and not worse on held-out".into();
    } else {
        p.reason = "better on dev but worse on held-out: not confirmed".into();
    }
    Ok(())
}

/// Runs `tasks` against the catalog as served (`<dir>/<label>-base`) and with the proposal
/// (`<dir>/<label>-fix`), and compares the paired trials.
async fn measure(
    b: &Bench<'_>,
    label: &str,
    mutated: &Catalog,
    tasks: &[Task],
) -> anyhow::Result<ModelComparison> {
    let one = [b.spec.clone()];
    let (trials, concurrency) = (b.args.trials, b.args.concurrency);
    let base_dir = b.dir.join(format!("{label}-base"));
    let (names, base) = arm(
        &base_dir,
        b.catalog,
        tasks,
        &one,
        b.opts,
        trials,
        concurrency,
    )
    .await?;
    let head_dir = b.dir.join(format!("{label}-fix"));
    let (_, head) = arm(&head_dir, mutated, tasks, &one, b.opts, trials, concurrency).await?;
    let name = names.first().cloned().unwrap_or_else(|| b.spec.to_string());
    Ok(compare(&name, &base, &name, &head, b.args.alpha))
}

//! `toolgate run … --fix`: the measured fix loop. For each failing tool a model proposes a
//! rewrite of its description (at most 25 words, enforced here); each proposal is measured on
//! the dev split against the same tasks (paired, exact McNemar), accepted only when it is
//! significantly better after a Bonferroni correction across all proposals, and then
//! confirmed on the held-out split. Accepted and rejected proposals are both reported.

mod judge;
mod plan;
mod propose;
mod render;
mod types;

use anyhow::bail;

use crate::catalog::Catalog;
use crate::improve::ImproveOptions;
use crate::improve::mutate::arm;
use crate::models::{self, ModelOptions, ModelSpec};
use crate::tasks::Task;
use judge::Bench;
use plan::Plan;

/// The fix loop, in named steps: pick the fixer and the model that measures, plan (the dev
/// tasks, what could show a change), measure the baseline, choose the failing tools, ask for
/// rewrites, judge each, and write fix.txt and fix.json. Returns the report in words.
pub(crate) async fn run(
    args: &ImproveOptions,
    catalog: &Catalog,
    tasks: &[Task],
    specs: &[ModelSpec],
    opts: &ModelOptions,
) -> anyhow::Result<String> {
    let fixer_spec = match (&args.fixer, specs.iter().find(|s| s.is_llm())) {
        (Some(f), _) => f.clone(),
        (None, Some(s)) => s.to_string(),
        (None, None) => {
            bail!("--fix needs a model to propose rewrites: pass --fixer <provider>:<model>")
        }
    };
    crate::improve::require_descriptions_reach(catalog, specs, opts).await?;
    let fixer = models::build_llm(&fixer_spec, catalog, opts)?;
    let Some(spec) = specs.first() else {
        bail!("--fix needs -m MODEL to measure with")
    };
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| crate::improve::default_dir("fix"));
    // Nothing is spent — no baseline, no fixer call — on a tool whose dev tasks could not show
    // a change even if every one of them flipped.
    let plan = Plan::new(args, catalog, tasks)?;
    let one = [spec.clone()];
    let baseline = dir.join("baseline");
    let (trials, concurrency) = (args.trials, args.concurrency);
    let (_, base) = arm(
        &baseline,
        catalog,
        &plan.dev,
        &one,
        opts,
        trials,
        concurrency,
    )
    .await?;
    let failures = plan.failures(&base);
    let chosen = plan.choose(args, &failures);
    let mut proposals = propose::propose(&fixer, catalog, &plan, &chosen, &failures).await?;
    let bench = Bench {
        dir: &dir,
        catalog,
        tasks,
        dev: &plan.dev,
        spec,
        opts,
        args,
    };
    let notes = judge::judge(&bench, &mut proposals).await?;
    let text = render::render(&proposals, &notes, spec, &fixer_spec);
    crate::out::write_shown(&dir.join("fix.txt"), &text)?;
    crate::out::write_shown(
        &dir.join("fix.json"),
        &serde_json::to_string_pretty(&proposals)?,
    )?;
    Ok(text)
}

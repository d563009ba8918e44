//! `toolgate run SERVER -t tasks.jsonl -m bm25` and `toolgate report DIR`: flags to options,
//! then the eval stage (or the improve stage), the gate, and the printed report.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::adapt::run::{load_belt, policy};
use crate::adapt::{load_catalog, print_run, verdict, write_badge};
use crate::cli::RunArgs;
use crate::config::Config;
use crate::eval::{self, EvalOptions};
use crate::gate::Exit;
use crate::improve::{self, ImproveOptions};
use crate::models;
use crate::out::print;
use crate::record::RunFile;

/// Whether `flag` is on this process's command line (`--flag V` or `--flag=V`).
fn given(flag: &str) -> bool {
    let eq = format!("{flag}=");
    std::env::args().any(|a| a == flag || a.starts_with(&eq))
}

/// `--only TOOL…`: the suite's tasks that expect one of the tools or lure toward one; the
/// catalog stays whole, so each is still chosen among every tool.
fn only_tasks(
    catalog: &crate::catalog::Catalog,
    tasks: Vec<crate::tasks::Task>,
    only: &[String],
) -> anyhow::Result<Vec<crate::tasks::Task>> {
    if only.is_empty() {
        return Ok(tasks);
    }
    let names: Vec<String> = catalog.tools.iter().map(|t| t.name().to_string()).collect();
    if let Some(missing) = only.iter().find(|t| !names.contains(t)) {
        bail!(
            "--only {}: the catalog has no tool of that name (its tools: {})",
            crate::report::terminal::plain(missing),
            crate::report::terminal::plain(&crate::text::list_some(&names, 10))
        );
    }
    let total = tasks.len();
    let kept: Vec<crate::tasks::Task> = tasks
        .into_iter()
        .filter(|t| {
            t.expected.as_ref().is_some_and(|e| only.contains(&e.tool))
                || t.lure.as_ref().is_some_and(|l| only.contains(l))
        })
        .collect();
    if kept.is_empty() {
        bail!(
            "--only {}: no task of the suite expects these tools or lures toward them",
            crate::report::terminal::plain(&only.join(","))
        );
    }
    crate::elog!(
        "--only: {} of the suite's {total} tasks (those that expect {} or lure toward them), each among all {} tools of the catalog; the score is this subset's",
        kept.len(),
        crate::report::terminal::plain(&only.join(", ")),
        names.len()
    );
    Ok(kept)
}

/// `--resume` continues the run as it was asked (issue 43 point 4): each setting the run
/// recorded (trials, split, steps, seed, base URL, concurrency, --only) is reused when it is not given
/// again, and one given with another value is refused rather than mixing two runs in one.
fn reuse_recorded(opts: &mut EvalOptions, prev: &RunFile, dir: &Path) -> anyhow::Result<()> {
    let differs = |flag: &str, recorded: String, given: String| {
        anyhow::anyhow!(
            "{} was run with {flag} {recorded}; resume it with the same value (or leave {flag} out), not {given}",
            dir.display()
        )
    };
    if !given("--trials") {
        opts.trials = prev.trials;
    } else if opts.trials != prev.trials {
        return Err(differs(
            "--trials",
            prev.trials.to_string(),
            opts.trials.to_string(),
        ));
    }
    if !given("--split") {
        opts.split = <crate::tasks::SplitArg as clap::ValueEnum>::from_str(&prev.split, true)
            .map_err(|e| anyhow::anyhow!("{}: split `{}`: {e}", dir.display(), prev.split))?;
    } else if opts.split.as_str() != prev.split {
        return Err(differs(
            "--split",
            prev.split.clone(),
            opts.split.as_str().into(),
        ));
    }
    if !given("--max-steps") {
        opts.max_steps = prev.max_steps.max(1);
    } else if opts.max_steps != prev.max_steps.max(1) {
        return Err(differs(
            "--max-steps",
            prev.max_steps.to_string(),
            opts.max_steps.to_string(),
        ));
    }
    let recorded = prev.only.clone().unwrap_or_default();
    if !given("--only") {
        opts.only = recorded;
    } else if opts.only != recorded {
        return Err(differs(
            "--only",
            if recorded.is_empty() {
                "(the whole suite)".into()
            } else {
                recorded.join(",")
            },
            opts.only.join(","),
        ));
    }
    if opts.model.llm.seed.is_none() {
        opts.model.llm.seed = prev.seed;
    }
    if opts.model.base_url.is_none() {
        opts.model.base_url = prev.base_url.clone();
    }
    if opts.model.llm.concurrency.is_none()
        && let Some(c) = prev.concurrency
    {
        opts.model.llm.concurrency = Some(c);
        opts.concurrency = c;
    }
    Ok(())
}

pub(crate) async fn run(args: &RunArgs, cfg: &Config) -> anyhow::Result<Exit> {
    let policy = policy(&args.gate)?;
    let mut opts = EvalOptions::try_from(args)?;
    let previous = match &args.resume {
        Some(dir) => Some(RunFile::read(dir)?),
        None => None,
    };
    if let Some(prev) = &previous {
        reuse_recorded(
            &mut opts,
            prev,
            args.resume.as_deref().unwrap_or(Path::new(".")),
        )?;
    }
    let mut server = args.server.clone();
    if server.server.is_none() && server.server_args.is_empty() && cfg.server.is_none() {
        server.server = previous.as_ref().map(|p| p.catalog.source.clone());
    }
    let tasks_path = match (&args.tasks, &previous) {
        (Some(p), _) => p.clone(),
        (None, Some(prev)) => PathBuf::from(&prev.suite.path),
        (None, None) => {
            bail!("no task file: pass -t tasks.jsonl (make one with `toolgate generate`)")
        }
    };
    if opts.models.is_empty() {
        opts.models = match &previous {
            Some(p) => models::ModelSpec::parse_all(
                &p.models.iter().map(|m| m.spec.as_str()).collect::<Vec<_>>(),
                "the resumed run's models",
            )?,
            None => vec![models::ModelSpec::bm25()],
        };
    }
    let providers: std::collections::BTreeSet<&str> = opts
        .models
        .iter()
        .filter_map(|s| s.provider())
        .map(|p| p.name)
        .collect();
    if providers.len() > 1 && (args.api_key.is_some() || args.base_url.is_some()) {
        bail!(
            "--api-key/--base-url apply to one provider, but this run mixes {}: set each provider's own variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, …) instead",
            providers.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    crate::fsio::pin_reviewed([tasks_path.as_path()])?;
    let own = load_catalog(&server, cfg).await?;
    let tasks = only_tasks(
        &own,
        eval::load_tasks(&own, &tasks_path, opts.split)?,
        &opts.only,
    )?;
    let mut alone = Vec::new();
    let (catalog, belt, curve_input) = match &args.belt {
        Some(_) if args.fix || !args.mutate.is_empty() => {
            bail!(
                "--belt measures the catalog as it is: it does not combine with --fix or --mutate"
            )
        }
        Some(spec) => {
            let (c, info, belt) = load_belt(spec, &own, &server, cfg).await?;
            // Deterministic models also run on your catalog alone (in memory), to compare.
            let mine = eval::shard::select(&tasks, opts.shard);
            alone = eval::belt::alone(&own, &mine, &opts.models, &opts.model).await?;
            (c, Some(info), Some((own, belt)))
        }
        None => (own, None, None),
    };
    let c = &args.curve;
    if curve_input.is_none() && (c.curve == Some(true) || !c.curve_sizes.is_empty()) {
        bail!("--curve and --curve-sizes measure accuracy as a belt grows: add --belt SPEC");
    }
    if args.fix || !args.mutate.is_empty() {
        let iopts = ImproveOptions {
            out: args.out.clone().or_else(|| args.resume.clone()),
            trials: args.trials,
            concurrency: args
                .concurrency
                .unwrap_or(models::provider::DEFAULT_CONCURRENCY),
            mutate: args.mutate.clone(),
            fixer: args.fixer.clone(),
            fix_tools: args.fix_tool.clone(),
            fix_max: args.fix_max,
            alpha: policy.alpha,
            max_loss: args.max_task_loss,
        };
        let text = if args.fix {
            improve::fix::run(&iopts, &catalog, &tasks, &opts.models, &opts.model).await?
        } else {
            improve::mutate::run(&iopts, &catalog, &tasks, &opts.models, &opts.model).await?
        };
        print(&text);
        return Ok(Exit::Pass);
    }
    let mut rd = eval::evaluate(&catalog, &tasks_path, &tasks, &opts).await?;
    rd.run.belt = belt;
    rd.alone = alone;
    if let Some((own, belt)) = &curve_input {
        rd.run.curve = curve(args, &opts, own, belt, &tasks, policy.alpha).await?;
    }
    rd.run.ablation = ablation(args, &opts, &catalog, &tasks, policy.alpha, &rd.dir).await?;
    let decision = rd.finalize(&catalog, &eval::shard::select(&tasks, opts.shard), &policy)?;
    crate::report::write_run_reports(&rd.dir, &rd.run)?;
    if decision.passed() && opts.only.is_empty() {
        write_badge(&rd.run, &args.gate)?;
    } else if !opts.only.is_empty() && args.gate.badge.is_some() {
        crate::elog!("no badge: a --only run measures a subset of the suite, not the server");
    }
    print_run(&rd.run, args.format);
    Ok(verdict(&decision))
}

/// The ablation check of a run (none with `--ablation=false`, for a shard, or when no model of the
/// run is measured).
async fn ablation(
    args: &RunArgs,
    opts: &EvalOptions,
    catalog: &crate::catalog::Catalog,
    tasks: &[crate::tasks::Task],
    alpha: f64,
    run_dir: &std::path::Path,
) -> anyhow::Result<Option<crate::score::ablation::Ablation>> {
    use crate::eval::ablation::{Request, measure};
    use crate::eval::curve::When;
    let when = args.curve.ablation_when();
    if when == When::Off {
        return Ok(None);
    }
    if opts.shard.is_some() {
        crate::elog!("note: the ablation check is not measured on a shard (run it unsharded)");
        return Ok(None);
    }
    measure(&Request {
        catalog,
        tasks,
        models: &opts.models,
        alpha,
        model: &opts.model,
        when,
        concurrency: opts.concurrency,
        run_dir: Some(run_dir),
    })
    .await
}

/// The distractor curve of a `--belt` run (none with `--curve=false`, for a shard, or when no
/// model of the run is measured).
async fn curve(
    args: &RunArgs,
    opts: &EvalOptions,
    own: &crate::catalog::Catalog,
    belt: &crate::catalog::belt::Belt,
    tasks: &[crate::tasks::Task],
    alpha: f64,
) -> anyhow::Result<Option<crate::score::curve::Curve>> {
    use crate::eval::curve::{DEFAULT_SEED, Request, When, measure};
    let when = args.curve.when();
    if when != When::Off && opts.shard.is_some() {
        crate::elog!("note: the distractor curve is not measured on a shard (run it unsharded)");
        return Ok(None);
    }
    let sizes = &args.curve.curve_sizes;
    measure(&Request {
        own,
        belt,
        tasks,
        models: &opts.models,
        alpha,
        model: &opts.model,
        when,
        sizes: (!sizes.is_empty()).then_some(sizes.as_slice()),
        seed: args.curve.seed.unwrap_or(DEFAULT_SEED),
        concurrency: opts.concurrency,
    })
    .await
}

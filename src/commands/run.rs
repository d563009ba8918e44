//! `toolgate run SERVER -t tasks.jsonl -m bm25` and `toolgate report DIR`: flags to options,
//! then the eval stage (or the improve stage), the gate, and the printed report.

use std::path::PathBuf;

use anyhow::bail;

use super::{load_catalog, print_run, rate, verdict, write_badge};
use crate::cli::{GateArgs, RunArgs};
use crate::config::Config;
use crate::eval::{self, EvalOptions};
use crate::record::RunFile;
use crate::gate::{Exit, GatePolicy};
use crate::improve::{self, ImproveOptions};
use crate::models;
use crate::out::print;

/// The model options the flags ask for.
pub fn model_options(args: &RunArgs) -> anyhow::Result<models::ModelOptions> {
    Ok(models::ModelOptions {
        base_url: args.base_url.clone(),
        api_key: args.api_key.clone(),
        llm: models::llm::LlmOptions {
            timeout: super::secs(args.timeout, "--timeout")?,
            retries: args.retries,
            // Not given: the endpoint's default (1 on this machine).
            concurrency: args.concurrency,
            cache: (!args.no_cache).then(|| models::cache::Cache::new(args.cache_dir.clone())),
            budget: args
                .max_calls
                .map(|m| std::sync::Arc::new(models::llm::Budget::new(m))),
            seed: args.curve.seed,
            max_steps: args.max_steps.max(1),
            ..Default::default()
        },
    })
}

impl TryFrom<&RunArgs> for EvalOptions {
    type Error = anyhow::Error;

    fn try_from(args: &RunArgs) -> anyhow::Result<Self> {
        Ok(EvalOptions {
            models: args.models.clone(),
            trials: args.trials,
            split: args.split,
            out: args.out.clone(),
            label: args.label.clone(),
            resume: args.resume.clone(),
            concurrency: args
                .concurrency
                .unwrap_or(models::provider::DEFAULT_CONCURRENCY),
            max_steps: args.max_steps.max(1),
            shard: args.shard,
            incremental: None,
            model: model_options(args)?,
        })
    }
}

/// The gate policy of `--fail-under`, `--min-tool-accuracy` and `--max-error-rate`.
pub fn policy(g: &GateArgs) -> anyhow::Result<GatePolicy> {
    Ok(GatePolicy {
        fail_under: rate("--fail-under", g.fail_under)?,
        min_tool_accuracy: rate("--min-tool-accuracy", g.min_tool_accuracy)?,
        max_error_rate: rate("--max-error-rate", Some(g.max_error_rate))?.unwrap_or(0.05),
        fail_under_recall: g.fail_under_recall,
        ..GatePolicy::default()
    })
}

/// Reads the belt `--belt` names and puts its tools beside `own`'s: the combined catalog, its
/// record for run.json, and the belt itself (for measurements that draw from it).
pub async fn load_belt(
    spec: &str,
    own: &crate::catalog::Catalog,
    server: &crate::cli::ServerArgs,
    cfg: &Config,
) -> anyhow::Result<(
    crate::catalog::Catalog,
    eval::belt::BeltInfo,
    crate::catalog::belt::Belt,
)> {
    use crate::catalog::belt::source::{BeltSpec, load};
    let parsed = BeltSpec::parse(spec)?;
    let base = super::connect_options(server, cfg)?;
    let belt = load(&parsed, &base, &server.pass_env).await?;
    let (combined, info) = eval::belt::with_belt(own, &belt, &parsed.display());
    for s in &info.skipped {
        eprintln!("note: the belt's server {s} is left out of the belt");
    }
    eprintln!(
        "note: evaluating in the belt {}: {} tools of {} servers beside your {}",
        parsed.display(),
        info.tool_count(),
        info.servers.len(),
        own.tools.len()
    );
    Ok((combined.catalog, info, belt))
}

pub async fn run(args: &RunArgs, cfg: &Config) -> anyhow::Result<Exit> {
    let policy = policy(&args.gate)?;
    let mut opts = EvalOptions::try_from(args)?;
    let previous = match &args.resume {
        Some(dir) => Some(RunFile::read(dir)?),
        None => None,
    };
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
            Some(p) => p.models.iter().map(|m| m.spec.clone()).collect(),
            None => vec!["bm25".into()],
        };
    }
    let providers: std::collections::BTreeSet<&str> = opts
        .models
        .iter()
        .filter_map(|s| models::provider_of(s))
        .map(|p| p.name)
        .collect();
    if providers.len() > 1 && (args.api_key.is_some() || args.base_url.is_some()) {
        bail!(
            "--api-key/--base-url apply to one provider, but this run mixes {}: set each provider's own variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, …) instead",
            providers.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    let own = load_catalog(&server, cfg).await?;
    let tasks = eval::load_tasks(&own, &tasks_path, args.split)?;
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
    if curve_input.is_none() && (c.curve || !c.curve_sizes.is_empty()) {
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
        rd.run.curve = curve(args, &opts, own, belt, &tasks).await?;
    }
    let decision = rd.finalize(&catalog, &eval::shard::select(&tasks, opts.shard), &policy)?;
    if decision.passed() {
        write_badge(&rd.run, &args.gate)?;
    }
    print_run(&rd.run, args.format);
    Ok(verdict(&decision))
}

/// The distractor curve of a `--belt` run (none with `--no-curve`, for a shard, or when no
/// model of the run is measured).
async fn curve(
    args: &RunArgs,
    opts: &EvalOptions,
    own: &crate::catalog::Catalog,
    belt: &crate::catalog::belt::Belt,
    tasks: &[crate::tasks::Task],
) -> anyhow::Result<Option<crate::score::curve::Curve>> {
    use crate::eval::curve::{DEFAULT_SEED, Request, When, measure};
    let when = args.curve.when();
    if when != When::Off && opts.shard.is_some() {
        eprintln!("note: the distractor curve is not measured on a shard (run it unsharded)");
        return Ok(None);
    }
    let sizes = &args.curve.curve_sizes;
    measure(&Request {
        own,
        belt,
        tasks,
        models: &opts.models,
        model: &opts.model,
        when,
        sizes: (!sizes.is_empty()).then_some(sizes.as_slice()),
        seed: args.curve.seed.unwrap_or(DEFAULT_SEED),
        concurrency: opts.concurrency,
    })
    .await
}

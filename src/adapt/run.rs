//! The run flags as stage settings: the gate policy, the model options, the evaluation
//! options, and the belt a `--belt` run is measured in.

use crate::cli::{GateArgs, RunArgs};
use crate::config::Config;
use crate::eval::{self, EvalOptions};
use crate::gate::GatePolicy;
use crate::models;

use super::connect::rate;

/// The model options the flags ask for.
pub(crate) fn model_options(args: &RunArgs) -> anyhow::Result<models::ModelOptions> {
    Ok(models::ModelOptions {
        base_url: args.base_url.clone(),
        api_key: args.api_key.clone(),
        llm: models::llm::LlmOptions {
            timeout: super::connect::secs(args.timeout, "--timeout")?,
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
            models: models::ModelSpec::parse_all(&args.models, "--model")?,
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
            only: args.only.clone(),
            incremental: None,
            model: model_options(args)?,
            max_cost: args.max_cost,
        })
    }
}

/// The gate policy of `--fail-under`, `--min-tool-accuracy` and `--max-error-rate`.
pub(crate) fn policy(g: &GateArgs) -> anyhow::Result<GatePolicy> {
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
pub(crate) async fn load_belt(
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
    let base = super::connect::connect_options(server, cfg)?;
    let belt = load(
        &parsed,
        &base,
        &super::connect::trimmed(&server.connect.pass_env),
    )
    .await?;
    let (combined, info) = eval::belt::with_belt(own, &belt, &parsed.display());
    for s in &info.skipped {
        crate::elog!("note: the belt's server {s} is left out of the belt");
    }
    crate::elog!(
        "note: evaluating in the belt {}: {} tools of {} servers beside your {}",
        parsed.display(),
        info.tool_count(),
        info.servers.len(),
        own.tools.len()
    );
    Ok((combined.catalog, info, belt))
}

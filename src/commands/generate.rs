//! `toolgate generate SERVER -o tasks.jsonl`: seeded template tasks.

use anyhow::bail;

use crate::adapt::load_catalog;
use crate::cli::GenerateArgs;
use crate::config::Config;
use crate::gate::Exit;
use crate::tasks::template::GenerateOptions;

pub(crate) async fn run(args: &GenerateArgs, cfg: &Config) -> anyhow::Result<Exit> {
    if !(0.0..=1.0).contains(&args.heldout) {
        bail!(
            "--heldout takes a fraction between 0 and 1, not {}",
            args.heldout
        );
    }
    let catalog = load_catalog(&args.server, cfg).await?;
    for name in &args.only {
        if catalog.tool(name).is_none() {
            bail!("--only {name}: the server has no such tool");
        }
    }
    let opts = GenerateOptions {
        per_tool: args.per_tool,
        near_miss: args.near_miss,
        no_tool: args.no_tool,
        seed: args.seed,
        heldout: args.heldout,
        only: args.only.clone(),
    };
    let model_opts = crate::models::ModelOptions {
        base_url: args.base_url.clone(),
        api_key: None,
        llm: crate::models::llm::LlmOptions {
            cache: (!args.no_cache)
                .then(|| crate::models::cache::Cache::new(args.cache_dir.clone())),
            ..Default::default()
        },
    };
    crate::adapt::suite::write_suite(
        &catalog,
        &opts,
        args.generator.as_deref(),
        &model_opts,
        &args.output,
    )
    .await?;
    Ok(Exit::Pass)
}

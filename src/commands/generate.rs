//! `toolgate generate SERVER -o tasks.jsonl`: seeded template tasks.

use anyhow::bail;

use crate::adapt::load_catalog;
use crate::cli::GenerateArgs;
use crate::config::Config;
use crate::gate::Exit;
use crate::tasks::template::{GenerateOptions, generate};
use crate::tasks::write_tasks;

pub async fn run(args: &GenerateArgs, cfg: &Config) -> anyhow::Result<Exit> {
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
    let out = match &args.generator {
        None => generate(&catalog, &opts),
        Some(spec) => {
            let model_opts = crate::models::ModelOptions {
                base_url: args.base_url.clone(),
                api_key: None,
                llm: crate::models::llm::LlmOptions {
                    cache: (!args.no_cache)
                        .then(|| crate::models::cache::Cache::new(args.cache_dir.clone())),
                    ..Default::default()
                },
            };
            let writer = crate::models::build_llm(spec, &catalog, &model_opts)?;
            crate::tasks::writer::generate(&catalog, &opts, &writer, spec).await
        }
    };
    let warned = out.tasks.iter().filter(|t| !t.warnings.is_empty()).count();
    if warned > 0 {
        eprintln!(
            "{warned} task(s) kept with warnings after {} rewrites (see their `warnings` field)",
            crate::tasks::writer::MAX_REWRITES
        );
    }
    if out.tasks.is_empty() {
        bail!(
            "no tasks could be generated from {} (see the tools listed above)",
            catalog.source
        );
    }
    write_tasks(&args.output, &out.tasks)?;
    let count = |k: crate::tasks::Kind| out.tasks.iter().filter(|t| t.kind == k).count();
    eprintln!(
        "wrote {} tasks to {} ({} direct, {} near_miss, {} no_tool; seed {}).{}",
        out.tasks.len(),
        args.output.display(),
        count(crate::tasks::Kind::Direct),
        count(crate::tasks::Kind::NearMiss),
        count(crate::tasks::Kind::NoTool),
        args.seed,
        if args.generator.is_none() {
            " Template tasks are a smoke test, not a confusion measure."
        } else {
            ""
        }
    );
    if !out.unsampleable.is_empty() {
        eprintln!(
            "{} tool(s) could not be sampled and have no tasks:",
            out.unsampleable.len()
        );
        for (tool, reason) in &out.unsampleable {
            eprintln!("  {tool}: {reason}");
        }
    }
    if !out.unphrased.is_empty() {
        eprintln!(
            "{} tool(s) have no template tasks: a template cannot ask for them without echoing the name (write tasks for them, or use --generator):",
            out.unphrased.len()
        );
        for (tool, reason) in &out.unphrased {
            eprintln!("  {tool}: {reason}");
        }
    }
    if !out.rejected.is_empty() {
        eprintln!("{} written request(s) were dropped:", out.rejected.len());
        for (id, reason) in &out.rejected {
            eprintln!("  {id}: {reason}");
        }
    }
    eprintln!(
        "The tasks are pending review: until a person approves them a run on this file is a smoke test (no headline accuracy, no threshold gate, a grey badge). Read them, fix or drop what is wrong, then `toolgate approve {}`.",
        args.output.display()
    );
    Ok(Exit::Pass)
}

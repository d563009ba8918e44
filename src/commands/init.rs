//! `toolgate init`: a commented starter toolgate.toml and a GitHub workflow that runs
//! `toolgate ci` on pull requests and refreshes nothing behind the user's back.

use std::path::Path;

use anyhow::bail;

use crate::ci::templates::{
    WorkflowOptions, comment_workflow_text, config_text_with, connect_lines, workflow_text,
};
use crate::cli::InitArgs;
use crate::gate::Exit;
use crate::models::discover::{WriterPick, best_writer};
use crate::out::write_file;

/// Where the action is published (`uses:`); docs/ci.md explains how to pin it.
fn write_new(path: &Path, text: &str, force: bool) -> anyhow::Result<()> {
    if path.exists() && !force {
        bail!(
            "{} already exists: pass --force to overwrite it",
            path.display()
        );
    }
    write_file(path, text)?;
    crate::elog!("wrote {}", path.display());
    Ok(())
}

pub async fn run(args: &InitArgs, cfg: &crate::config::Config) -> anyhow::Result<Exit> {
    let config = args.dir.join(crate::config::DEFAULT_CONFIG);
    let workflow = args.dir.join(".github/workflows/toolgate.yml");
    let comment_workflow = args.dir.join(".github/workflows/toolgate-comment.yml");
    let tasks = args.dir.join(&args.tasks);
    // A task file is never overwritten, not even with --force: it may hold a reviewed suite.
    let existing_tasks = tasks.exists();
    if existing_tasks && args.server.is_some() && !args.no_tasks {
        crate::elog!(
            "{} exists: no starter suite is written (init never overwrites a task file; delete it or pass --tasks OTHER to write one)",
            tasks.display()
        );
    }
    let bootstrap = args
        .server
        .as_deref()
        .filter(|_| !args.no_tasks && !existing_tasks);
    for p in [&config, &workflow, &comment_workflow] {
        if p.exists() && !args.force {
            bail!(
                "{} already exists: pass --force to overwrite it",
                p.display()
            );
        }
    }
    // The suite first; a server that cannot start yet (not built, a toolchain missing) does not
    // stop the settings and workflows from being written: the error is said after them.
    let mut not_started = None;
    let wrote_tasks = match bootstrap {
        Some(server) => match bootstrap_suite(server, args, cfg, &tasks).await {
            Ok(()) => Some(args.tasks.to_string_lossy().into_owned()),
            Err(e) => {
                not_started = Some(e);
                None
            }
        },
        // An existing suite is kept and named in the config.
        None if existing_tasks => Some(args.tasks.to_string_lossy().into_owned()),
        None => None,
    };
    if !args.connect.headers.is_empty() {
        crate::elog!(
            "note: header values are not written to toolgate.toml (they may be credentials): pass them as --header or TOOLGATE_HEADERS from a secret"
        );
    }
    write_new(
        &config,
        &config_text_with(
            args.server.as_deref(),
            wrote_tasks.as_deref(),
            &connect_lines(&args.connect),
        ),
        args.force,
    )?;
    write_new(
        &workflow,
        &workflow_text(&WorkflowOptions {
            action_ref: args.action_ref.as_deref(),
            shards: args.shards,
            publish_badge: args.publish_badge,
        }),
        args.force,
    )?;
    write_new(
        &comment_workflow,
        &comment_workflow_text(args.action_ref.as_deref()),
        args.force,
    )?;
    if args.server.is_none() {
        crate::elog!(
            "fill in `server` in {} (your server's command line or URL) first, then `toolgate init --server … --force` writes a starter suite",
            config.display()
        );
    }
    if let Some(e) = not_started {
        let server = args.server.as_deref().unwrap_or_default();
        return Err(e.context(format!(
            "the settings and workflows are written, but the server `{server}` could not be started to write a starter suite: build or install it so that the command runs here, then `toolgate init --server … --force` (it keeps an existing task file) or `toolgate generate -o {}`",
            args.tasks.display()
        )));
    }
    match &wrote_tasks {
        Some(t) => crate::elog!(
            "next: read {t} and fix or drop what is wrong, `toolgate approve {t}`, `toolgate pin` (writes toolgate.lock), then `toolgate ci`; commit all three"
        ),
        None => crate::elog!(
            "next: `toolgate pin` (writes toolgate.lock), `toolgate generate -o tasks.jsonl` (review it, then `toolgate approve tasks.jsonl`), set [ci] tasks, then `toolgate ci`"
        ),
    }
    crate::elog!(
        "without a model the gate measures findability (does a search over the definitions put the right tool first?) and fails a pull request on confusable definitions it introduces; tool accuracy needs a model that chooses: set `model` in the workflow (e.g. openai:gpt-4o-mini with OPENAI_API_KEY from secrets, or a local server such as ollama:qwen2.5:7b)"
    );
    Ok(Exit::Pass)
}

/// Connects to the server and writes a starter suite with the best writer available
/// (`--writer` wins), pending review.
async fn bootstrap_suite(
    server: &str,
    args: &InitArgs,
    cfg: &crate::config::Config,
    tasks: &Path,
) -> anyhow::Result<()> {
    let server_args = crate::cli::ServerArgs {
        server: Some(server.to_string()),
        server_args: vec![],
        mcp_config: None,
        connect: args.connect.clone(),
    };
    let catalog = crate::adapt::load_catalog(&server_args, cfg).await?;
    let pick = match args.writer.as_deref() {
        Some("template" | "templates") => WriterPick {
            spec: None,
            why: "--writer template: tasks are written from templates".into(),
        },
        Some(spec) => WriterPick {
            spec: Some(spec.to_string()),
            why: format!("--writer {spec}"),
        },
        // Keys were moved out of the environment at start-up: read them where they are kept.
        None => {
            best_writer(&|k| crate::secrets::secret_var(k).or_else(|| std::env::var(k).ok())).await
        }
    };
    crate::elog!("{}", pick.why);
    let opts = crate::tasks::template::GenerateOptions::default();
    let model_opts = crate::models::ModelOptions {
        base_url: None,
        api_key: None,
        llm: crate::models::llm::LlmOptions {
            cache: Some(crate::models::cache::Cache::new(
                args.dir.join(".toolgate-cache"),
            )),
            ..Default::default()
        },
    };
    if let Some(parent) = tasks.parent() {
        std::fs::create_dir_all(parent)?;
    }
    crate::adapt::suite::write_suite(&catalog, &opts, pick.spec.as_deref(), &model_opts, tasks)
        .await
}

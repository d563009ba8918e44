//! `toolgate init`: a commented starter toolgate.toml and a GitHub workflow that runs
//! `toolgate ci` on pull requests and refreshes nothing behind the user's back.

use std::path::Path;

use anyhow::bail;

use crate::ci::prepare::{default_branch, detect};
use crate::ci::templates::{comment_workflow_text, config_text_with, connect_lines};
use crate::ci::workflow::{WorkflowOptions, workflow_text};
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

pub(crate) async fn run(args: &InitArgs, cfg: &crate::config::Config) -> anyhow::Result<Exit> {
    let prepare = detect(&args.dir, args.server.as_deref());
    let mut args = args.clone();
    if prepare.container_engine && args.connect.sandbox.is_none() {
        // The engine's socket is the server's way in, and toolgate's sandbox refuses it (root
        // on the runner): the container the command starts is the server's confinement.
        args.connect.sandbox = Some(crate::sandbox::SandboxMode::Off);
        crate::elog!(
            "note: the server runs under a container engine, whose socket toolgate's sandbox refuses: [connect] sandbox = \"off\" is written, and the container is the server's confinement (give it no volume of the workspace or of the engine's socket)"
        );
    }
    let args = &args;
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
    let (branch, why) = default_branch(&args.dir);
    write_new(
        &workflow,
        &workflow_text(&WorkflowOptions {
            action_ref: args.action_ref.as_deref(),
            shards: args.shards,
            publish_badge: args.publish_badge,
            prepare: prepare.clone(),
            default_branch: branch.clone(),
        }),
        args.force,
    )?;
    write_new(
        &comment_workflow,
        &comment_workflow_text(args.action_ref.as_deref()),
        args.force,
    )?;
    crate::elog!(
        "the workflow runs on pull requests and on pushes to `{branch}` ({why}); each run uploads its output as the `toolgate` artefact, and pull requests download the last successful one of `{branch}` into toolgate-base (toolgate.toml's `base`) to compare with: merge the workflow, and the first push makes the base"
    );
    for line in &prepare.said {
        crate::elog!("{line}");
    }
    if prepare.on_runner {
        crate::elog!(
            "toolgate runs on the runner (the `setup` action installs the release binary) after the steps that install, build or start the server; read them in {} and adjust them to your project",
            workflow.display()
        );
    }
    ignore_outputs(&args.dir)?;
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
        "without a model the gate measures findability (does a search over the definitions put the right tool first?) and fails a pull request on confusable definitions it introduces; tool accuracy needs a model that chooses: set `models` in toolgate.toml's [ci] (e.g. openai:gpt-4o-mini with OPENAI_API_KEY from the workflow's secrets, or a local server such as ollama:qwen2.5:7b)"
    );
    Ok(Exit::Pass)
}

/// What toolgate writes into the repository and git must not track: its output, the base the
/// workflow downloads (a committed one would be the pull request's own, and is not used), and
/// the response cache. Appended to .gitignore when missing.
const IGNORED: [&str; 3] = ["/toolgate-out/", "/toolgate-base/", "/.toolgate-cache/"];

fn ignore_outputs(dir: &Path) -> anyhow::Result<()> {
    let path = dir.join(".gitignore");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(anyhow::anyhow!("{}: {e}", path.display())),
    };
    let have: Vec<&str> = text.lines().map(str::trim).collect();
    let missing: Vec<&str> = IGNORED
        .into_iter()
        .filter(|l| {
            let bare = l.trim_matches('/');
            !have.iter().any(|h| h.trim_matches('/') == bare)
        })
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut new = text.clone();
    if !new.is_empty() && !new.ends_with('\n') {
        new.push('\n');
    }
    new.push_str("# toolgate's output, the base its workflow downloads, and its response cache\n");
    for l in &missing {
        new.push_str(l);
        new.push('\n');
    }
    write_file(&path, &new)?;
    crate::elog!("added {} to {}", missing.join(" "), path.display());
    Ok(())
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

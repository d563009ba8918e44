//! `toolgate init`: a commented starter toolgate.toml and a GitHub workflow that runs
//! `toolgate ci` on pull requests and refreshes nothing behind the user's back.

use std::path::Path;

use anyhow::bail;

use crate::ci::templates::{WorkflowOptions, config_text, workflow_text};
use crate::cli::InitArgs;
use crate::gate::Exit;
use crate::out::write_file;

/// Where the action is published (`uses:`); README explains how to pin it.
fn write_new(path: &Path, text: &str, force: bool) -> anyhow::Result<()> {
    if path.exists() && !force {
        bail!(
            "{} already exists: pass --force to overwrite it",
            path.display()
        );
    }
    write_file(path, text)?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

pub fn run(args: &InitArgs) -> anyhow::Result<Exit> {
    let config = args.dir.join(crate::config::DEFAULT_CONFIG);
    let workflow = args.dir.join(".github/workflows/toolgate.yml");
    for p in [&config, &workflow] {
        if p.exists() && !args.force {
            bail!(
                "{} already exists: pass --force to overwrite it",
                p.display()
            );
        }
    }
    write_new(&config, &config_text(args.server.as_deref()), args.force)?;
    write_new(
        &workflow,
        &workflow_text(&WorkflowOptions {
            action_ref: args.action_ref.as_deref(),
            shards: args.shards,
            publish_badge: args.publish_badge,
        }),
        args.force,
    )?;
    if args.server.is_none() {
        eprintln!(
            "fill in `server` in {} (your server's command line or URL) first",
            config.display()
        );
    }
    eprintln!(
        "next: `toolgate pin` (writes toolgate.lock), `toolgate generate -o tasks.jsonl` (review it), set [ci] tasks, then `toolgate ci`"
    );
    Ok(Exit::Pass)
}

//! Running the gate once the settings stand: a fan-in joins its shards; otherwise the files a
//! reviewer saw are pinned before any server runs, the catalog is listed (the rules' patterns
//! compile meanwhile), the contract tests run when asked, and the ci stage takes over, in a
//! belt, for one shard, or alone.

use std::path::PathBuf;

use crate::adapt::load_catalog;
use crate::ci::{self, CiSettings};
use crate::cli::{Format, ServerArgs};
use crate::config::Config;
use crate::gate::Exit;
use crate::github::GithubEnv;
use crate::record::contract::ContractReport;

/// Runs the gate over what `s` names.
pub(super) async fn execute(
    s: &CiSettings,
    server: &ServerArgs,
    cfg: &Config,
    gh: &GithubEnv,
    format: Format,
) -> anyhow::Result<Exit> {
    if !s.merge.is_empty() {
        // Fan-in: the shards kept the catalog they ran against; no server is needed.
        let source = ci::Source::Shards(s.merge.clone());
        return ci::run(s, &cfg.lint, source, gh, format, None).await;
    }
    pin_reviewed(s)?;
    // The rules' patterns compile while the server starts.
    crate::lint::warm_up();
    let catalog = load_catalog(server, cfg).await?;
    let contract = contract(s, server, cfg).await?;
    if let Some(spec) = &s.belt {
        let (combined, info, belt) =
            crate::adapt::run::load_belt(spec, &catalog, server, cfg).await?;
        crate::fsio::verify_pins()?;
        let belt = ci::belt::BeltRun::new(combined, info, belt);
        let source = ci::Source::Belt(Box::new(catalog), Box::new(belt));
        return ci::run(s, &cfg.lint, source, gh, format, contract).await;
    }
    match s.eval.shard {
        Some(shard) => ci::shards::run_shard(s, &catalog, shard, format).await,
        None => {
            let source = ci::Source::Live(Box::new(catalog));
            ci::run(s, &cfg.lint, source, gh, format, contract).await
        }
    }
}

/// What the reviewer saw (the lock, the tasks, the base, replayed logs), read before any
/// server runs: a server that rewrites one of these files before toolgate reads it is
/// caught, naming the file.
fn pin_reviewed(s: &CiSettings) -> anyhow::Result<()> {
    let replays: Vec<PathBuf> = s
        .eval
        .models
        .iter()
        .filter(|m| m.is_replay())
        .map(|m| PathBuf::from(m.rest()))
        .collect();
    crate::fsio::pin_reviewed(
        [Some(&s.policy.lock_path), s.tasks.as_ref(), s.base.as_ref()]
            .into_iter()
            .flatten()
            .chain(&replays)
            .map(PathBuf::as_path),
    )
}

/// The contract tests' report, when asked for (never in a shard job).
async fn contract(
    s: &CiSettings,
    server: &ServerArgs,
    cfg: &Config,
) -> anyhow::Result<Option<ContractReport>> {
    let (Some(opts), None) = (&s.contract, s.eval.shard) else {
        return Ok(None);
    };
    let (spec, connect) = crate::adapt::resolve_server(server, cfg)?;
    let report = crate::contract::run(&spec, &connect, opts).await?;
    crate::fsio::verify_pins()?;
    Ok(Some(report))
}

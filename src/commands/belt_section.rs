//! `toolgate pin --mcp-config FILE NAME` when the lock is a belt lock: writes or checks that
//! server's section only, keeping the other servers' sections as they were reviewed.

use anyhow::bail;
use serde_json::json;

use crate::adapt::lock_path;
use crate::catalog::belt::lock::{AnyLock, BeltDiff, ServerDiff, read_any};
use crate::catalog::lock;
use crate::cli::PinArgs;
use crate::config::Config;
use crate::gate::Exit;
use crate::out::println;

/// `pin --mcp-config FILE NAME` when the lock is a belt lock: write or check that server's
/// section only (the other servers' sections are kept as reviewed).
pub(crate) async fn run(
    args: &PinArgs,
    cfg: &Config,
    check: bool,
    name: &str,
) -> anyhow::Result<Exit> {
    let path = lock_path(args.lock.as_ref(), cfg);
    let AnyLock::Belt(mut belt_lock) = read_any(&path)? else {
        bail!("{} is not a belt lock", path.display());
    };
    let catalog = crate::adapt::load_catalog(&args.server, cfg).await?;
    let new = lock::LockFile::from_catalog(&catalog);
    if !check {
        let tools = new.tools.len();
        let sha = new.catalog_sha256.clone();
        belt_lock.servers.insert(name.to_string(), new);
        belt_lock.write(&path)?;
        println(&format!(
            "pinned server `{name}` ({tools} tools, catalog sha256 {sha}) in {}; the other sections are unchanged",
            path.display()
        ));
        return Ok(Exit::Pass);
    }
    let Some(old) = belt_lock.servers.get(name) else {
        let names: Vec<&str> = belt_lock.servers.keys().map(String::as_str).collect();
        bail!(
            "{} has no section for server `{name}` (it pins {}): run `toolgate pin` for it first",
            path.display(),
            crate::catalog::mcp_config::list(&names)
        );
    };
    let d = lock::diff(old, &new);
    if args.json {
        println(&serde_json::to_string_pretty(&json!({
            "schema_version": "toolgate.pin/v1",
            "lock": path,
            "server": name,
            "matches": d.is_empty(),
            "locked_sha256": old.catalog_sha256,
            "current_sha256": new.catalog_sha256,
            "diff": d,
        }))?);
    }
    if d.is_empty() {
        if !args.json {
            println(&format!(
                "server `{name}` matches its section of {} ({} tools, sha256 {})",
                path.display(),
                new.tools.len(),
                new.catalog_sha256
            ));
        }
        return Ok(Exit::Pass);
    }
    if !args.json {
        println(&format!(
            "server `{name}` differs from its section of {}:\n  locked  sha256 {}\n  current sha256 {}\n",
            path.display(),
            old.catalog_sha256,
            new.catalog_sha256
        ));
        crate::out::print(&lock::render(&d));
    }
    crate::elog!("toolgate: server `{name}` changed: {}", d.summary());
    let changed = BeltDiff {
        changed: vec![ServerDiff {
            server: name.to_string(),
            diff: d,
        }],
        ..Default::default()
    };
    Ok(crate::gate::changed_belt(&path, changed.keyed()).exit())
}

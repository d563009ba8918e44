//! `toolgate pin --mcp-config FILE`: one lock section per server; `--check` names the servers
//! whose definitions changed, with each one's readable diff.

use anyhow::{Context as _, bail};
use serde_json::json;

use crate::adapt::lock_path;
use crate::catalog::belt::Belt;
use crate::catalog::belt::lock::{AnyLock, BeltDiff, BeltLock, read_any};
use crate::catalog::lock;
use crate::cli::PinArgs;
use crate::config::Config;
use crate::gate::Exit;
use crate::out::println;

pub(crate) async fn run(args: &PinArgs, cfg: &Config, check: bool) -> anyhow::Result<Exit> {
    let path = lock_path(args.lock.as_ref(), cfg);
    let belt = crate::adapt::belt::load(&args.server, cfg).await?;
    let new = BeltLock::from_belt(&belt);
    if !check {
        new.write(&path)?;
        if args.json {
            let servers: serde_json::Map<String, serde_json::Value> = new
                .servers
                .iter()
                .map(|(n, l)| {
                    (
                        n.clone(),
                        json!({"catalog_sha256": l.catalog_sha256, "tools": l.tools.len()}),
                    )
                })
                .collect();
            println(&json!({"lock": path, "servers": servers}).to_string());
        } else {
            println(&format!(
                "pinned {} servers ({} tools) from {} to {}",
                belt.servers.len(),
                belt.tool_count(),
                belt.config,
                path.display()
            ));
            for (n, l) in &new.servers {
                println(&format!(
                    "  {n}: {} tools, catalog sha256 {}",
                    l.tools.len(),
                    l.catalog_sha256
                ));
            }
        }
        return Ok(Exit::Pass);
    }
    if !path.is_file() {
        bail!(
            "no lock file at {}: run `toolgate pin --mcp-config {}` first (or pass --lock FILE)",
            path.display(),
            belt.config
        );
    }
    let old = match read_any(&path).with_context(|| "pin --check needs a valid lock file")? {
        AnyLock::Belt(b) => b,
        AnyLock::One => bail!(
            "{} pins a single server, and {} names a belt of {} servers: pin the belt with \
             `toolgate pin --mcp-config {}` (or name one server to check it alone)",
            path.display(),
            belt.config,
            belt.servers.len(),
            belt.config
        ),
    };
    let d = old.diff(&new);
    if args.json {
        println(&serde_json::to_string_pretty(&json!({
            "schema_version": "toolgate.pin-belt/v1",
            "lock": path,
            "matches": d.is_empty(),
            "servers_changed": d.servers(),
            "diff": d,
        }))?);
    }
    if d.is_empty() {
        if !args.json {
            println(&format!(
                "{} matches {} ({} servers, {} tools)",
                belt.config,
                path.display(),
                belt.servers.len(),
                belt.tool_count()
            ));
        }
        return Ok(Exit::Pass);
    }
    if !args.json {
        print_diff(&belt, &old, &new, &d, &path);
    }
    crate::elog!("toolgate: {}", d.summary());
    // The verdict comes from the gate stage, like every other gate.
    Ok(crate::gate::changed_belt(&path, d.keyed()).exit())
}

fn print_diff(belt: &Belt, old: &BeltLock, new: &BeltLock, d: &BeltDiff, path: &std::path::Path) {
    println(&format!(
        "{} differs from {} in {} of {} servers: {}\n",
        belt.config,
        path.display(),
        d.servers().len(),
        belt.servers.len(),
        crate::catalog::mcp_config::list(&d.servers())
    ));
    for c in &d.changed {
        let (name, diff) = (&c.server, &c.diff);
        let sha = |l: &BeltLock| {
            l.servers
                .get(name)
                .map(|s| s.catalog_sha256.clone())
                .unwrap_or_default()
        };
        println(&format!(
            "server `{name}`:\n  locked  sha256 {}\n  current sha256 {}\n",
            sha(old),
            sha(new)
        ));
        crate::out::print(&lock::render(diff));
        println("");
    }
    for name in &d.added {
        println(&format!(
            "server `{name}`: not in the lock (new in the config)"
        ));
    }
    for name in &d.removed {
        println(&format!(
            "server `{name}`: in the lock, no longer in the config"
        ));
    }
    println("\nReview the change; if it is intended, run `toolgate pin` to update the lock.");
}

//! `toolgate pin SERVER` writes toolgate.lock; `pin --check` / `verify` compares and exits 1
//! with a readable diff when anything a model reads has changed.

use anyhow::Context as _;
use serde_json::json;

use crate::adapt::{load_catalog, lock_path};
use crate::catalog::lock::{self, LockFile};
use crate::cli::PinArgs;
use crate::config::Config;
use crate::gate::Exit;

pub(crate) async fn run(args: &PinArgs, cfg: &Config, check: bool) -> anyhow::Result<Exit> {
    let path = lock_path(args.lock.as_ref(), cfg);
    crate::fsio::pin_reviewed([path.as_path()])?;
    let catalog = load_catalog(&args.server, cfg).await?;
    let new = LockFile::from_catalog(&catalog);
    if !check {
        new.write(&path)?;
        if args.json {
            crate::out::println(&format!(
                "{}",
                json!({"lock": path, "catalog_sha256": new.catalog_sha256, "tools": new.tools.len()})
            ));
        } else {
            crate::out::println(&format!(
                "pinned {} tools from {} to {} (catalog sha256 {})",
                new.tools.len(),
                catalog.source,
                path.display(),
                new.catalog_sha256
            ));
        }
        return Ok(Exit::Pass);
    }
    if !path.is_file() {
        anyhow::bail!(
            "no lock file at {}: run `toolgate pin` first (or pass --lock FILE)",
            path.display()
        );
    }
    let old = LockFile::read(&path).with_context(|| "pin --check needs a valid lock file")?;
    let d = lock::diff(&old, &new);
    if args.json {
        crate::out::println(
            &serde_json::to_string_pretty(&json!({
                "schema_version": "toolgate.pin/v1",
                "lock": path,
                "matches": d.is_empty(),
                "locked_sha256": old.catalog_sha256,
                "current_sha256": new.catalog_sha256,
                "diff": d,
            }))?
            .to_string(),
        );
    }
    if d.is_empty() {
        if !args.json {
            crate::out::println(&format!(
                "{} matches {} ({} tools, sha256 {})",
                catalog.source,
                path.display(),
                new.tools.len(),
                new.catalog_sha256
            ));
        }
        return Ok(Exit::Pass);
    }
    if !args.json {
        crate::out::println(&format!(
            "{} differs from {}:\n  locked  sha256 {}\n  current sha256 {}\n",
            catalog.source,
            path.display(),
            old.catalog_sha256,
            new.catalog_sha256
        ));
        crate::out::print(&(lock::render(&d)));
        crate::out::println(
            "\nReview the change; if it is intended, run `toolgate pin` to update the lock.",
        );
    }
    crate::elog!("toolgate: {}", d.summary());
    // The verdict comes from the gate stage, like every other gate.
    let status = crate::gate::LockStatus {
        path: path.display().to_string(),
        status: crate::gate::LockState::Changed,
        policy: crate::gate::LockCheck::Fail,
        diff: Some(d),
    };
    let decision = crate::gate::decide(
        &crate::gate::GateInput {
            lock: Some(&status),
            ..Default::default()
        },
        &crate::gate::GatePolicy::default(),
    );
    Ok(decision.exit())
}

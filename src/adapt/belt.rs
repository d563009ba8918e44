//! `--mcp-config FILE`: a server picked by name from an MCP client config, or (without a
//! name, for inspect, lint and pin) every server of the file read together as a belt.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::catalog::belt::{self, Belt};
use crate::catalog::mcp_config;
use crate::catalog::{ConnectOptions, ServerSpec, canonical, jsonpos};
use crate::cli::ServerArgs;
use crate::config::Config;
use crate::lint::Context;
use crate::report::LintReport;

/// True when the command should read every server of `--mcp-config` (no SERVER named).
pub(crate) fn wanted(args: &ServerArgs) -> bool {
    args.mcp_config.is_some() && args.server.is_none()
}

fn no_extra_words(args: &ServerArgs) -> anyhow::Result<()> {
    if !args.server_args.is_empty() {
        bail!(
            "--mcp-config: the servers' command lines come from the file; drop the words after `--` ({})",
            args.server_args.join(" ")
        );
    }
    Ok(())
}

/// The server whose section of a belt lock `pin` should write or check: a server named in
/// `--mcp-config` when the lock file is a belt lock (never replace a whole belt's lock with
/// one server's).
pub(crate) fn section_of(
    args: &ServerArgs,
    lock: Option<&PathBuf>,
    cfg: &Config,
) -> Option<String> {
    args.mcp_config.as_ref()?;
    let name = args.server.clone()?;
    let path = super::connect::lock_path(lock, cfg);
    let text = std::fs::read_to_string(&path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("belt_lock_version").map(|_| name)
}

/// The one server a command reads from `--mcp-config FILE`: SERVER names it, or the file has
/// only one.
pub(crate) fn pick_one(
    path: &Path,
    args: &ServerArgs,
    base: ConnectOptions,
) -> anyhow::Result<(ServerSpec, ConnectOptions)> {
    no_extra_words(args)?;
    let config = belt::read_config(path, &base.pass_env)?;
    let entry = match args.server.as_deref() {
        Some(name) => config.get(name).map_err(anyhow::Error::msg)?,
        None => match config.servers.as_slice() {
            [only] if config.unusable.is_empty() => only,
            [] if config.unusable.len() == 1 => bail!("{}", config.unusable[0].error),
            _ => bail!(
                "{}: this command reads one server and the file names {}{}: give its name as \
                 SERVER (or --server for `toolgate ci`)",
                path.display(),
                mcp_config::list(&config.names()),
                if config.unusable.is_empty() {
                    String::new()
                } else {
                    let names: Vec<&str> =
                        config.unusable.iter().map(|u| u.name.as_str()).collect();
                    format!(
                        " (and {}, which cannot be started here)",
                        mcp_config::list(&names)
                    )
                }
            ),
        },
    };
    let (spec, mut opts) = belt::spec_of(entry, &base)?;
    opts.config_key = Some(entry.name.clone());
    Ok((spec, opts))
}

/// Connects every server of `--mcp-config` in parallel; one failure fails the whole belt.
pub(crate) async fn load(args: &ServerArgs, cfg: &Config) -> anyhow::Result<Belt> {
    no_extra_words(args)?;
    let opts = super::connect::connect_options(args, cfg)?;
    let Some(path) = &args.mcp_config else {
        bail!("--mcp-config FILE is needed to read a belt");
    };
    let config = belt::read_config(path, &opts.pass_env)?;
    let belt = belt::connect_all(&config, &opts).await?;
    for s in &belt.servers {
        for note in &s.catalog.notes {
            crate::elog!("note: server `{}`: {note}", s.name);
        }
    }
    Ok(belt)
}

/// The belt's hash: each server's name and catalog hash, in name order.
pub(crate) fn belt_hash(belt: &Belt) -> String {
    let mut lines: Vec<String> = belt
        .servers
        .iter()
        .map(|s| format!("{}\t{}\n", s.name, canonical::catalog_hash(&s.catalog)))
        .collect();
    lines.sort();
    canonical::sha256_hex(&lines.concat())
}

/// One lint report over the belt: findings across servers (a name on two servers) first,
/// then each server linted on its own, findings keyed `server/tool` (catalog-wide findings
/// name their server in the message).
pub(crate) fn lint_report(
    belt: &Belt,
    cfg: &Config,
    locate_in: Option<&Path>,
) -> anyhow::Result<LintReport> {
    let mut contexts = Vec::new();
    for s in &belt.servers {
        let mut cx = Context::new(&s.catalog, &cfg.lint).in_belt().named(&s.name);
        if let Some(dir) = &cfg.lint.embed_model {
            cx = cx.with_semantic(crate::models::embed::tool_embeddings(dir, &s.catalog)?);
        }
        contexts.push((s.name.as_str(), cx));
    }
    let refs: Vec<(&str, &Context)> = contexts.iter().map(|(n, cx)| (*n, cx)).collect();
    let lint = crate::lint::belt::lint(&refs, &cfg.lint);
    let mut out = LintReport::for_belt(
        format!("{} ({} servers)", belt.config, belt.servers.len()),
        belt_hash(belt),
        belt.tool_count(),
        &lint,
        &belt.servers.iter().map(|s| &s.catalog).collect::<Vec<_>>(),
    );
    if let Some(path) = locate_in {
        locate(&mut out, path);
    }
    Ok(out)
}

/// The belt lock findings point into, when it is one: `--locate-in`, else the lock file.
pub(crate) fn lock_to_locate(
    cfg: &Config,
    output: Option<&crate::cli::OutputArgs>,
) -> Option<PathBuf> {
    output
        .and_then(|o| o.locate_in.clone())
        .or_else(|| Some(super::connect::lock_path(None, cfg)))
        .filter(|p| p.is_file())
}

/// Points each `server/tool` finding at its tool's lines in that server's section of a belt
/// lock (for SARIF regions and annotations). Anything else leaves the findings as they are.
fn locate(report: &mut LintReport, path: &Path) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let Ok(crate::catalog::belt::lock::AnyLock::Belt(lock)) =
        crate::catalog::belt::lock::read_any(path)
    else {
        return;
    };
    let root = jsonpos::root(&text);
    // A `server/tool` key's line (at `pointer` inside its definition), or a server's section.
    let line_of = |key: &str, pointer: &str| -> Option<usize> {
        let Some((server, tool)) = key.split_once('/') else {
            lock.servers.get(key)?;
            let ptr = format!("/servers/{}", jsonpos::escape(key));
            return Some(jsonpos::line_of(&text, root, &ptr));
        };
        let i = lock
            .servers
            .get(server)
            .and_then(|l| l.tools.iter().position(|t| t.name == tool))?;
        let ptr = format!(
            "/servers/{}/tools/{i}/definition{pointer}",
            jsonpos::escape(server)
        );
        Some(jsonpos::line_of(&text, root, &ptr))
    };
    let file = path.display().to_string();
    for f in &mut report.findings {
        for r in &mut f.related {
            let pointer = if r.key.contains('/') {
                f.pointer.as_str()
            } else {
                ""
            };
            if let Some(line) = line_of(&r.key, pointer) {
                r.file = Some(file.clone());
                r.line = Some(line);
            }
        }
        let Some(key) = f.tool.as_deref().filter(|k| k.contains('/')) else {
            continue;
        };
        if let Some(line) = line_of(key, &f.pointer) {
            f.file = Some(file.clone());
            f.line = Some(line);
        }
    }
}

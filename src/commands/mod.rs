//! Command implementations: glue between the CLI, the config and the pipeline stages.
//! Each returns `Ok(Outcome)`; errors are mapped to exit code 2 by main.

pub mod ci;
pub mod compare;
pub mod fix;
pub mod generate;
pub mod init;
pub mod inspect;
pub mod lint;
pub mod mutate;
pub mod pin;
pub mod rules;
pub mod run;
pub mod validate;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};

use crate::catalog::{self, Catalog, ConnectOptions, ServerSpec};
use crate::cli::ServerArgs;
use crate::config::Config;

/// What a command decided: pass (0) or the gate failed (1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    GateFailed,
}

fn secs(v: f64, flag: &str) -> anyhow::Result<Duration> {
    if !(v.is_finite() && v > 0.0) {
        bail!("{flag} must be a positive number of seconds");
    }
    Ok(Duration::from_secs_f64(v))
}

/// Works out which server to talk to and how, from flags first, then the config file.
pub fn resolve_server(
    args: &ServerArgs,
    cfg: &Config,
) -> anyhow::Result<(ServerSpec, ConnectOptions)> {
    let text = match (&args.server, &cfg.server) {
        (Some(s), _) => s.clone(),
        (None, Some(s)) => s.clone(),
        (None, None) => bail!(
            "no SERVER given: pass a command line, an http(s) URL or a snapshot file, or set `server` in toolgate.toml"
        ),
    };
    let spec = ServerSpec::parse(&text, &args.server_args)?;
    let mut opts = ConnectOptions::default();
    let c = &cfg.connect;
    if let Some(v) = args.connect_timeout.or(c.connect_timeout) {
        opts.connect_timeout = secs(v, "--connect-timeout")?;
    }
    if let Some(v) = args.request_timeout.or(c.request_timeout) {
        opts.request_timeout = secs(v, "--request-timeout")?;
    }
    if let Some(v) = args.max_pages.or(c.max_pages) {
        opts.max_pages = v.max(1);
    }
    for h in c.headers.iter().chain(&args.headers) {
        opts.headers.push(catalog::source::parse_header(h)?);
    }
    if let Some(var) = args.bearer_env.as_ref().or(c.bearer_env.as_ref()) {
        match std::env::var(var) {
            Ok(v) if !v.is_empty() => opts.bearer_token = Some(v),
            _ => bail!("--bearer-env {var}: that environment variable is not set or is empty"),
        }
    }
    opts.pass_env = c.pass_env.iter().chain(&args.pass_env).cloned().collect();
    Ok((spec, opts))
}

/// Connects (or reads the snapshot) and returns the catalog, printing connection notes on stderr.
pub async fn load_catalog(args: &ServerArgs, cfg: &Config) -> anyhow::Result<Catalog> {
    let (spec, opts) = resolve_server(args, cfg)?;
    let catalog = catalog::load(&spec, &opts).await?;
    for note in &catalog.notes {
        eprintln!("note: {note}");
    }
    Ok(catalog)
}

pub fn lock_path(flag: Option<&PathBuf>, cfg: &Config) -> PathBuf {
    flag.cloned()
        .or_else(|| cfg.lock.clone())
        .unwrap_or_else(|| PathBuf::from(crate::config::DEFAULT_LOCK))
}

/// Writes `text` to `path`, naming the file on failure.
pub fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("could not create {}", dir.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("could not write {}", path.display()))
}

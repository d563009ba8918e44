//! Connection settings from flags then toolgate.toml: timeouts, limits, headers, the bearer
//! token, `--pass-env` and the sandbox; and where the lock and the file findings point into
//! are.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;

use crate::catalog::{self, Catalog, ConnectOptions};
use crate::cli::ServerArgs;
use crate::config::{Config, layered};

pub(crate) use crate::limits::rate;

/// The longest wait any flag may ask for: beyond it a value is a typo, not a setting.
const MAX_SECS: f64 = 7.0 * 24.0 * 3600.0;

/// A positive number of seconds, at most a week, from `flag`.
pub(crate) fn secs(v: f64, flag: &str) -> anyhow::Result<Duration> {
    if !(v.is_finite() && v > 0.0) {
        bail!("{flag} must be a positive number of seconds, not {v}");
    }
    if v > MAX_SECS {
        bail!("{flag} {v} is more than a week ({MAX_SECS} s): give a number of seconds");
    }
    Ok(Duration::from_secs_f64(v))
}

/// A variable's values (one header a line, comma-separated names) may carry blanks and a
/// trailing separator: trimmed, and empty ones dropped, for every command.
pub(crate) fn trimmed(v: &[String]) -> Vec<String> {
    v.iter()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .collect()
}

/// Timeouts, limits, headers, bearer token and `--pass-env`, from flags then toolgate.toml.
pub(crate) fn connect_options(args: &ServerArgs, cfg: &Config) -> anyhow::Result<ConnectOptions> {
    let mut opts = ConnectOptions::default();
    let c = &cfg.connect;
    let args = &args.connect;
    if let Some(v) = layered!(args, c, connect_timeout) {
        opts.connect_timeout = secs(v, "--connect-timeout")?;
    }
    if let Some(v) = layered!(args, c, request_timeout) {
        opts.request_timeout = secs(v, "--request-timeout")?;
    }
    if let Some(v) = layered!(args, c, max_pages) {
        opts.max_pages = v.max(1);
    }
    for h in trimmed(&c.headers).iter().chain(&trimmed(&args.headers)) {
        opts.headers.push(catalog::source::parse_header(h)?);
    }
    if let Some(var) = &layered!(args, c, bearer_env) {
        match crate::secrets::secret_var(var) {
            Some(v) => opts.bearer_token = Some(v),
            None => bail!("--bearer-env {var}: that environment variable is not set or is empty"),
        }
    }
    opts.pass_env = trimmed(&c.pass_env)
        .into_iter()
        .chain(trimmed(&args.pass_env))
        .collect();
    opts.sandbox = crate::sandbox::SandboxOptions {
        mode: layered!(args, c, sandbox).unwrap_or_default(),
        uid: layered!(args, c, sandbox_uid),
        write: c
            .sandbox_write
            .iter()
            .chain(&args.sandbox_write)
            .cloned()
            .collect(),
        read: c
            .sandbox_read
            .iter()
            .chain(&args.sandbox_read)
            .cloned()
            .collect(),
    };
    Ok(opts)
}

/// The lock file: `--lock`, else toolgate.toml's, else the default beside the settings file.
pub(crate) fn lock_path(flag: Option<&PathBuf>, cfg: &Config) -> PathBuf {
    // The default lock sits beside the settings file (a monorepo package's own).
    flag.cloned()
        .or_else(|| cfg.lock.clone())
        .unwrap_or_else(|| {
            cfg.dir
                .as_ref()
                .map_or(PathBuf::from(crate::config::DEFAULT_LOCK), |d| {
                    d.join(crate::config::DEFAULT_LOCK)
                })
        })
}

/// The file findings point into: `--locate-in`, else the snapshot read, else the lock file.
pub(crate) fn locate_file(
    catalog: &Catalog,
    cfg: &Config,
    output: Option<&crate::cli::OutputArgs>,
) -> Option<PathBuf> {
    output
        .and_then(|o| o.locate_in.clone())
        .or_else(|| catalog.snapshot_path.clone())
        .or_else(|| {
            let lock = lock_path(None, cfg);
            lock.is_file().then_some(lock)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variable_values_are_trimmed_for_every_command() {
        // TOOLGATE_HEADERS from a YAML `|` block ends in a newline; TOOLGATE_PASS_ENV="A, B".
        let args = ServerArgs {
            server: None,
            server_args: vec![],
            mcp_config: None,
            connect: crate::config::ConnectConfig {
                headers: vec!["X-One: 1".into(), "".into()],
                pass_env: vec!["A".into(), " B".into()],
                ..Default::default()
            },
        };
        let opts = connect_options(&args, &Config::default()).unwrap();
        assert_eq!(opts.headers.len(), 1);
        assert_eq!(opts.pass_env, ["A", "B"]);
    }
}

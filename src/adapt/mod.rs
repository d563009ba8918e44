//! Adapters shared by the commands: server and connection settings from flags then
//! toolgate.toml, the gate policy and model options of the run flags, loading a catalog or a
//! belt, and the printed forms of a run. Commands call these; none calls another command.

pub mod belt;
pub mod run;
pub mod suite;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;

use crate::catalog::{self, Catalog, ConnectOptions, ServerSpec};
use crate::cli::ServerArgs;
use crate::cli::{Format, GateArgs};
use crate::config::Config;
use crate::out::{print, write_file};
use crate::record::RunFile;
use crate::report::run as run_report;

use crate::gate::Exit;

/// The longest wait any flag may ask for: beyond it a value is a typo, not a setting.
const MAX_SECS: f64 = 7.0 * 24.0 * 3600.0;

/// A positive number of seconds, at most a week, from `flag`.
pub fn secs(v: f64, flag: &str) -> anyhow::Result<Duration> {
    if !(v.is_finite() && v > 0.0) {
        bail!("{flag} must be a positive number of seconds, not {v}");
    }
    if v > MAX_SECS {
        bail!("{flag} {v} is more than a week ({MAX_SECS} s): give a number of seconds");
    }
    Ok(Duration::from_secs_f64(v))
}

pub use crate::limits::rate;

/// Works out which server to talk to and how, from flags first, then the config file.
pub fn resolve_server(
    args: &ServerArgs,
    cfg: &Config,
) -> anyhow::Result<(ServerSpec, ConnectOptions)> {
    let opts = connect_options(args, cfg)?;
    if let Some(path) = &args.mcp_config {
        return belt::pick_one(path, args, opts);
    }
    // `toolgate inspect -- npx -y @scope/server .`: every word after `--` is the command.
    let (text, rest): (String, &[String]) = match (&args.server, &cfg.server) {
        (Some(s), _) => (s.clone(), &args.server_args),
        (None, _) if !args.server_args.is_empty() => (
            shell_words::join(&args.server_args[..1]),
            &args.server_args[1..],
        ),
        (None, Some(s)) => {
            // The settings file's command runs in its folder (a monorepo's package).
            if let Some(dir) = &cfg.dir
                && opts.cwd.is_none()
            {
                let mut opts = opts;
                opts.cwd = Some(dir.clone());
                return Ok((ServerSpec::parse(s, &[])?, opts));
            }
            (s.clone(), &[])
        }
        (None, None) => return Err(crate::error::ConnectError::NoServer.into()),
    };
    Ok((ServerSpec::parse(&text, rest)?, opts))
}

/// A variable's values (one header a line, comma-separated names) may carry blanks and a
/// trailing separator: trimmed, and empty ones dropped, for every command.
pub fn trimmed(v: &[String]) -> Vec<String> {
    v.iter()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .collect()
}

/// Timeouts, limits, headers, bearer token and `--pass-env`, from flags then toolgate.toml.
pub fn connect_options(args: &ServerArgs, cfg: &Config) -> anyhow::Result<ConnectOptions> {
    let mut opts = ConnectOptions::default();
    let c = &cfg.connect;
    let args = &args.connect;
    if let Some(v) = args.connect_timeout.or(c.connect_timeout) {
        opts.connect_timeout = secs(v, "--connect-timeout")?;
    }
    if let Some(v) = args.request_timeout.or(c.request_timeout) {
        opts.request_timeout = secs(v, "--request-timeout")?;
    }
    if let Some(v) = args.max_pages.or(c.max_pages) {
        opts.max_pages = v.max(1);
    }
    for h in trimmed(&c.headers).iter().chain(&trimmed(&args.headers)) {
        opts.headers.push(catalog::source::parse_header(h)?);
    }
    if let Some(var) = args.bearer_env.as_ref().or(c.bearer_env.as_ref()) {
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
        mode: args.sandbox.or(c.sandbox).unwrap_or_default(),
        uid: args.sandbox_uid.or(c.sandbox_uid),
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

/// Connects (or reads the snapshot) and returns the catalog, printing connection notes on stderr.
pub async fn load_catalog(args: &ServerArgs, cfg: &Config) -> anyhow::Result<Catalog> {
    let (spec, opts) = resolve_server(args, cfg)?;
    let catalog = match catalog::load(&spec, &opts).await {
        Ok(c) => c,
        Err(e) => {
            let message = format!("{e:#}");
            let mut help = crate::error::connect_help(
                &message,
                &spec.display(),
                opts.connect_timeout.as_secs_f64(),
            );
            if let ServerSpec::Http { url } = &spec
                && let Some(endpoint) = catalog::connect::legacy::legacy_sse(url, &opts).await
            {
                help = format!(
                    "{url} is a legacy HTTP+SSE server (protocol 2024-11-05: GET announced its message endpoint `{endpoint}`); toolgate speaks Streamable HTTP (2025-03-26 and later). Point it at the server's Streamable HTTP endpoint (often /mcp), or run the server over stdio"
                );
            }
            return Err(crate::error::ConnectError::Failed { message, help }.into());
        }
    };
    // The server has run: every reviewed file pinned before it started must be as it was (a
    // deleted lock would read as a first run, a created baseline as evidence).
    crate::fsio::verify_pins()?;
    for note in &catalog.notes {
        crate::elog!("note: {note}");
    }
    Ok(catalog)
}

pub fn lock_path(flag: Option<&PathBuf>, cfg: &Config) -> PathBuf {
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
pub fn locate_file(
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

/// Says why the gate failed (on stderr) and returns the exit.
pub(crate) fn verdict(d: &crate::gate::GateDecision) -> Exit {
    if !d.passed() {
        let what = if d.exit() == Exit::CouldNotRun {
            "the run cannot be scored"
        } else {
            "gate failed"
        };
        crate::elog!("toolgate: {what}: {}", d.wording().join("; "));
    }
    d.exit()
}

/// Writes `--badge FILE` (and the shields endpoint document FILE.json beside it) when asked.
pub(crate) fn write_badge(run: &RunFile, gate_args: &GateArgs) -> anyhow::Result<()> {
    if let Some(path) = &gate_args.badge
        && let Some(svg) = crate::report::badge::for_run(run)
    {
        write_file(path, &svg)?;
        if let Some(json) = crate::report::badge::endpoint_json(run) {
            write_file(&crate::report::badge::endpoint_path(path), &json)?;
        }
    }
    Ok(())
}

pub(crate) fn print_run(run: &RunFile, format: Format) {
    match format {
        Format::Json => print(&crate::record::v1::to_text(run).unwrap_or_default()),
        Format::Markdown | Format::Github => print(&run_report::markdown(run)),
        Format::Terminal | Format::Sarif => print(&run_report::terminal(run)),
    }
}

/// One tool's row of `inspect --json` (a belt's rows put `key` and `server` before it).
pub fn tool_row(
    t: &crate::catalog::Tool,
    tokens: usize,
    exact: bool,
) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::json;
    let mut row = serde_json::Map::new();
    row.insert("name".into(), json!(t.name()));
    row.insert("params".into(), json!(t.params().len()));
    row.insert("required".into(), json!(t.required()));
    row.insert("annotations".into(), json!(t.annotations()));
    row.insert("tokens".into(), json!(tokens));
    row.insert("tokens_exact".into(), json!(exact));
    row.insert(
        "sha256".into(),
        json!(crate::catalog::canonical::tool_hash(t)),
    );
    row
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

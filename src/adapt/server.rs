//! Which server to talk to and how (flags first, then toolgate.toml, or one server of an MCP
//! client config), and loading its catalog.

use crate::catalog::{self, Catalog, ConnectOptions, ServerSpec};
use crate::cli::ServerArgs;
use crate::config::Config;

use super::belt;
use super::connect::connect_options;

/// Works out which server to talk to and how, from flags first, then the config file.
pub(crate) fn resolve_server(
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

/// Connects (or reads the snapshot) and returns the catalog, printing connection notes on stderr.
pub(crate) async fn load_catalog(args: &ServerArgs, cfg: &Config) -> anyhow::Result<Catalog> {
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

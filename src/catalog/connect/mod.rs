//! Connects to a live MCP server with rmcp (stdio child process or Streamable HTTP), performs
//! the `initialize` handshake and reads every page of `tools/list`. Never calls a tool on its
//! own: only a [`Visit`] the caller hands in (the opt-in contract tests) may, on the open
//! session, after the listing.

mod client;
mod http;
pub(crate) mod legacy;
mod list_tools;
mod session;
mod stdio;

pub(crate) use session::{Called, NoVisit, Session, Visit};
use session::{InitializeRejected, Lifecycle};

use anyhow::{anyhow, bail};

use super::{Catalog, ConnectOptions, ServerSpec};
use crate::secrets as env;
use http::connect_http;
use stdio::connect_stdio;

/// Connects to `spec` (a command or a URL) and returns its catalog.
/// Server-originated text in the catalog's notes and in any error (the server's stderr, its
/// error messages, junk it printed) has every secret masked (see [`env::mask_secrets`]).
pub(crate) async fn connect(spec: &ServerSpec, opts: &ConnectOptions) -> anyhow::Result<Catalog> {
    Ok(connect_visit(spec, opts, &NoVisit).await?.0)
}

/// Like [`connect`], and then runs `visit` on the open session (after `tools/list`, before it
/// closes); returns the catalog and what the visit returned.
pub(crate) async fn connect_visit<V: Visit>(
    spec: &ServerSpec,
    opts: &ConnectOptions,
    visit: &V,
) -> anyhow::Result<(Catalog, V::Out)> {
    let result = match attempt(spec, opts, Lifecycle::Initialize, visit).await {
        Err(e) if e.is::<InitializeRejected>() => {
            // A server of the stateless era (2026-07-28) rejects `initialize`: start again
            // with `server/discover`, and say which era it spoke.
            let why = e.to_string();
            match attempt(spec, opts, Lifecycle::Discover, visit).await {
                Ok((mut c, out)) => {
                    c.server.era = Some(ERA_STATELESS.into());
                    c.notes.push(format!(
                        "{why}; toolgate read it with `server/discover` instead: the server speaks protocol {} ({ERA_STATELESS})",
                        c.server.protocol_version.as_deref().unwrap_or("2026-07-28")
                    ));
                    Ok((c, out))
                }
                Err(e2) => Err(anyhow!(
                    "{why}; `server/discover` (protocol 2026-07-28) failed too: {e2:#}"
                )),
            }
        }
        other => other,
    };
    let extra = secret_extras(opts);
    match result {
        Ok((mut catalog, out)) => {
            for note in &mut catalog.notes {
                *note = env::mask_secrets(note, &extra);
            }
            Ok((catalog, out))
        }
        Err(e) => Err(anyhow!(env::mask_secrets(&format!("{e:#}"), &extra))),
    }
}

/// How `ServerMeta::era` names a server read with `server/discover`.
pub(crate) const ERA_STATELESS: &str = "stateless era: server/discover, no initialize";

async fn attempt<V: Visit>(
    spec: &ServerSpec,
    opts: &ConnectOptions,
    lifecycle: Lifecycle,
    visit: &V,
) -> anyhow::Result<(Catalog, V::Out)> {
    match spec {
        ServerSpec::Command { program, args } => {
            connect_stdio(spec, program, args, opts, lifecycle, visit).await
        }
        ServerSpec::Http { url } => connect_http(spec, url, opts, lifecycle, visit).await,
        ServerSpec::Snapshot(p) => bail!("{} is a snapshot file, not a server", p.display()),
    }
}

/// The secrets the user handed toolgate for this server: `--header` values, the bearer
/// token and the values of `--pass-env` variables.
pub(crate) fn secret_extras(opts: &ConnectOptions) -> Vec<String> {
    let mut extra: Vec<String> = Vec::new();
    for (_, v) in &opts.headers {
        extra.push(v.clone());
        // `Authorization: Bearer TOKEN`: the token alone is a secret too.
        if let Some((_, last)) = v.trim().rsplit_once(' ') {
            extra.push(last.to_string());
        }
    }
    extra.extend(opts.bearer_token.clone());
    extra.extend(env::pass_env_values(&opts.pass_env));
    // Values an MCP config sets under a credential-looking name.
    extra.extend(
        opts.env
            .iter()
            .filter(|(k, _)| env::looks_secret(k))
            .map(|(_, v)| v.clone()),
    );
    extra
}

//! A *belt*: every server of an MCP client config, connected in parallel (each with its own
//! timeouts and its own error) into one set of catalogs keyed by server name, the way a host
//! loads them together. A tool is keyed `server/tool`; each catalog keeps its tools' own
//! names, which is what the model reads.

pub(crate) mod combine;
pub(crate) mod ecosystem;
pub(crate) mod lock;
pub(crate) mod source;

use std::path::Path;

use anyhow::{anyhow, bail};

use super::mcp_config::{self, ConfigServer, McpConfig, Transport};
use super::{Catalog, ConnectOptions, ServerSpec};
use crate::secrets as env;

/// One server of a belt and what it offers.
#[derive(Clone, Debug)]
pub(crate) struct BeltServer {
    /// Its key in the config file.
    pub name: String,
    pub catalog: Catalog,
}

/// Every server of a config, in file order.
#[derive(Clone, Debug)]
pub(crate) struct Belt {
    /// The config file read (for the record).
    pub config: String,
    pub servers: Vec<BeltServer>,
}

impl Belt {
    #[cfg(test)]
    /// `server/tool` for every tool of the belt, in order.
    pub(crate) fn keys(&self) -> Vec<String> {
        self.servers
            .iter()
            .flat_map(|s| s.catalog.tools.iter().map(|t| key(&s.name, t.name())))
            .collect()
    }

    pub(crate) fn tool_count(&self) -> usize {
        self.servers.iter().map(|s| s.catalog.tools.len()).sum()
    }
}

/// How a belt keys a tool: `server/tool`.
pub(crate) fn key(server: &str, tool: &str) -> String {
    format!("{server}/{tool}")
}

/// How `${VAR}` in a config reads the environment: toolgate's own credentials (provider keys,
/// GITHUB_TOKEN, `TOOLGATE_*` settings, an action's inputs) are refused unless the user passed
/// the variable with `--pass-env`, so no config can hand a key to a server by naming it.
/// A value written literally in the file is the user's own choice and is passed as written.
pub(crate) fn lookup(pass_env: &[String]) -> impl Fn(&str) -> Result<Option<String>, String> + '_ {
    move |name: &str| {
        if env::is_stripped(name, pass_env) {
            return Err(format!(
                "names a variable toolgate keeps from servers (its own credentials and \
                 settings); pass it with --pass-env {name} if this server needs it"
            ));
        }
        if pass_env.iter().any(|p| p == name) {
            return Ok(env::secret_var(name));
        }
        Ok(std::env::var(name).ok())
    }
}

/// Reads a config, expanding `${VAR}` with [`lookup`].
pub(crate) fn read_config(path: &Path, pass_env: &[String]) -> anyhow::Result<McpConfig> {
    let look = lookup(pass_env);
    mcp_config::read(path, &look).map_err(|e| anyhow!(e))
}

/// The spec and connect options of one config entry: `base` (timeouts, limits, `--header`,
/// `--pass-env`) plus what the entry sets (its `env`, `cwd`, `headers`).
pub(crate) fn spec_of(
    server: &ConfigServer,
    base: &ConnectOptions,
) -> anyhow::Result<(ServerSpec, ConnectOptions)> {
    let mut opts = base.clone();
    let spec = match &server.transport {
        Transport::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            opts.env = env.clone();
            opts.cwd = cwd.clone();
            ServerSpec::Command {
                program: command.clone(),
                args: args.clone(),
            }
        }
        Transport::Http { url, headers } => {
            reqwest::Url::parse(url)
                .map_err(|e| anyhow!("server `{}`: `url` is not a valid URL: {e}", server.name))?;
            for (k, v) in headers {
                let (k, v) = super::source::parse_header(&format!("{k}: {v}"))
                    .map_err(|e| anyhow!("server `{}`: headers: {e:#}", server.name))?;
                opts.headers.push((k, v));
            }
            ServerSpec::Http { url: url.clone() }
        }
        Transport::Sse { .. } => bail!(
            "server `{}` uses the HTTP+SSE transport (`type: sse`), deprecated since MCP \
             2025-03-26; toolgate speaks Streamable HTTP: point its `url` at the server's \
             Streamable HTTP endpoint and set `type: http`",
            server.name
        ),
    };
    Ok((spec, opts))
}

/// In a belt, a `--pass-env` credential reaches only the servers whose own section names it
/// (a key of its `env`): the token one server needs is not handed to every server beside it.
fn own_pass_env(server: &ConfigServer, opts: &mut ConnectOptions) {
    let named: Vec<&str> = match &server.transport {
        Transport::Stdio { env, .. } => env.iter().map(|(k, _)| k.as_str()).collect(),
        _ => Vec::new(),
    };
    opts.pass_env.retain(|v| named.contains(&v.as_str()));
}

/// Connects every server of `config` at once; each gets `base`'s timeouts. When any fails,
/// the error names every server that failed and why (a partial belt is never returned).
pub(crate) async fn connect_all(config: &McpConfig, base: &ConnectOptions) -> anyhow::Result<Belt> {
    config.require_all().map_err(|e| anyhow!(e))?;
    if config.servers.is_empty() {
        bail!(
            "{}: no servers to connect (every entry is disabled, or `{}` is empty)",
            config.path.display(),
            config.key
        );
    }
    let jobs = config.servers.iter().map(|s| async move {
        let (spec, mut opts) = spec_of(s, base)?;
        own_pass_env(s, &mut opts);
        super::connect::connect(&spec, &opts)
            .await
            .map(|c| super::mask::checked(c, &opts))
    });
    let results = crate::progress::while_slow(
        &format!(
            "waiting for {} servers to start and list their tools",
            config.servers.len()
        ),
        futures::future::join_all(jobs),
    )
    .await;
    let mut servers = Vec::new();
    let mut failed = Vec::new();
    for (s, r) in config.servers.iter().zip(results) {
        match r {
            Ok(catalog) => servers.push(BeltServer {
                name: s.name.clone(),
                catalog,
            }),
            Err(e) => failed.push(format!("server `{}`: {e:#}", s.name)),
        }
    }
    if !failed.is_empty() {
        let ok: Vec<&str> = servers.iter().map(|s| s.name.as_str()).collect();
        bail!(
            "{} of {} servers in {} could not be read (the belt is incomplete, so nothing was \
             checked; connected: {}):\n  {}",
            failed.len(),
            config.servers.len(),
            config.path.display(),
            if ok.is_empty() {
                "none".into()
            } else {
                mcp_config::list(&ok)
            },
            failed.join("\n  ")
        );
    }
    Ok(Belt {
        config: config.path.display().to_string(),
        servers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_env_cannot_reach_toolgate_credentials() {
        let look = lookup(&[]);
        assert!(look("OPENAI_API_KEY").unwrap_err().contains("--pass-env"));
        assert!(look("GITHUB_TOKEN").is_err());
        assert!(look("TOOLGATE_BEARER_TOKEN").is_err());
        assert!(look("PATH").unwrap().is_some());
        let pass = vec!["GITHUB_TOKEN".to_string()];
        assert!(lookup(&pass)("GITHUB_TOKEN").is_ok());
    }

    #[test]
    fn entries_become_specs_with_their_env() {
        let base = ConnectOptions::default();
        let stdio = ConfigServer {
            name: "m".into(),
            transport: Transport::Stdio {
                command: "node".into(),
                args: vec!["s.js".into()],
                env: vec![("K".into(), "v".into())],
                cwd: None,
            },
        };
        let (spec, opts) = spec_of(&stdio, &base).unwrap();
        assert_eq!(spec.display(), "node s.js");
        assert_eq!(opts.env, vec![("K".to_string(), "v".to_string())]);
        let http = ConfigServer {
            name: "h".into(),
            transport: Transport::Http {
                url: "http://127.0.0.1:1/mcp".into(),
                headers: vec![("X-A".into(), "b".into())],
            },
        };
        let (spec, opts) = spec_of(&http, &base).unwrap();
        assert!(matches!(spec, ServerSpec::Http { .. }));
        assert_eq!(opts.headers, vec![("X-A".to_string(), "b".to_string())]);
        let sse = ConfigServer {
            name: "s".into(),
            transport: Transport::Sse { url: "u".into() },
        };
        let e = spec_of(&sse, &base).unwrap_err().to_string();
        assert!(e.contains("server `s`") && e.contains("type: sse"), "{e}");
        let bad = ConfigServer {
            name: "b".into(),
            transport: Transport::Http {
                url: "not a url".into(),
                headers: vec![],
            },
        };
        assert!(
            spec_of(&bad, &base)
                .unwrap_err()
                .to_string()
                .contains("server `b`")
        );
    }
}

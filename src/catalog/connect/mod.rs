//! Connects to a live MCP server with rmcp (stdio child process or Streamable HTTP), performs
//! the `initialize` handshake and reads every page of `tools/list`. Never calls a tool on its
//! own: only a [`Visit`] the caller hands in (the opt-in contract tests) may, on the open
//! session, after the listing.

mod http;
pub mod legacy;
mod list_tools;
mod stdio;

use std::time::Duration;

use anyhow::{anyhow, bail};
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
use rmcp::service::{ClientInitializeError, RoleClient, RunningService, ServiceExt};
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use tokio::time::timeout;

use super::tee::SharedCapture;
use super::{Catalog, ConnectOptions, ServerSpec};
use crate::secrets as env;
use http::connect_http;
use list_tools::list_tools;
use stdio::connect_stdio;

/// The protocol revision toolgate offers in `initialize`; the server answers with its own.
pub const OFFERED_PROTOCOL: ProtocolVersion = ProtocolVersion::V_2025_11_25;

type Client = RunningService<RoleClient, ClientConfig>;

fn client_config() -> ClientConfig {
    let mut config = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("toolgate", env!("CARGO_PKG_VERSION")),
    );
    config.protocol_version = OFFERED_PROTOCOL;
    config
}

/// Connects to `spec` (a command or a URL) and returns its catalog.
/// Server-originated text in the catalog's notes and in any error (the server's stderr, its
/// error messages, junk it printed) has every secret masked (see [`env::mask_secrets`]).
pub async fn connect(spec: &ServerSpec, opts: &ConnectOptions) -> anyhow::Result<Catalog> {
    Ok(connect_visit(spec, opts, &NoVisit).await?.0)
}

/// Like [`connect`], and then runs `visit` on the open session (after `tools/list`, before it
/// closes); returns the catalog and what the visit returned.
pub async fn connect_visit<V: Visit>(
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
pub const ERA_STATELESS: &str = "stateless era: server/discover, no initialize";

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
pub fn secret_extras(opts: &ConnectOptions) -> Vec<String> {
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

/// How a session starts: the `initialize` handshake (protocol revisions up to 2025-11-25), or
/// `server/discover` (2026-07-28, the stateless revision, for servers that reject
/// `initialize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lifecycle {
    Initialize,
    Discover,
}

/// The server answered `initialize` with a JSON-RPC error: it may speak only the stateless
/// protocol, so toolgate tries `server/discover` next.
#[derive(Debug)]
struct InitializeRejected(String);

impl std::fmt::Display for InitializeRejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the server rejected `initialize`: {}", self.0)
    }
}

impl std::error::Error for InitializeRejected {}

/// The handshake failed below MCP: no connection, or the connection closed before any reply to
/// `initialize` (an HTTP service still starting, a port proxy with nothing behind it yet).
#[derive(Debug)]
struct NoReply(String);

impl std::fmt::Display for NoReply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the MCP handshake failed: {}", self.0)
    }
}

impl std::error::Error for NoReply {}

/// Starts an rmcp client session over `transport` with `lifecycle`.
async fn start<T, E, A>(transport: T, lifecycle: Lifecycle) -> Result<Client, ClientInitializeError>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    match lifecycle {
        Lifecycle::Initialize => client_config().serve(transport).await,
        Lifecycle::Discover => {
            client_config()
                .serve_with_lifecycle(
                    transport,
                    ClientLifecycleMode::Discover {
                        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                    },
                )
                .await
        }
    }
}

/// Runs the handshake (bounded by the connect timeout), lists tools, runs `visit`, and closes
/// the session.
async fn session<F, V: Visit>(
    serve: F,
    lifecycle: Lifecycle,
    opts: &ConnectOptions,
    capture: &SharedCapture,
    visit: &V,
) -> anyhow::Result<(Catalog, V::Out)>
where
    F: std::future::Future<Output = Result<Client, ClientInitializeError>>,
{
    let client = match timeout(opts.connect_timeout, serve).await {
        Err(_) => bail!(
            "the server did not finish the MCP handshake within {}s (--connect-timeout)",
            opts.connect_timeout.as_secs_f64()
        ),
        Ok(Err(ClientInitializeError::JsonRpcError(e))) if lifecycle == Lifecycle::Initialize => {
            let msg: String = e.message.chars().take(200).collect();
            return Err(anyhow::Error::new(InitializeRejected(format!(
                "{msg} (JSON-RPC error {})",
                e.code.0
            ))));
        }
        Ok(Err(e)) => match cut_reason(capture) {
            // The tap cut the stream: say why first (rmcp only saw the connection close).
            Some(why) => bail!("{why} (the MCP handshake could not finish)"),
            None => {
                let text = humanize(&e.to_string());
                let no_reply = match &e {
                    ClientInitializeError::ConnectionClosed(_) => true,
                    // reqwest's words for a request that got no response at all.
                    ClientInitializeError::TransportError { .. } => {
                        text.contains("error sending request")
                    }
                    _ => false,
                };
                if no_reply {
                    return Err(anyhow::Error::new(NoReply(text)));
                }
                bail!("the MCP handshake failed: {text}")
            }
        },
        Ok(Ok(client)) => client,
    };
    let listed = match list_tools(&client, opts, capture).await {
        Ok(mut catalog) => {
            // A second listing in the same session: the order a model (and a prompt cache)
            // sees should not change between two listings, nor the tools themselves.
            match list_tools(&client, opts, capture).await {
                Ok(again) => {
                    catalog.relisting = Some(crate::catalog::Relisting::of(
                        &catalog.tools,
                        &again.tools,
                    ));
                }
                Err(e) => catalog.notes.push(format!(
                    "a second tools/list failed ({e:#}): whether the listing is stable was not checked"
                )),
            }
            let out = visit.visit(Session { client: &client }, &catalog).await;
            Ok((catalog, out))
        }
        Err(e) => Err(e),
    };
    let _ = timeout(Duration::from_secs(2), client.cancel()).await;
    listed
}

/// Work done on the open session after `tools/list` and before it closes: the opt-in
/// contract tests call tools here. The catalog it is given is the one just listed (not yet
/// masked: mask what you report).
pub trait Visit: Sync {
    type Out: Send;
    fn visit<'a>(
        &'a self,
        session: Session<'a>,
        catalog: &'a Catalog,
    ) -> impl std::future::Future<Output = Self::Out> + Send + 'a;
}

/// The visit of a plain listing: nothing.
pub struct NoVisit;

impl Visit for NoVisit {
    type Out = ();
    fn visit<'a>(
        &'a self,
        _: Session<'a>,
        _: &'a Catalog,
    ) -> impl std::future::Future<Output = ()> + Send + 'a {
        std::future::ready(())
    }
}

/// The open session a [`Visit`] works on.
pub struct Session<'a> {
    client: &'a Client,
}

/// How one `tools/call` ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Called {
    /// A `CallToolResult` (as rmcp read it, serialised back to JSON).
    Result(serde_json::Value),
    /// A JSON-RPC error instead of a result.
    RpcError { code: i32, message: String },
    /// No answer within the time limit.
    Timeout,
    /// The connection failed or closed, or the reply was not a `CallToolResult`.
    Failed(String),
}

impl Session<'_> {
    /// Calls `name` with `arguments`, waiting at most `within`.
    pub async fn call(
        &self,
        name: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
        within: Duration,
    ) -> Called {
        let params =
            rmcp::model::CallToolRequestParams::new(name.to_string()).with_arguments(arguments);
        match timeout(within, self.client.call_tool(params)).await {
            Err(_) => Called::Timeout,
            Ok(Ok(result)) => match serde_json::to_value(&result) {
                Ok(v) => Called::Result(v),
                Err(e) => Called::Failed(format!("the result could not be read: {e}")),
            },
            Ok(Err(rmcp::ServiceError::McpError(e))) => Called::RpcError {
                code: e.code.0,
                message: e.message.to_string(),
            },
            Ok(Err(e)) => Called::Failed(humanize(&e.to_string())),
        }
    }

    /// True once the connection is gone (a crashed server): later calls cannot succeed.
    pub fn closed(&self) -> bool {
        self.client.is_closed()
    }
}

/// Why the stdout tap cut the connection (an unparseable reply, an over-long line), if it did.
fn cut_reason(capture: &SharedCapture) -> Option<String> {
    capture.lock().ok().and_then(|c| c.fatal.clone())
}

/// Drops rmcp's internal type names from an error and adds a hint for common causes.
fn humanize(text: &str) -> String {
    static NOISE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"Transport \[[^\]]*(\][^\]]*)*?\] error: ").expect("valid regex")
    });
    let clean = NOISE
        .replace_all(text, "")
        .replace("Send message error ", "");
    // Hints look at the words, never at the URLs: a port such as 40185 is not a 401.
    static URL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s)]*").expect("valid regex")
    });
    static UNAUTHORIZED: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"\b401\b").expect("valid regex"));
    let words = URL.replace_all(&clean, "<url>");
    let hint = if words.contains("error following redirect") {
        " (the server redirected to another origin; toolgate refuses redirects that leave the origin you named, since headers and tokens would follow: use the final URL if you trust it)"
    } else if words.contains("Auth required") || UNAUTHORIZED.is_match(&words) {
        " (the server wants credentials: pass --bearer-env VAR or --header 'Authorization: ...')"
    } else if words.contains("error sending request") {
        " (is a server listening at that URL?)"
    } else if words.contains("connection closed") {
        " (the server closed its end: it may have crashed, or it is not an MCP stdio server)"
    } else {
        ""
    };
    format!("{clean}{hint}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn errors_lose_type_names_and_gain_hints() {
        let e = "Send message error Transport [rmcp::transport::worker::WorkerTransport<rmcp::X<toolgate::Y>>] error: Auth required, when send initialize request";
        assert_eq!(
            super::humanize(e),
            "Auth required, when send initialize request (the server wants credentials: pass --bearer-env VAR or --header 'Authorization: ...')"
        );
    }

    /// A port that happens to contain 401 is not an HTTP 401 (this flaked in CI on port 40185).
    #[test]
    fn a_port_with_401_in_it_is_not_unauthorized() {
        let e = "Client error: error following redirect for url (http://127.0.0.1:40185/mcp), when send initialize request";
        let h = super::humanize(e);
        assert!(h.contains("another origin"), "{h}");
        assert!(!h.contains("credentials"), "{h}");
        let e = "Client error: error sending request for url (http://127.0.0.1:14010/mcp)";
        assert!(!super::humanize(e).contains("credentials"));
        assert!(super::humanize("HTTP status 401 Unauthorized").contains("credentials"));
    }
}

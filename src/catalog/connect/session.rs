//! One session with a server: starting it (`initialize`, or `server/discover` for stateless
//! servers), listing its tools, and visiting it while it is open.

use std::time::Duration;

use anyhow::bail;
use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientInitializeError, RoleClient, ServiceExt};
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use tokio::time::timeout;

use super::client::{Client, client_config, cut_reason, humanize};
use super::list_tools::list_tools;
use crate::catalog::tee::SharedCapture;
use crate::catalog::{Catalog, ConnectOptions};

/// How a session starts: the `initialize` handshake (protocol revisions up to 2025-11-25), or
/// `server/discover` (2026-07-28, the stateless revision, for servers that reject
/// `initialize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lifecycle {
    Initialize,
    Discover,
}

/// The server answered `initialize` with a JSON-RPC error: it may speak only the stateless
/// protocol, so toolgate tries `server/discover` next.
#[derive(Debug)]
pub(super) struct InitializeRejected(pub(super) String);

impl std::fmt::Display for InitializeRejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the server rejected `initialize`: {}", self.0)
    }
}

impl std::error::Error for InitializeRejected {}

/// The handshake failed below MCP: no connection, or the connection closed before any reply to
/// `initialize` (an HTTP service still starting, a port proxy with nothing behind it yet).
#[derive(Debug)]
pub(super) struct NoReply(pub(super) String);

impl std::fmt::Display for NoReply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the MCP handshake failed: {}", self.0)
    }
}

impl std::error::Error for NoReply {}

/// Starts an rmcp client session over `transport` with `lifecycle`.
pub(super) async fn start<T, E, A>(
    transport: T,
    lifecycle: Lifecycle,
) -> Result<Client, ClientInitializeError>
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
pub(super) async fn session<F, V: Visit>(
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
pub(crate) trait Visit: Sync {
    type Out: Send;
    fn visit<'a>(
        &'a self,
        session: Session<'a>,
        catalog: &'a Catalog,
    ) -> impl std::future::Future<Output = Self::Out> + Send + 'a;
}

/// The visit of a plain listing: nothing.
pub(crate) struct NoVisit;

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
pub(crate) struct Session<'a> {
    client: &'a Client,
}

/// How one `tools/call` ended.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Called {
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
    pub(crate) async fn call(
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
    pub(crate) fn closed(&self) -> bool {
        self.client.is_closed()
    }
}

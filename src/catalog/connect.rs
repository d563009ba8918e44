//! Connects to a live MCP server with rmcp (stdio child process or Streamable HTTP), performs
//! the `initialize` handshake and reads every page of `tools/list`. Never calls a tool.

use std::collections::{HashMap, HashSet};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, PaginatedRequestParams, ProtocolVersion,
};
use rmcp::service::{ClientInitializeError, RoleClient, RunningService, ServiceExt};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use tokio::io::AsyncReadExt;
use tokio::time::timeout;

use super::tee::{Capture, SharedCapture, TeeHttpClient, filter_stdout};
use super::{Catalog, ConnectOptions, ServerMeta, ServerSpec, Tool, env};

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
    let result = match attempt(spec, opts, Lifecycle::Initialize).await {
        Err(e) if e.is::<InitializeRejected>() => {
            // A server of the stateless era (2026-07-28) rejects `initialize`: start again
            // with `server/discover`, and say which era it spoke.
            let why = e.to_string();
            match attempt(spec, opts, Lifecycle::Discover).await {
                Ok(mut c) => {
                    c.server.era = Some(ERA_STATELESS.into());
                    c.notes.push(format!(
                        "{why}; toolgate read it with `server/discover` instead: the server speaks protocol {} ({ERA_STATELESS})",
                        c.server.protocol_version.as_deref().unwrap_or("2026-07-28")
                    ));
                    Ok(c)
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
        Ok(mut catalog) => {
            for note in &mut catalog.notes {
                *note = env::mask_secrets(note, &extra);
            }
            Ok(catalog)
        }
        Err(e) => Err(anyhow!(env::mask_secrets(&format!("{e:#}"), &extra))),
    }
}

/// How `ServerMeta::era` names a server read with `server/discover`.
pub const ERA_STATELESS: &str = "stateless era: server/discover, no initialize";

async fn attempt(
    spec: &ServerSpec,
    opts: &ConnectOptions,
    lifecycle: Lifecycle,
) -> anyhow::Result<Catalog> {
    match spec {
        ServerSpec::Command { program, args } => {
            connect_stdio(spec, program, args, opts, lifecycle).await
        }
        ServerSpec::Http { url } => connect_http(spec, url, opts, lifecycle).await,
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
    extra
}

/// Keeps the last bytes a child wrote on stderr, for the error message.
#[derive(Clone, Default)]
struct StderrTail(Arc<Mutex<Vec<u8>>>);

impl StderrTail {
    const KEEP: usize = 16 * 1024;

    fn spawn_reader(&self, mut stderr: tokio::process::ChildStderr) {
        let buf = self.0.clone();
        tokio::spawn(async move {
            let mut chunk = vec![0u8; 8192];
            while let Ok(n) = stderr.read(&mut chunk).await {
                if n == 0 {
                    break;
                }
                if let Ok(mut b) = buf.lock() {
                    b.extend_from_slice(&chunk[..n]);
                    let len = b.len();
                    if len > Self::KEEP * 2 {
                        b.drain(..len - Self::KEEP);
                    }
                }
            }
        });
    }

    /// The last few lines, indented, or an empty string.
    fn render(&self) -> String {
        let bytes = self.0.lock().map(|b| b.clone()).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.is_empty() {
            return String::new();
        }
        let tail = &lines[lines.len().saturating_sub(12)..];
        let shown: Vec<String> = tail
            .iter()
            .map(|l| format!("    {}", l.chars().take(300).collect::<String>()))
            .collect();
        format!(
            "\n  server stderr (last {} lines):\n{}",
            tail.len(),
            shown.join("\n")
        )
    }
}

/// Ends the server and everything it started: it runs in its own process group, whose id
/// (`pgid`, recorded at spawn) stays valid after the server itself exited and was reaped, as
/// long as a grandchild lives in it.
fn kill_group(pgid: Option<u32>) {
    #[cfg(unix)]
    if let Some(pgid) = pgid.and_then(|p| i32::try_from(p).ok()).filter(|p| *p > 1) {
        // SAFETY: kill(2) with a negative pid signals the process group we created.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pgid;
}

/// The server's exit, once it happened: `Some(status)` (`None` inside when waiting failed).
type ExitWatch = tokio::sync::watch::Receiver<Option<Option<std::process::ExitStatus>>>;

/// Waits at most `within` for the server to exit; its status if it did.
async fn exited(rx: &mut ExitWatch, within: Duration) -> Option<std::process::ExitStatus> {
    match timeout(within, rx.wait_for(Option::is_some)).await {
        Ok(Ok(s)) => s.flatten(),
        _ => None,
    }
}

async fn connect_stdio(
    spec: &ServerSpec,
    program: &str,
    args: &[String],
    opts: &ConnectOptions,
    lifecycle: Lifecycle,
) -> anyhow::Result<Catalog> {
    let shown = spec.display();
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    for name in env::stripped_present(&opts.pass_env) {
        cmd.env_remove(name);
    }
    // `--pass-env` names a credential toolgate moved into its store: give it back explicitly.
    for (name, value) in env::passed_from_store(&opts.pass_env) {
        cmd.env(name, value);
    }
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = cmd.spawn().map_err(|e| {
        anyhow!("could not start the server `{shown}`: {e} (is `{program}` installed and on PATH?)")
    })?;
    // The server leads its own group (process_group(0)): pgid = pid, recorded now, while the
    // pid is known (`Child::id` is None once the child was reaped).
    let pgid = child.id();
    let stderr = StderrTail::default();
    if let Some(err) = child.stderr.take() {
        stderr.spawn_reader(err);
    }
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        kill_group(pgid);
        let _ = child.start_kill();
        bail!("could not open pipes to the server `{shown}`");
    };
    // Watch the server's exit: when it is gone, the connection is over, even if a grandchild
    // still holds its stdout open.
    let (exit_tx, mut exit_rx) = tokio::sync::watch::channel(None);
    tokio::spawn(async move {
        let status = child.wait().await.ok();
        let _ = exit_tx.send(Some(status));
    });
    let mut ended_rx = exit_rx.clone();
    let ended = async move {
        let _ = ended_rx.wait_for(Option::is_some).await;
        // Let what the server wrote before it exited be read first.
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let capture = SharedCapture::default();
    let reader = filter_stdout(stdout, opts.max_message_bytes, capture.clone(), ended);
    let transport =
        AsyncRwTransport::new_client(reader, stdin).with_max_line_length(opts.max_message_bytes);

    let result = session(start(transport, lifecycle), lifecycle, opts, &capture).await;
    match result {
        Ok(mut catalog) => {
            catalog.source = shown;
            // Give the server a moment to exit after stdin closed, then end its whole group.
            let _ = exited(&mut exit_rx, Duration::from_millis(500)).await;
            kill_group(pgid);
            Ok(catalog)
        }
        Err(e) if e.is::<InitializeRejected>() => {
            kill_group(pgid);
            Err(e)
        }
        Err(e) => {
            // Let a crashing child finish writing stderr and exit, so we can say how it ended.
            let status = exited(&mut exit_rx, Duration::from_millis(300)).await;
            kill_group(pgid);
            let exit = match status {
                Some(s) if !s.success() => format!(" The server process exited ({s})."),
                _ => String::new(),
            };
            let shown_already = format!("{e:#}");
            let fatal = cut_reason(&capture)
                .filter(|f| !shown_already.contains(f.as_str()))
                .map(|f| format!(" The connection was cut: {f}."))
                .unwrap_or_default();
            Err(anyhow!("{e:#}.{exit}{fatal}{}", stderr.render()))
                .with_context(|| format!("could not read the tools of `{shown}` over stdio"))
        }
    }
}

async fn connect_http(
    spec: &ServerSpec,
    url: &str,
    opts: &ConnectOptions,
    lifecycle: Lifecycle,
) -> anyhow::Result<Catalog> {
    let shown = spec.display();
    let mut headers = HashMap::new();
    for (k, v) in &opts.headers {
        headers.insert(
            reqwest::header::HeaderName::from_bytes(k.as_bytes())
                .with_context(|| format!("--header `{k}`"))?,
            reqwest::header::HeaderValue::from_str(v).with_context(|| format!("--header `{k}`"))?,
        );
    }
    let mut config = StreamableHttpClientTransportConfig::with_uri(url);
    config.auth_header = opts.bearer_token.clone();
    config.custom_headers = headers;
    config.max_json_response_size = opts.max_message_bytes;
    config.max_sse_event_size = opts.max_message_bytes;
    let inner = reqwest::Client::builder()
        .connect_timeout(opts.connect_timeout)
        .redirect(super::net::same_origin_redirects())
        .build()
        .context("could not build the HTTP client")?;
    let capture = SharedCapture::default();
    let client = TeeHttpClient {
        inner,
        capture: capture.clone(),
    };
    let transport = StreamableHttpClientTransport::with_client(client, config);
    let mut catalog = match session(start(transport, lifecycle), lifecycle, opts, &capture).await {
        Ok(c) => c,
        Err(e) if e.is::<InitializeRejected>() => return Err(e),
        Err(e) => {
            return Err(e.context(format!(
                "could not read the tools of `{shown}` over Streamable HTTP"
            )));
        }
    };
    catalog.source = shown;
    let sent = match (opts.bearer_token.is_some(), opts.headers.is_empty()) {
        (true, _) => Some("the bearer token"),
        (false, false) => Some("the --header values"),
        _ => None,
    };
    if let Some(what) = sent
        && let Some(w) = super::net::plain_http_warning(url, what)
    {
        catalog.notes.push(w);
    }
    Ok(catalog)
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

/// Runs the handshake (bounded by the connect timeout), lists tools, and closes the session.
async fn session<F>(
    serve: F,
    lifecycle: Lifecycle,
    opts: &ConnectOptions,
    capture: &SharedCapture,
) -> anyhow::Result<Catalog>
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
            None => bail!("the MCP handshake failed: {}", humanize(&e.to_string())),
        },
        Ok(Ok(client)) => client,
    };
    let listed = list_tools(&client, opts, capture).await;
    let _ = timeout(Duration::from_secs(2), client.cancel()).await;
    listed
}

async fn list_tools(
    client: &Client,
    opts: &ConnectOptions,
    capture: &SharedCapture,
) -> anyhow::Result<Catalog> {
    let info = client.peer_info();
    let mut catalog = Catalog::default();
    if let Some(info) = info.as_deref() {
        catalog.server = ServerMeta {
            name: info.server_info.as_ref().map(|s| s.name.clone()),
            version: info.server_info.as_ref().map(|s| s.version.clone()),
            protocol_version: Some(info.protocol_version.to_string()),
            era: None,
        };
        catalog.instructions = info.instructions.clone();
        if info.capabilities.tools.is_none() {
            catalog
                .notes
                .push("the server did not declare the `tools` capability".into());
        }
    }
    let mut typed = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = HashSet::new();
    let mut pages = 0usize;
    loop {
        pages += 1;
        if pages > opts.max_pages {
            bail!(
                "tools/list was still paginating after {} pages (--max-pages); the server's cursor may never end",
                opts.max_pages
            );
        }
        let params = cursor
            .clone()
            .map(|c| PaginatedRequestParams::default().with_cursor(Some(c)));
        let captured_before = capture.lock().map(|c| c.pages.len()).unwrap_or(0);
        let next_cursor = match timeout(opts.request_timeout, client.list_tools(params)).await {
            Err(_) => bail!(
                "tools/list page {pages} got no answer within {}s (--request-timeout)",
                opts.request_timeout.as_secs_f64()
            ),
            Ok(Ok(page)) => {
                typed.extend(page.tools);
                page.next_cursor
            }
            Ok(Err(e)) => {
                // rmcp's typed model rejects some results a model would still be shown (a
                // tool without inputSchema, say). When the raw page arrived, use it: the lint
                // rules report what is wrong with it.
                let raw = capture
                    .lock()
                    .ok()
                    .and_then(|c| c.pages.get(captured_before).cloned());
                let Some(raw) = raw else {
                    if let Some(why) = cut_reason(capture) {
                        bail!("tools/list page {pages} failed: {why}");
                    }
                    bail!(
                        "tools/list page {pages} failed: {}",
                        humanize(&e.to_string())
                    );
                };
                catalog.notes.push(format!(
                    "rmcp could not read tools/list page {pages} ({}); toolgate used the raw JSON",
                    humanize(&e.to_string())
                ));
                match raw.get("nextCursor") {
                    None | Some(serde_json::Value::Null) => None,
                    Some(serde_json::Value::String(c)) => Some(c.clone()),
                    Some(other) => bail!(
                        "tools/list page {pages}: `nextCursor` must be a string, found {} (`{}`): toolgate cannot tell whether more pages follow",
                        super::kind(other),
                        other.to_string().chars().take(60).collect::<String>()
                    ),
                }
            }
        };
        match next_cursor.filter(|c| !c.is_empty()) {
            None => break,
            Some(c) => {
                if !seen.insert(c.clone()) {
                    let c: String = c.chars().take(80).collect();
                    bail!(
                        "tools/list returned the cursor `{c}` twice (page {pages}): its pagination never ends"
                    );
                }
                cursor = Some(c);
            }
        }
    }
    let raw_pages = std::mem::take(&mut capture.lock().map_err(|_| anyhow!("capture lock"))?.pages);
    catalog.tools = if raw_pages.len() == pages {
        let mut tools = Vec::new();
        for (p, page) in raw_pages.into_iter().enumerate() {
            let items = page
                .get("tools")
                .and_then(|t| t.as_array())
                .cloned()
                .unwrap_or_default();
            for (i, item) in items.into_iter().enumerate() {
                tools.push(
                    Tool::from_value(item, &format!("tools/list page {} tools[{i}]", p + 1))
                        .map_err(|e| anyhow!(e))?,
                );
            }
        }
        tools
    } else {
        catalog.notes.push(
            "raw tools/list JSON was not captured; definitions were re-serialised by rmcp (fields it does not know are dropped)".into(),
        );
        typed
            .into_iter()
            .map(|t| match serde_json::to_value(t) {
                Ok(v) => Tool::from_value(v, "tools/list").map_err(|e| anyhow!(e)),
                Err(e) => Err(anyhow!(e)),
            })
            .collect::<anyhow::Result<_>>()?
    };
    if pages > 1 {
        catalog.notes.push(format!("tools/list had {pages} pages"));
    }
    let Capture {
        junk_lines,
        junk_samples,
        ..
    } = &*capture.lock().map_err(|_| anyhow!("capture lock"))?;
    if *junk_lines > 0 {
        catalog.notes.push(format!(
            "skipped {junk_lines} non-protocol line(s) on the server's stdout (servers must log to stderr), e.g. {:?}",
            junk_samples.first().cloned().unwrap_or_default()
        ));
    }
    Ok(catalog)
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
    let hint = if clean.contains("Auth required") || clean.contains("401") {
        " (the server wants credentials: pass --bearer-env VAR or --header 'Authorization: ...')"
    } else if clean.contains("error following redirect") {
        " (the server redirected to another origin; toolgate refuses redirects that leave the origin you named, since headers and tokens would follow: use the final URL if you trust it)"
    } else if clean.contains("error sending request") {
        " (is a server listening at that URL?)"
    } else if clean.contains("connection closed") {
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
}

//! The Streamable HTTP transport: headers and bearer token, same-origin redirects only, the
//! raw replies teed for the catalog, and a warning when credentials go over plain HTTP.
//!
//! A service that is still starting (a job's service container, a server started in the step
//! before) refuses connections, or, behind a published port, accepts and closes them at once.
//! Such a handshake is tried again, with a pause, until `--connect-timeout` runs out: nothing
//! was initialised, so nothing is repeated but the attempt to say hello.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::Context;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use super::session::{InitializeRejected, Lifecycle, NoReply, Visit, session, start};
use crate::catalog::tee::{SharedCapture, TeeHttpClient};
use crate::catalog::{Catalog, ConnectOptions, ServerSpec};

pub(super) async fn connect_http<V: Visit>(
    spec: &ServerSpec,
    url: &str,
    opts: &ConnectOptions,
    lifecycle: Lifecycle,
    visit: &V,
) -> anyhow::Result<(Catalog, V::Out)> {
    let shown = spec.display();
    let deadline = Instant::now() + opts.connect_timeout;
    let mut pause = Duration::from_millis(200);
    let mut tries = 1u32;
    loop {
        let mut this = opts.clone();
        this.connect_timeout = deadline.saturating_duration_since(Instant::now());
        match attempt(spec, url, &this, lifecycle, visit).await {
            Err(e) if e.is::<NoReply>() && Instant::now() + pause < deadline => {
                if tries == 1 {
                    crate::elog!(
                        "toolgate: {shown} does not answer yet (nothing listens there, or the \
                         connection closed before a reply); trying again for up to {:.0} s \
                         (--connect-timeout)",
                        deadline
                            .saturating_duration_since(Instant::now())
                            .as_secs_f64()
                    );
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(2));
                tries += 1;
            }
            Err(e) if tries > 1 => {
                return Err(e.context(format!(
                    "{tries} attempts over {:.0} s (--connect-timeout)",
                    opts.connect_timeout.as_secs_f64()
                )));
            }
            other => return other,
        }
    }
}

/// One connection and handshake.
async fn attempt<V: Visit>(
    spec: &ServerSpec,
    url: &str,
    opts: &ConnectOptions,
    lifecycle: Lifecycle,
    visit: &V,
) -> anyhow::Result<(Catalog, V::Out)> {
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
    let inner = crate::catalog::net::client_builder()
        .connect_timeout(opts.connect_timeout)
        .redirect(crate::catalog::net::same_origin_redirects())
        .build()
        .context("could not build the HTTP client")?;
    let capture = SharedCapture::default();
    let client = TeeHttpClient {
        inner,
        capture: capture.clone(),
    };
    let transport = StreamableHttpClientTransport::with_client(client, config);
    let (mut catalog, out) = match session(
        start(transport, lifecycle),
        lifecycle,
        opts,
        &capture,
        visit,
    )
    .await
    {
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
        && let Some(w) = crate::catalog::net::plain_http_warning(url, what)
    {
        catalog.notes.push(w);
    }
    Ok((catalog, out))
}

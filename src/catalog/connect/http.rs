//! The Streamable HTTP transport: headers and bearer token, same-origin redirects only, the
//! raw replies teed for the catalog, and a warning when credentials go over plain HTTP.

use std::collections::HashMap;

use anyhow::Context;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use super::{InitializeRejected, Lifecycle, Visit, session, start};
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
    // Start-up time counts once: what waiting for the port took is not given again.
    let started = std::time::Instant::now();
    let waited = super::wait::until_listening(url, opts.connect_timeout).await;
    let mut opts = opts.clone();
    opts.connect_timeout = opts
        .connect_timeout
        .saturating_sub(started.elapsed())
        .max(std::time::Duration::from_secs(1));
    let opts = &opts;
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
            let e = match waited {
                super::wait::Waited::StillRefused { at, secs } => e.context(format!(
                    "{at} refused every connection for {secs:.0} s of waiting (--connect-timeout)"
                )),
                super::wait::Waited::Go => e,
            };
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

//! Reading every page of `tools/list` (bounded by --max-pages, cursor loops refused), keeping
//! each tool exactly as the server sent it (the raw JSON teed from the transport).

use std::collections::HashSet;

use anyhow::{anyhow, bail};
use rmcp::model::PaginatedRequestParams;
use tokio::time::timeout;

use super::client::{Client, cut_reason, humanize};
use crate::catalog::tee::{Capture, SharedCapture};
use crate::catalog::{Catalog, ConnectOptions, ServerMeta, Tool};

pub(super) async fn list_tools(
    client: &Client,
    opts: &ConnectOptions,
    capture: &SharedCapture,
) -> anyhow::Result<Catalog> {
    let mut catalog = Catalog::default();
    server_meta(client, &mut catalog);
    let mut typed = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = HashSet::new();
    let mut pages = 0usize;
    let mut listed = 0usize;
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
                listed += page.tools.len();
                typed.extend(page.tools);
                page.next_cursor
            }
            Ok(Err(e)) => {
                let (n, next) = raw_page(capture, captured_before, pages, &e, &mut catalog.notes)?;
                listed += n;
                next
            }
        };
        // Stop as soon as the listing passes the limit: the pages after it are not read.
        if listed > crate::limits::MAX_TOOLS {
            return Err(crate::limits::too_many_tools(
                listed,
                &format!("tools/list (after page {pages})"),
            ));
        }
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
    catalog.list_hints = crate::catalog::ListHints::of_pages(&raw_pages);
    catalog.tools = tools_of(raw_pages, pages, typed, &mut catalog.notes)?;
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

/// The server's name, version, title, description, protocol and instructions, as its
/// `initialize` reply gave them.
fn server_meta(client: &Client, catalog: &mut Catalog) {
    let info = client.peer_info();
    if let Some(info) = info.as_deref() {
        catalog.server = ServerMeta {
            name: info.server_info.as_ref().map(|s| s.name.clone()),
            version: info.server_info.as_ref().map(|s| s.version.clone()),
            title: info.server_info.as_ref().and_then(|s| s.title.clone()),
            description: info
                .server_info
                .as_ref()
                .and_then(|s| s.description.clone()),
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
}

/// A page rmcp's typed model rejected (a tool without inputSchema, say), read from the raw
/// JSON when it arrived (the lint rules report what is wrong with it): the tools it lists
/// and its cursor.
fn raw_page(
    capture: &SharedCapture,
    captured_before: usize,
    pages: usize,
    e: &impl std::fmt::Display,
    notes: &mut Vec<String>,
) -> anyhow::Result<(usize, Option<String>)> {
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
    notes.push(format!(
        "rmcp could not read tools/list page {pages} ({}); toolgate used the raw JSON",
        humanize(&e.to_string())
    ));
    let listed = raw
        .get("tools")
        .and_then(|t| t.as_array())
        .map_or(0, Vec::len);
    let next = match raw.get("nextCursor") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(c)) => Some(c.clone()),
        Some(other) => bail!(
            "tools/list page {pages}: `nextCursor` must be a string, found {} (`{}`): toolgate cannot tell whether more pages follow",
            crate::catalog::kind(other),
            other.to_string().chars().take(60).collect::<String>()
        ),
    };
    Ok((listed, next))
}

/// Each tool exactly as the server sent it (the raw pages teed from the transport), or, when
/// they were not all captured, as rmcp re-serialises them.
fn tools_of(
    raw_pages: Vec<serde_json::Value>,
    pages: usize,
    typed: Vec<rmcp::model::Tool>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<Tool>> {
    Ok(if raw_pages.len() == pages {
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
        notes.push(
                "raw tools/list JSON was not captured; definitions were re-serialised by rmcp (fields it does not know are dropped)".into(),
            );
        typed
            .into_iter()
            .map(|t| match serde_json::to_value(t) {
                Ok(v) => Tool::from_value(v, "tools/list").map_err(|e| anyhow!(e)),
                Err(e) => Err(anyhow!(e)),
            })
            .collect::<anyhow::Result<_>>()?
    })
}

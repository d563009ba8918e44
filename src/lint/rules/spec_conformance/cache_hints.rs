//! TG031's 2026-07-28 caching hints on the `tools/list` result: `ttlMs` (how many
//! milliseconds a client may reuse the listing) and `cacheScope` (`public` or `private`).
//! A value a client cannot read is a warning; a listing kept for more than a day, hints that
//! change from page to page, or a 2026-07-28 server that sends none are facts worth knowing.

use serde_json::Value;

use crate::lint::{Context, Finding, Rule, Severity};

/// A listing a client may keep longer than this is reported (a changed definition reaches
/// the model that much later).
const LONG_TTL_MS: u64 = 24 * 3600 * 1000;

/// The first revision whose list results carry caching hints.
const HINTS_SINCE: &str = "2026-07-28";

fn shown(v: &Value) -> String {
    let s = v.to_string();
    let mut out: String = s.chars().take(60).collect();
    if s.chars().count() > 60 {
        out.push('…');
    }
    out
}

pub(super) fn cache_hint_findings(rule: &Rule, cx: &Context, out: &mut Vec<Finding>) {
    let c = cx.catalog;
    let push = |out: &mut Vec<Finding>, severity: Severity, message: String, help: &str| {
        let mut f = cx.finding(rule, None, "", message, help);
        f.severity = severity;
        out.push(f);
    };
    let Some(h) = &c.list_hints else {
        // Only a live session of a server that negotiated a revision with hints.
        let speaks = c
            .server
            .protocol_version
            .as_deref()
            .is_some_and(|v| v >= HINTS_SINCE);
        if speaks && c.relisting.is_some() {
            push(
                out,
                Severity::Info,
                format!(
                    "the tools/list result carries no caching hints: {HINTS_SINCE} says servers MUST send `ttlMs` and `cacheScope` on list results, and clients take a missing `ttlMs` as 0 (list the tools again every time)"
                ),
                "Send `ttlMs` (how long the listing stays fresh, in milliseconds) and `cacheScope` (`public` when every caller gets the same tools, else `private`) on the tools/list result.",
            );
        }
        return;
    };
    match &h.ttl_ms {
        None => {}
        Some(Value::Number(n)) if n.is_u64() => {
            let ms = n.as_u64().unwrap_or(0);
            if ms > LONG_TTL_MS {
                push(
                    out,
                    Severity::Info,
                    format!(
                        "`ttlMs` on the tools/list result is {ms} ({:.1} days): a client may keep showing the model the old definitions that long after they change",
                        ms as f64 / 86_400_000.0
                    ),
                    "Keep `ttlMs` to the time a changed tool may take to reach clients, and send notifications/tools/list_changed when the tools change.",
                );
            }
        }
        Some(other) => push(
            out,
            Severity::Warning,
            format!(
                "`ttlMs` on the tools/list result is `{}`, not a non-negative integer of milliseconds: a client cannot honour it (it takes 0, or rejects the result)",
                shown(other)
            ),
            "Send `ttlMs` as a whole number of milliseconds (0 for 'do not reuse').",
        ),
    }
    if let Some(s) = &h.cache_scope
        && s.as_str() != Some("public")
        && s.as_str() != Some("private")
    {
        push(
            out,
            Severity::Warning,
            format!(
                "`cacheScope` on the tools/list result is `{}`: the specification knows only `public` and `private`",
                shown(s)
            ),
            "Send `private` (the listing is for this caller) or `public` (every caller gets the same tools).",
        );
    }
    if !h.differing_pages.is_empty() {
        let pages: Vec<String> = h
            .differing_pages
            .iter()
            .take(10)
            .map(ToString::to_string)
            .collect();
        push(
            out,
            Severity::Info,
            format!(
                "tools/list page(s) {} carry other caching hints than page 1: one listing, cached as one, is fresh for different times",
                pages.join(", ")
            ),
            "Send the same `ttlMs` and `cacheScope` on every page of a listing.",
        );
    }
}

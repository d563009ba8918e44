//! The comment's and summary's first line: passed, failed or could not score (no number),
//! with the headline accuracy (a reviewed suite only) and the delta against the base.

use super::cells::signed_pts;
use super::{CiReport, CiStatus};

/// Beside the number, what produced it: an offline router is a proxy for a model, and the
/// reader must not take its score for an LLM's.
pub(super) fn measured_by(model: &str) -> String {
    use crate::record::model::{self, Head, Router};
    let name = crate::report::badge::badge_model(model);
    match model::parse(model).head {
        Head::Router(Router::Bm25) => " · a bm25 search over the tool definitions (is the right tool found first?), not a model's choice".into(),
        Head::Router(r @ (Router::Embed | Router::Hybrid)) => format!(
            " · an {} search over the tool definitions (is the right tool found first?), not a model's choice",
            r.name()
        ),
        Head::Router(r) => format!(
            " · {}, an emulated host tool search (top-1 of its results; see findability@k), not a model's choice",
            r.name()
        ),
        Head::Replay => " · replayed answers".into(),
        Head::Other(_) => format!(" · {}", crate::report::markdown::code(&name)),
    }
}

/// The heading line of the comment and the summary.
pub(super) fn headline(r: &CiReport) -> String {
    let first = r.run.results.first();
    // A suite no person reviewed gives no headline accuracy: its score is a smoke test.
    let smoke = !r.run.suite.reviewed();
    let score = first
        .map(|m| {
            if smoke {
                let edited = match r.run.suite.stale {
                    0 => String::new(),
                    s => format!(", {s} edited since approval"),
                };
                format!(
                    " — smoke test only, {:.1}% on {} unreviewed task(s){edited}",
                    m.metrics.accuracy.value * 100.0,
                    r.run.suite.pending
                )
            } else {
                format!(
                    " — {} {:.1}%",
                    crate::record::metric::name(&m.model),
                    m.metrics.accuracy.value * 100.0
                )
            }
        })
        .unwrap_or_default();
    let delta = r
        .first_comparison()
        .map(|c| {
            format!(
                " ({} vs base{})",
                signed_pts(c.overall.delta),
                if c.overall.verdict.is_significant() {
                    format!(", {}", c.overall.verdict)
                } else {
                    ", not significant".into()
                }
            )
        })
        .unwrap_or_default();
    if r.status != CiStatus::Ok {
        // No number in the heading: a score that cannot decide anything (a partial run, a
        // model never shown to read descriptions) is not the first thing to read.
        let what = if smoke {
            format!(
                "smoke test only ({} unreviewed task(s)); no score stands",
                r.run.suite.pending
            )
        } else {
            "no score stands".into()
        };
        format!("## ⚠️ toolgate could not score this change — {what}; why below\n\n")
    } else {
        // Beside the number: what produced it (a proxy is not a model).
        let who = first
            .filter(|_| !smoke)
            .map(|m| measured_by(&m.model))
            .unwrap_or_default();
        if r.passed {
            format!("## ✅ toolgate passed{score}{delta}{who}\n\n")
        } else {
            format!("## ❌ toolgate failed{score}{delta}{who}\n\n")
        }
    }
}

//! "Requests at risk": for a search over the definitions (bm25, toolsearch, embed, hybrid),
//! the requests whose right tool it does not put first, with the tool it puts first instead.
//! On realistic requests such a miss made a real model's wrong pick 8–10 times likelier, and
//! named the same wrong tool 8–9 times in 10: which requests and which tool are at risk, not
//! an accuracy level.

use super::CiReport;
pub(crate) use crate::record::ci::AtRisk;
use crate::report::markdown::code;

/// The most requests kept in ci.json (the comment shows fewer).
pub(crate) const MAX_KEPT: usize = 200;
/// Rows the comment shows.
const SHOWN: usize = 12;
/// Characters of a request shown.
const REQUEST_CHARS: usize = 120;

/// The requests at risk among `outcomes` (router models only), in task order, at most
/// [`MAX_KEPT`]; and how many there are in all.
pub(crate) fn collect(
    outcomes: &[crate::score::OutcomeLine],
    tasks: &[crate::tasks::Task],
) -> (Vec<AtRisk>, usize) {
    let by_id: std::collections::HashMap<&str, &crate::tasks::Task> =
        tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut total = 0;
    for o in outcomes {
        if !crate::record::metric::is_router(&o.model) {
            continue;
        }
        let (Some(expected), Some(called)) = (&o.expected, &o.called) else {
            continue;
        };
        // Another tool first; an acceptable one (scored correct) is not a risk.
        if o.outcome != crate::score::Outcome::Confused
            || !seen.insert((o.model.as_str(), o.task_id.as_str()))
        {
            continue;
        }
        total += 1;
        if out.len() < MAX_KEPT {
            out.push(AtRisk {
                model: o.model.clone(),
                task_id: o.task_id.clone(),
                request: by_id
                    .get(o.task_id.as_str())
                    .map(|t| t.request.clone())
                    .unwrap_or_default(),
                expected: expected.clone(),
                instead: called.clone(),
            });
        }
    }
    (out, total)
}

/// The comment's section (nothing when no request is at risk and no tool is hard to find).
pub(super) fn at_risk(r: &CiReport, out: &mut String) {
    let hard: String = r
        .run
        .results
        .iter()
        .filter(|m| crate::record::metric::is_router(&m.model))
        .map(|m| crate::report::run::findability::hard_to_find(&m.model, &m.metrics))
        .collect();
    if r.at_risk.is_empty() && hard.is_empty() {
        return;
    }
    out.push_str("### Requests at risk\n\n");
    out.push_str(&hard);
    if r.at_risk.is_empty() {
        return;
    }
    out.push_str(&format!(
        "{} request(s) for which a search over the tool definitions puts another tool first. A model's wrong picks concentrate on such requests, usually on the same wrong tool: read these definitions side by side. This is where to look, not an accuracy level.\n\n| model | request | right tool | found first instead |\n|---|---|---|---|\n",
        r.at_risk_total
    ));
    for a in r.at_risk.iter().take(SHOWN) {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            code(&a.model),
            super::cells::text_cell(&crate::text::clip(&a.request, REQUEST_CHARS)),
            code(&a.expected),
            code(&a.instead)
        ));
    }
    if r.at_risk_total > SHOWN {
        out.push_str(&format!(
            "\n…and {} more in ci.json (`at_risk`).\n",
            r.at_risk_total - SHOWN
        ));
    }
    out.push('\n');
}

//! Scoring your tasks inside a belt (`--belt`): where each decision went — your right tool,
//! another of your tools, a belt server's tool ("taken"), nothing, or an error — grouped by
//! the belt server that took it, with the requests; each server's share of the decisions; and,
//! for deterministic models, your catalog alone against the belt on the same tasks (a paired
//! test, retrieval side by side). Pure functions of outcomes, tasks and the origin map.

use std::collections::{BTreeMap, HashMap};

use super::compare::{Delta, compare};
use super::retrieval::RetrievalScores;
use super::{Outcome, OutcomeLine, Rate};
use crate::catalog::belt::combine::Origin;
pub(crate) use crate::record::scores::belt::{
    AloneVsBelt, BeltScore, ServerShare, TakenBy, TakenExample, ToolCount,
};
use crate::tasks::Task;

/// Example requests kept per belt server (for each of taken tasks and no-tool answers).
pub(crate) const EXAMPLES: usize = 3;
/// Characters of a request kept in an example.
pub(crate) const REQUEST_MAX: usize = 200;
/// Your tools listed as losing tasks to the belt, at most.
pub(crate) const LOSERS_MAX: usize = 10;

/// The label of a belt server's folded row and column (`github/*`).
pub(crate) fn server_label(server: &str) -> String {
    format!("{server}/*")
}

/// A belt tool as reports name it: `server/tool`.
pub(crate) fn tool_label(o: &Origin) -> String {
    format!("{}/{}", o.server, o.tool)
}

fn cut(s: &str) -> String {
    if s.chars().count() <= REQUEST_MAX {
        return s.to_string();
    }
    s.chars().take(REQUEST_MAX - 1).collect::<String>() + "…"
}

/// Scores `model`'s outcomes: `origin` maps every belt tool name to its server (your tools are
/// absent from it); `own` names your server.
pub(crate) fn score(
    model: &str,
    own: &str,
    tasks: &[Task],
    outcomes: &[OutcomeLine],
    origin: &BTreeMap<String, Origin>,
) -> BeltScore {
    let by_id: HashMap<&str, &Task> = tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    let mine: Vec<&OutcomeLine> = outcomes.iter().filter(|o| o.model == model).collect();
    let foreign = |o: &OutcomeLine| o.called.as_deref().and_then(|c| origin.get(c));
    // Per task: (hits, trials) for a predicate over its tool-expecting decisions.
    let clustered = |f: &dyn Fn(&OutcomeLine) -> bool, all: bool| {
        let mut per: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        for o in mine.iter().filter(|o| all || o.expected.is_some()) {
            let e = per.entry(o.task_id.as_str()).or_default();
            e.1 += 1;
            e.0 += u64::from(f(o));
        }
        Rate::clustered(&per.into_values().collect::<Vec<_>>())
    };
    let bucket = |o: &OutcomeLine| -> u8 {
        match (o.outcome, &o.called) {
            (Outcome::Correct, _) => 0,
            (Outcome::Error, _) => 4,
            (_, None) => 3,
            _ if foreign(o).is_some() => 2,
            _ => 1,
        }
    };
    let mut s = BeltScore {
        model: model.to_string(),
        tool_tasks: mine.iter().filter(|o| o.expected.is_some()).count() as u64,
        right: clustered(&|o| bucket(o) == 0, false),
        other_own: clustered(&|o| bucket(o) == 1, false),
        taken: clustered(&|o| bucket(o) == 2, false),
        missed: clustered(&|o| bucket(o) == 3, false),
        errors: clustered(&|o| bucket(o) == 4, false),
        ..Default::default()
    };
    for o in mine.iter().filter(|o| o.expected.is_none()) {
        let n = &mut s.no_tool;
        n.n += 1;
        match (o.outcome, foreign(o)) {
            (Outcome::Error, _) => n.errors += 1,
            (_, Some(_)) => n.belt_call += 1,
            _ if o.called.is_none() => n.abstained += 1,
            _ => n.own_call += 1,
        }
    }
    // Per belt server: what its tools took.
    let mut servers: BTreeMap<&str, TakenBy> = BTreeMap::new();
    let mut tools: BTreeMap<(&str, &str), u64> = BTreeMap::new();
    for o in &mine {
        let Some(org) = foreign(o) else { continue };
        if o.outcome == Outcome::Error {
            continue;
        }
        let entry = servers.entry(org.server.as_str()).or_default();
        *tools
            .entry((org.server.as_str(), org.tool.as_str()))
            .or_default() += 1;
        if o.expected.is_none() {
            entry.no_tool += 1;
        }
        let request = by_id.get(o.task_id.as_str()).map(|t| t.request.as_str());
        let seen = entry.examples.iter().any(|e| e.task_id == o.task_id);
        let room = entry
            .examples
            .iter()
            .filter(|e| e.expected.is_some() == o.expected.is_some())
            .count()
            < EXAMPLES;
        if let Some(req) = request
            && !seen
            && room
        {
            entry.examples.push(TakenExample {
                task_id: o.task_id.clone(),
                request: cut(req),
                expected: o.expected.clone(),
                tool: org.tool.clone(),
            });
        }
    }
    let mut by_server: Vec<TakenBy> = servers
        .into_iter()
        .map(|(name, mut t)| {
            t.server = name.to_string();
            t.rate = clustered(
                &|o| foreign(o).is_some_and(|g| g.server == name) && bucket(o) == 2,
                false,
            );
            let mut counts: Vec<ToolCount> = tools
                .iter()
                .filter(|((srv, _), _)| *srv == name)
                .map(|((_, tool), n)| ToolCount {
                    tool: tool.to_string(),
                    count: *n,
                })
                .collect();
            counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.tool.cmp(&b.tool)));
            t.tools = counts;
            // Tool tasks first, then the no-tool answers.
            t.examples.sort_by_key(|e| e.expected.is_none());
            t
        })
        .collect();
    by_server.sort_by(|a, b| {
        (b.rate.k, b.no_tool)
            .cmp(&(a.rate.k, a.no_tool))
            .then(a.server.cmp(&b.server))
    });
    let total = mine.len() as u64;
    let own_calls = mine
        .iter()
        .filter(|o| o.outcome != Outcome::Error && o.called.is_some() && foreign(o).is_none())
        .count() as u64;
    s.shares.push(ServerShare {
        server: own.to_string(),
        own: true,
        share: Rate::new(own_calls, total),
        accuracy: Some(clustered(&|o| o.outcome == Outcome::Correct, true)),
    });
    let mut others: Vec<ServerShare> = by_server
        .iter()
        .map(|t| ServerShare {
            server: t.server.clone(),
            own: false,
            share: Rate::new(t.tools.iter().map(|c| c.count).sum(), total),
            accuracy: None,
        })
        .collect();
    others.sort_by(|a, b| b.share.k.cmp(&a.share.k).then(a.server.cmp(&b.server)));
    s.shares.extend(others);
    s.by_server = by_server;
    s
}

/// Your catalog alone (`alone`, the same model's outcomes against your tools only) against the
/// belt run (`belt`), paired on task × trial.
pub(crate) fn alone_vs_belt(
    model: &str,
    alone: &[OutcomeLine],
    belt: &[OutcomeLine],
    retrieval_alone: Option<RetrievalScores>,
    retrieval_belt: Option<RetrievalScores>,
    alpha: f64,
) -> AloneVsBelt {
    let c = compare(model, alone, model, belt, alpha);
    let mut losers: Vec<Delta> = c
        .per_tool
        .into_iter()
        .filter(|d| d.only_base > d.only_head)
        .collect();
    losers.sort_by(|a, b| {
        (b.only_base - b.only_head)
            .cmp(&(a.only_base - a.only_head))
            .then(a.label.cmp(&b.label))
    });
    losers.truncate(LOSERS_MAX);
    AloneVsBelt {
        overall: c.overall,
        losers,
        retrieval_alone,
        retrieval_belt,
    }
}

#[cfg(test)]
#[path = "belt_tests.rs"]
mod tests;

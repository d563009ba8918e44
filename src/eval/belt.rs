//! Evaluating your server inside a belt (`--belt`): the run's catalog is yours plus the belt's
//! tools ([`crate::catalog::belt::combine`]); the run file records the belt and where every
//! foreign tool name came from, so scoring and `toolgate report DIR` can say which server's
//! tool took a task without the belt at hand.

use std::collections::BTreeMap;

use crate::catalog::Catalog;
use crate::catalog::belt::Belt;
use crate::catalog::belt::combine::{Combined, Origin, combine};
pub(crate) use crate::record::belt::{BeltInfo, BeltServerInfo};
use crate::record::run::ModelResult;
use crate::score::OutcomeLine;
use crate::score::belt::{alone_vs_belt, score};
use crate::score::retrieval::RetrievalScores;
use crate::tasks::Task;

/// One deterministic model run on your catalog alone, in memory.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct AloneRun {
    pub model: String,
    pub outcomes: Vec<OutcomeLine>,
    pub retrieval: Option<RetrievalScores>,
}

/// The name reports give the server under test: its `serverInfo.name`, else `yours`.
pub(crate) fn own_name(catalog: &Catalog) -> String {
    catalog
        .server
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "yours".to_string())
}

/// Your catalog with every tool of the belt, and the record of it.
pub(crate) fn with_belt(own: &Catalog, belt: &Belt, spec: &str) -> (Combined, BeltInfo) {
    let name = own_name(own);
    let combined = combine(own, &name, belt, &|_, _| true);
    let info = info_of(&combined, spec);
    (combined, info)
}

/// The record of a combined catalog.
pub(crate) fn info_of(combined: &Combined, spec: &str) -> BeltInfo {
    let origin: BTreeMap<String, Origin> = combined
        .origin
        .iter()
        .filter(|(_, o)| o.server != combined.own)
        .map(|(k, o)| (k.clone(), o.clone()))
        .collect();
    let mut servers: Vec<BeltServerInfo> = Vec::new();
    // In catalog order (the belt's order), counted.
    for t in &combined.catalog.tools {
        let Some(o) = origin.get(t.name()) else {
            continue;
        };
        match servers.last_mut() {
            Some(s) if s.name == o.server => s.tools += 1,
            _ => servers.push(BeltServerInfo {
                name: o.server.clone(),
                tools: 1,
            }),
        }
    }
    BeltInfo {
        spec: spec.to_string(),
        own: combined.own.clone(),
        servers,
        skipped: combined.skipped.clone(),
        origin,
        scores: Vec::new(),
    }
}

/// Runs the deterministic models of `specs` over `tasks` against your catalog `own` alone, in
/// memory (no run directory, no provider call: models that are not deterministic are skipped —
/// their comparison is a second run without `--belt`).
pub(crate) async fn alone(
    own: &Catalog,
    tasks: &[Task],
    specs: &[crate::models::ModelSpec],
    opts: &crate::models::ModelOptions,
) -> anyhow::Result<Vec<AloneRun>> {
    let mut out = Vec::new();
    for spec in specs {
        // LLMs cost calls; a replay's decisions were made in the belt.
        if spec.is_llm() || spec.is_replay() {
            continue;
        }
        let model = crate::models::build(spec, own, opts)?;
        if !model.deterministic() {
            continue;
        }
        let name = model.spec();
        let (_, results, outcomes) =
            super::in_memory::in_memory(std::slice::from_ref(&model), own, tasks, 1, None).await?;
        out.push(AloneRun {
            retrieval: results
                .into_iter()
                .next()
                .and_then(|r| r.metrics.retrieval)
                .map(|r| r.overall),
            model: name,
            outcomes,
        });
    }
    Ok(out)
}

/// Scores a belt run (called once its metrics are computed): where each model's decisions
/// went, the comparison with your catalog alone when [`alone`] ran, and the metrics' belt
/// tools folded into one row and column per server.
pub(crate) fn score_run(
    belt: &mut BeltInfo,
    results: &mut [ModelResult],
    tasks: &[Task],
    outcomes: &[OutcomeLine],
    alone: &[AloneRun],
    alpha: f64,
) {
    belt.scores = results
        .iter_mut()
        .map(|r| {
            let mut s = score(&r.model, &belt.own, tasks, outcomes, &belt.origin);
            if let Some(a) = alone.iter().find(|a| a.model == r.model) {
                let mine: Vec<OutcomeLine> = outcomes
                    .iter()
                    .filter(|o| o.model == r.model)
                    .cloned()
                    .collect();
                s.alone = Some(alone_vs_belt(
                    &r.model,
                    &a.outcomes,
                    &mine,
                    a.retrieval.clone(),
                    r.metrics.retrieval.as_ref().map(|x| x.overall.clone()),
                    alpha,
                ));
            }
            crate::score::belt_fold::fold(&mut r.metrics, &belt.origin);
            s
        })
        .collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Tool;
    use crate::catalog::belt::BeltServer;
    use serde_json::json;

    #[test]
    fn the_record_names_every_foreign_tool() {
        let tool = |n: &str| Tool::from_value(json!({"name": n}), "t").unwrap();
        let own = Catalog {
            tools: vec![tool("a")],
            ..Default::default()
        };
        let belt = Belt {
            config: "c".into(),
            servers: vec![
                BeltServer {
                    name: "s1".into(),
                    catalog: Catalog {
                        tools: vec![tool("a"), tool("b")],
                        ..Default::default()
                    },
                },
                BeltServer {
                    name: "s2".into(),
                    catalog: Catalog {
                        tools: vec![tool("c")],
                        ..Default::default()
                    },
                },
            ],
        };
        let (c, info) = with_belt(&own, &belt, "c");
        assert_eq!(c.catalog.tools.len(), 4);
        assert_eq!(info.own, "yours");
        assert_eq!(info.tool_count(), 3);
        assert_eq!(info.server_of("s1__a"), "s1");
        assert_eq!(info.server_of("a"), "yours");
        assert_eq!(
            info.servers,
            vec![
                BeltServerInfo {
                    name: "s1".into(),
                    tools: 2
                },
                BeltServerInfo {
                    name: "s2".into(),
                    tools: 1
                }
            ]
        );
    }
}

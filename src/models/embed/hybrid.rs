//! The hybrid router: BM25's and the embedding router's rankings fused by reciprocal rank
//! (each tool scores Σ 1/(60 + rank) over the two rankings, ranks from 1; a tool BM25 does not
//! touch gets nothing from BM25). The fused best tool is called when at least one router
//! backs it on its own terms — BM25 scores it [`bm25::DEFAULT_MIN_SCORE`] or more, or its
//! cosine reaches the embedding threshold — otherwise the router abstains.
//!
//! Spec: `hybrid:<dir>` or `hybrid@<min cosine>:<dir>`, `<dir>` as for `embed:`.

use std::collections::HashMap;

use super::{BoxFuture, Decision, Embed, Model};
use crate::catalog::Catalog;
use crate::models::bm25::{self, Bm25};

/// The reciprocal-rank constant (Cormack et al. 2009).
pub(crate) const RRF_K: f64 = 60.0;

pub(crate) struct Hybrid {
    bm25: Bm25,
    embed: Embed,
}

impl Hybrid {
    pub(crate) fn from_spec(kind: &str, rest: &str, catalog: &Catalog) -> anyhow::Result<Self> {
        let (min, dir) = super::parse_spec(kind, rest, super::DEFAULT_MIN_COSINE)?;
        Ok(Hybrid {
            bm25: Bm25::new(catalog, bm25::DEFAULT_MIN_SCORE),
            embed: Embed::new(&dir, min, catalog)?,
        })
    }

    pub(crate) fn choose(&self, request: &str) -> Decision {
        let dense = match self.embed.rank(request, usize::MAX) {
            Ok(r) => r,
            Err(e) => {
                return Decision {
                    error: Some(format!("embedding the request failed: {e:#}")),
                    error_kind: Some(crate::models::ErrorKind::Embedding),
                    ..Default::default()
                };
            }
        };
        let lexical: Vec<(&str, f64)> = self
            .bm25
            .rank(request)
            .into_iter()
            .filter(|(_, s)| *s > 0.0)
            .collect();
        let mut fused: HashMap<&str, (f64, f64, f32)> = HashMap::new();
        for (i, (name, cos)) in dense.iter().enumerate() {
            let e = fused.entry(name.as_str()).or_insert((0.0, 0.0, *cos));
            e.0 += 1.0 / (RRF_K + i as f64 + 1.0);
        }
        for (i, (name, score)) in lexical.iter().enumerate() {
            let e = fused.entry(name).or_insert((0.0, 0.0, f32::MIN));
            e.0 += 1.0 / (RRF_K + i as f64 + 1.0);
            e.1 = e.1.max(*score);
        }
        let mut ranked: Vec<(&str, (f64, f64, f32))> = fused.into_iter().collect();
        ranked.sort_by(|a, b| b.1.0.total_cmp(&a.1.0).then(a.0.cmp(b.0)));
        ranked.truncate(crate::score::retrieval::DEPTH);
        let ranking = Some(ranked.iter().map(|(n, _)| n.to_string()).collect());
        match ranked.first() {
            Some((name, (rrf, bm, cos)))
                if *bm >= bm25::DEFAULT_MIN_SCORE || *cos >= self.embed.min() =>
            {
                Decision {
                    tool: Some(name.to_string()),
                    score: Some(*rrf),
                    ranking,
                    ..Default::default()
                }
            }
            best => Decision {
                tool: None,
                score: best.map(|b| b.1.0),
                text: Some(format!(
                    "neither router backs the fused best tool (BM25 {} or more, cosine {} or more){}",
                    bm25::DEFAULT_MIN_SCORE,
                    self.embed.min(),
                    best.map(|(n, (_, bm, cos))| format!(": {n} BM25 {bm:.2}, cosine {cos:.3}"))
                        .unwrap_or_default()
                )),
                ranking,
                ..Default::default()
            },
        }
    }
}

impl Model for Hybrid {
    fn spec(&self) -> String {
        format!("hybrid@{}:{}", self.embed.min(), self.embed.dir())
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn prepare(&self, requests: &[&str]) {
        self.embed.prepare(requests);
    }

    fn decide<'a>(&'a self, task: &'a crate::tasks::Task, _trial: u32) -> BoxFuture<'a, Decision> {
        Box::pin(async move { self.choose(&task.request) })
    }
}

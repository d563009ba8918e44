//! Runs, deltas and comparisons the gate's tests decide on.

use super::super::*;
use crate::record::run::{CatalogInfo, ModelResult, SuiteInfo};
use crate::score::Rate;
use crate::score::compare::Delta;

pub(crate) fn run(status: RunStatus, k: u64, n: u64, errors: u64) -> RunFile {
    let mut metrics = crate::score::Metrics {
        n,
        accuracy: Rate::new(k, n),
        errors,
        error_rate: Rate::new(errors, n),
        ..Default::default()
    };
    if errors > 0 {
        metrics.first_error = Some("request failed: connection refused".into());
    }
    RunFile {
        schema_version: crate::record::run::RUN_SCHEMA.into(),
        toolgate_version: "0".into(),
        created: String::new(),
        finished: None,
        status,
        catalog: CatalogInfo {
            source: "s".into(),
            sha256: "0".into(),
            tools: vec![],
        },
        suite: SuiteInfo {
            path: "t".into(),
            sha256: "0".into(),
            tasks: n as usize,
            by_kind: Default::default(),
            pending: 0,
            stale: 0,
        },
        models: vec![],
        trials: 1,
        split: "all".into(),
        max_steps: 1,
        seed: None,
        base_url: None,
        concurrency: None,
        shard: None,
        only: None,
        reused: None,
        belt: None,
        curve: None,
        ablation: None,
        results: vec![ModelResult {
            model: "bm25".into(),
            metrics,
        }],
        gate: None,
    }
}

pub(super) fn delta(
    base_k: u64,
    head_k: u64,
    n: u64,
    lost: u64,
    gained: u64,
    verdict: Verdict,
) -> Delta {
    let (base, head) = (Rate::new(base_k, n), Rate::new(head_k, n));
    Delta {
        label: "overall".into(),
        delta: head.value - base.value,
        base,
        head,
        only_base: lost,
        only_head: gained,
        p: 1e-6,
        p_adjusted: 1e-6,
        verdict,
    }
}

pub(super) fn comparison(overall: Delta, per_tool: Vec<Delta>) -> ModelComparison {
    ModelComparison {
        base_model: "bm25".into(),
        head_model: "bm25".into(),
        shared: overall.base.n as usize,
        shared_tasks: overall.base.n as usize,
        overall,
        per_tool,
        comparisons: 1,
        alpha: 0.05,
    }
}

//! Before an evaluation: the cost estimate of each LLM (said on stderr before anything is
//! spent) and `--max-cost` turned into a call budget.

use std::collections::BTreeMap;

use super::options::EvalOptions;
use crate::catalog::Catalog;
use crate::models;
use crate::tasks::Task;

/// The cost estimate of each LLM of the run (said on stderr before anything is spent), keyed
/// by the built model's spec, and the model options with `--max-cost` turned into a call
/// budget.
pub(super) fn plan_cost(
    catalog: &Catalog,
    tasks: &[Task],
    opts: &EvalOptions,
) -> anyhow::Result<(
    models::ModelOptions,
    BTreeMap<String, models::cost::Estimate>,
)> {
    let mut model_opts = opts.model.clone();
    let mine = super::shard::select(tasks, opts.shard);
    let requests: Vec<&str> = mine.iter().map(|t| t.request.as_str()).collect();
    let mut estimates = BTreeMap::new();
    let (mut calls, mut usd, mut unpriced) = (0u64, 0f64, Vec::new());
    // The dearest call any model of the run can make: its prompt and a reply as long as the
    // request allows (a reasoning model may use all of it).
    let mut dearest = 0f64;
    for s in opts.models.iter().filter(|s| s.is_llm()) {
        let e = models::cost::estimate(s, catalog, &requests, opts.trials);
        crate::elog!("{}", e.sentence(s.as_str()));
        calls += e.calls;
        match e.usd {
            Some(u) => usd += u,
            None => unpriced.push(s.to_string()),
        }
        if let Some(p) = models::cost::price(s)
            && e.calls > 0
        {
            let prompt = e.prompt_tokens as f64 / e.calls as f64;
            let reply = f64::from(models::wire::MAX_REPLY_TOKENS);
            dearest = dearest.max((prompt * p.input + reply * p.output) / 1_000_000.0);
        }
        // Built models normalise their spec the same way for LLMs (`provider:model`).
        estimates.insert(s.to_string(), e);
    }
    if let Some(max) = opts.max_cost
        && calls > 0
    {
        if !(max.is_finite() && max >= 0.0) {
            anyhow::bail!("--max-cost {max}: give a number of US dollars, 0 or more");
        }
        if !unpriced.is_empty() {
            anyhow::bail!(
                "--max-cost: no list price is known for {}, so a dollar budget cannot be kept; use --max-calls N instead",
                unpriced.join(", ")
            );
        }
        // A call budget no run can overspend: every call priced as the dearest one can be
        // (the longest reply, the dearest model), whatever the steps, retries or mix of
        // models. Per job: each shard of a matrix gets the whole amount.
        if dearest > 0.0 {
            let cap = (max / dearest).floor().min(usize::MAX as f64) as usize;
            let cap = match &model_opts.llm.budget {
                Some(b) => cap.min(b.max()),
                None => cap,
            };
            if (cap as u64) < calls {
                crate::elog!(
                    "--max-cost ${max:.2}: the estimate is ${usd:.2}, and at most {cap} call(s) fit the budget priced at their dearest (${dearest:.5} each: the longest reply allowed); the run stops paying there and is marked partial"
                );
            }
            model_opts.llm.budget = Some(std::sync::Arc::new(models::llm::Budget::new(cap)));
        }
    }
    Ok((model_opts, estimates))
}

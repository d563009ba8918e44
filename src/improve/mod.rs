//! The improve stage: measure description changes against the same tasks, the server
//! untouched. `--mutate` measures a given rewrite; `--fix` asks a model for rewrites and
//! accepts one only when a corrected paired test says it is better.

pub(crate) mod fix;
pub(crate) mod mutate;
mod reply;

use std::path::PathBuf;

/// Settings of the improve stage.
#[derive(Clone, Debug, Default)]
pub(crate) struct ImproveOptions {
    /// Where both arms are written (default `runs/<time>-mutate` or `-fix`).
    pub out: Option<PathBuf>,
    pub trials: u32,
    pub concurrency: usize,
    /// `TOOL:new description` (repeatable).
    pub mutate: Vec<String>,
    /// The model that proposes rewrites.
    pub fixer: Option<String>,
    /// Tools to propose rewrites for (default: the most failing).
    pub fix_tools: Vec<String>,
    pub fix_max: usize,
    /// The policy's significance level for every paired test of the proposals.
    pub alpha: f64,
    /// A change that loses this many tasks (net) of any one tool is rejected, significant or
    /// not: a rewrite that steals its siblings' tasks is not an improvement.
    pub max_loss: u64,
}

/// The default of [`ImproveOptions::max_loss`].
pub(crate) const MAX_LOSS: u64 = 2;

/// Refuses to measure description changes with a model whose endpoint leaves tool
/// descriptions out of the prompt: every result would be "no change", whatever the text.
pub(crate) async fn require_descriptions_reach(
    catalog: &crate::catalog::Catalog,
    specs: &[crate::models::ModelSpec],
    opts: &crate::models::ModelOptions,
) -> anyhow::Result<()> {
    for spec in specs {
        let model = crate::models::build(spec, catalog, opts)?;
        if let Some(p) = model.descriptions_reach("", None).await
            && !p.reach
        {
            let shown = if p.canary == crate::models::Canary::Ignores {
                "tool descriptions do not reach this model on its endpoint (two tools that differ only in their descriptions got the same call with the descriptions swapped)"
            } else {
                "it was not shown that tool descriptions reach this model on its endpoint (the description canary was inconclusive)"
            };
            anyhow::bail!(
                "`{spec}`: {shown}, so a description change cannot be measured with it (the canary called {}); use another endpoint or chat format (e.g. llama.cpp's default template instead of chatml-function-calling)",
                p.picked.join(", then ")
            );
        }
    }
    Ok(())
}

/// `runs/<time>-<what>`.
fn default_dir(what: &str) -> PathBuf {
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        .to_string()
        .replace([':', '-'], "");
    PathBuf::from("runs").join(format!("{stamp}-{what}"))
}

/// The smallest number of tasks that must all flip one way for an exact paired test to reach
/// `alpha` after a Bonferroni correction over `m` comparisons.
pub(crate) fn tasks_needed(m: usize, alpha: f64) -> u64 {
    (1..=200u64)
        .find(|d| {
            crate::score::stats::bonferroni(crate::score::stats::mcnemar_floor(*d), m) < alpha
        })
        .unwrap_or(200)
}

/// Tools a change hurts, as sentences: a description that steals other tools' tasks is not an
/// improvement. A harm is a reason to stop, not a claim to publish: a tool (or the no-tool
/// tasks) that loses `max_loss` tasks more than it gains is hurt whatever the test says, and
/// otherwise each tool's exact paired test is read uncorrected (p < α with more tasks lost
/// than gained): guarding against a harm must not get weaker as the catalog grows, nor wait
/// for a suite large enough to prove it.
pub(crate) fn hurt_tools(c: &crate::score::compare::ModelComparison, max_loss: u64) -> Vec<String> {
    c.per_tool
        .iter()
        .filter(|d| {
            d.only_base > d.only_head
                && (d.p < c.alpha || d.only_base - d.only_head >= max_loss.max(1))
        })
        .map(|d| {
            format!(
                "hurts `{}` ({:.1}% → {:.1}%, {} of its tasks lost, {} gained; exact paired p={:.4})",
                d.label,
                d.base.value * 100.0,
                d.head.value * 100.0,
                d.only_base,
                d.only_head,
                d.p
            )
        })
        .collect()
}

/// A note said before anything is spent when the suite is too small for a change to `tool`
/// to reach significance: `touching` tasks expect or lure toward it.
pub(crate) fn too_small_note(tool: &str, touching: usize, m: usize, alpha: f64) -> Option<String> {
    let need = tasks_needed(m, alpha);
    ((touching as u64) < need).then(|| {
        format!(
            "only {touching} task(s) expect or lure toward `{tool}`: even if every one of them flipped, an exact paired test could not reach α={alpha} after correcting for {m} comparison(s); at least {need} are needed (add tasks with `toolgate generate --only {tool}`)"
        )
    })
}

/// What a verdict of `spec` is about: for a search over the definitions (bm25, toolsearch,
/// embed, hybrid), findability, not which tool a model would choose; nothing for a model.
pub(crate) fn what_it_judges(spec: &str) -> String {
    if crate::record::metric::is_router(spec) {
        format!(
            "note: `{spec}` is a search over the tool definitions: its verdict is about findability@1 (does a search put the right tool first?), not about which tool a model would choose. Measure with a model (-m openai:…, a local server) for that.\n"
        )
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn needed_tasks_grow_with_the_correction() {
        assert_eq!(super::tasks_needed(1, 0.05), 6);
        assert!(super::tasks_needed(14, 0.05) > 6);
        assert!(super::too_small_note("t", 3, 1, 0.05).is_some());
        assert!(super::too_small_note("t", 40, 1, 0.05).is_none());
    }
}

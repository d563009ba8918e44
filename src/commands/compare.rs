//! `toolgate compare RUN_A RUN_B`: deltas on shared tasks with exact paired tests, gated by
//! the regression policy (a significant `Verdict::Worse` exits 1).

use anyhow::bail;

use crate::adapt::rate;
use crate::cli::{CompareArgs, Format};
use crate::gate::Exit;
use crate::gate::{GateInput, GatePolicy, decide};
use crate::out::{print, println};
use crate::record::RunFile;
use crate::record::read_outcomes;
use crate::report::compare::render;
use crate::report::table::Style;
use crate::score::compare::{ModelComparison, compare};

/// Pairs the models of two runs: the only model of each, or models with the same spec.
fn pairs(a: &RunFile, b: &RunFile) -> Vec<(String, String)> {
    if a.models.len() == 1 && b.models.len() == 1 {
        return vec![(a.models[0].spec.clone(), b.models[0].spec.clone())];
    }
    a.models
        .iter()
        .filter(|m| b.models.iter().any(|n| n.spec == m.spec))
        .map(|m| (m.spec.clone(), m.spec.clone()))
        .collect()
}

/// The version of `compare --format json`.
pub(crate) const COMPARE_SCHEMA: &str = "toolgate.compare/v1";

pub(crate) fn run(args: &CompareArgs) -> anyhow::Result<Exit> {
    let policy = GatePolicy {
        alpha: crate::score::stats::alpha("--alpha", args.alpha).map_err(anyhow::Error::msg)?,
        fail_on_regression: args.fail_on_regression,
        max_drop: rate("--max-drop", args.max_drop)?,
        fail_on_tool_regression: args.fail_on_tool_regression,
        ..GatePolicy::default()
    };
    let (a, b) = (RunFile::read(&args.base)?, RunFile::read(&args.head)?);
    let (oa, ob) = (read_outcomes(&args.base)?, read_outcomes(&args.head)?);
    let pairs = pairs(&a, &b);
    if pairs.is_empty() {
        bail!(
            "the two runs share no model to compare (base: {:?}, head: {:?})",
            a.models.iter().map(|m| &m.spec).collect::<Vec<_>>(),
            b.models.iter().map(|m| &m.spec).collect::<Vec<_>>()
        );
    }
    let cmps: Vec<ModelComparison> = pairs
        .iter()
        .map(|(ma, mb)| compare(ma, &oa, mb, &ob, policy.alpha))
        .collect();
    if cmps.iter().all(|c| c.shared == 0) {
        bail!(
            "{} and {} share no tasks: nothing to compare",
            args.base.display(),
            args.head.display()
        );
    }
    match args.format {
        Format::Json => println(&serde_json::to_string_pretty(&serde_json::json!({
            "schema_version": COMPARE_SCHEMA,
            "toolgate_version": env!("CARGO_PKG_VERSION"),
            "base": args.base.display().to_string(),
            "head": args.head.display().to_string(),
            "comparisons": cmps,
        }))?),
        Format::Sarif => bail!(
            "compare has no SARIF output (SARIF carries lint findings, not rate comparisons): use --format json, markdown or terminal"
        ),
        Format::Markdown | Format::Github => print(&render(&a, &b, &cmps, Style::Markdown)),
        _ => print(&render(&a, &b, &cmps, Style::Terminal)),
    }
    let decision = decide(
        &GateInput {
            comparisons: &cmps,
            ..Default::default()
        },
        &policy,
    );
    for n in &decision.notices {
        crate::elog!("toolgate: note: {n}");
    }
    if !decision.passed() {
        crate::elog!("toolgate: gate failed: {}", decision.wording().join("; "));
    }
    Ok(decision.exit())
}

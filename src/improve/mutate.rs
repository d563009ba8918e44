//! `toolgate run … --mutate 'tool:new description'`: measures a description change against
//! the same tasks, the server untouched. Both arms run in the run directory (`baseline/`,
//! `mutated/`); paired trials are compared with an exact McNemar test.

use std::collections::HashSet;
use std::path::Path;

use anyhow::{Context, bail};
use serde_json::Value;

use super::ImproveOptions;
use crate::catalog::Catalog;
use crate::eval::runner::{self, OutcomeLine};
use crate::models::{self, ModelOptions, ModelSpec};
use crate::record::{PredictionWriter, read_predictions};
use crate::score::compare::{ModelComparison, compare};
use crate::tasks::Task;

/// Parses `TOOL:TEXT` against the catalog.
pub(crate) fn parse_mutation(text: &str, catalog: &Catalog) -> anyhow::Result<(String, String)> {
    let Some((tool, desc)) = text.split_once(':') else {
        bail!("--mutate `{text}` is not of the form 'TOOL:new description'");
    };
    let (tool, desc) = (tool.trim(), desc.trim());
    if catalog.tool(tool).is_none() {
        bail!("--mutate: the server has no tool `{tool}`");
    }
    if desc.is_empty() {
        bail!("--mutate {tool}: the new description is empty");
    }
    Ok((tool.to_string(), desc.to_string()))
}

/// A copy of `catalog` with the descriptions of the listed tools replaced.
pub(crate) fn patched(catalog: &Catalog, changes: &[(String, String)]) -> Catalog {
    let mut c = catalog.clone();
    for t in c.tools.iter_mut() {
        if let Some((_, d)) = changes.iter().find(|(n, _)| n == t.name()) {
            t.raw.insert("description".into(), Value::String(d.clone()));
        }
    }
    c.source = format!("{} (mutated)", catalog.source);
    c
}

/// Runs `specs` over `tasks` against `catalog` into `dir`, resuming what is there, and
/// returns the graded outcomes.
pub(crate) async fn arm(
    dir: &Path,
    catalog: &Catalog,
    tasks: &[Task],
    specs: &[ModelSpec],
    opts: &ModelOptions,
    trials: u32,
    concurrency: usize,
) -> anyhow::Result<(Vec<String>, Vec<OutcomeLine>)> {
    std::fs::create_dir_all(dir).with_context(|| format!("could not create {}", dir.display()))?;
    let built: Vec<Box<dyn models::Model>> = specs
        .iter()
        .map(|s| models::build(s, catalog, opts))
        .collect::<anyhow::Result<_>>()?;
    let per_model: Vec<u32> = built
        .iter()
        .map(|m| if m.deterministic() { 1 } else { trials })
        .collect();
    let done: HashSet<(String, String, u32)> = read_predictions(dir)?
        .into_iter()
        .map(|p| (p.model, p.task_id, p.trial))
        .collect();
    let mut writer = PredictionWriter::open(dir)?;
    let ran = runner::execute(
        &runner::Plan {
            models: &built,
            trials: &per_model,
            tasks,
            done: &done,
            concurrency: concurrency.max(1) * built.len(),
        },
        &mut writer,
        None,
    )
    .await?;
    runner::say_skipped(ran.skipped);
    let predictions = read_predictions(dir)?;
    let specs: Vec<String> = built.iter().map(|m| m.spec()).collect();
    let (_, outcomes) = runner::score(catalog, tasks, &specs, &predictions);
    Ok((specs, outcomes))
}

pub(crate) fn render(
    changes: &[(String, String)],
    catalog: &Catalog,
    cmps: &[ModelComparison],
) -> String {
    let mut out = String::new();
    for (tool, desc) in changes {
        let old = catalog
            .tool(tool)
            .and_then(|t| t.description())
            .unwrap_or("");
        out.push_str(&format!(
            "mutation of `{tool}`:\n  before: {old}\n  after:  {desc}\n"
        ));
    }
    for c in cmps {
        out.push_str(&format!(
            "\n{}: {} paired trials, exact McNemar, Bonferroni over {}\n",
            c.base_model, c.shared, c.comparisons
        ));
        for d in std::iter::once(&c.overall).chain(&c.per_tool) {
            out.push_str(&format!(
                "  {:<24} n={:<4} {:>5.1}% → {:>5.1}%  ({}{:.1} pts; only before {}, only after {}; p={:.3}) {}\n",
                d.label,
                d.base.n,
                d.base.value * 100.0,
                d.head.value * 100.0,
                if d.delta >= 0.0 { "+" } else { "−" },
                d.delta.abs() * 100.0,
                d.only_base,
                d.only_head,
                d.p_adjusted,
                d.verdict
            ));
        }
    }
    out
}

pub(crate) async fn run(
    args: &ImproveOptions,
    catalog: &Catalog,
    tasks: &[Task],
    specs: &[ModelSpec],
    opts: &ModelOptions,
) -> anyhow::Result<String> {
    let changes: Vec<(String, String)> = args
        .mutate
        .iter()
        .map(|m| parse_mutation(m, catalog))
        .collect::<anyhow::Result<_>>()?;
    let touched: HashSet<&str> = changes.iter().map(|(t, _)| t.as_str()).collect();
    let selected: Vec<Task> = tasks
        .iter()
        .filter(|t| {
            t.expected_tool().is_some_and(|e| touched.contains(e))
                || t.lure.as_deref().is_some_and(|l| touched.contains(l))
        })
        .cloned()
        .collect();
    if selected.is_empty() {
        bail!(
            "no task expects or lures toward {}: generate some with `toolgate generate --only TOOL`",
            changes
                .iter()
                .map(|c| c.0.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| super::default_dir("mutate"));
    // Every task is measured: a description that pulls other tools' tasks toward itself must
    // show as the loss it is. Said first: whether the suite can show a change at all.
    let groups = 1 + tasks
        .iter()
        .map(|t| t.expected_tool().unwrap_or("(no tool)"))
        .collect::<HashSet<_>>()
        .len();
    let mut preface = String::new();
    for (tool, _) in &changes {
        let touching = tasks
            .iter()
            .filter(|t| {
                t.expected_tool() == Some(tool.as_str()) || t.lure.as_deref() == Some(tool.as_str())
            })
            .count();
        if let Some(n) = super::too_small_note(tool, touching, groups, args.alpha) {
            crate::elog!("toolgate: note: {n}");
            preface.push_str(&format!("note: {n}\n"));
        }
    }
    super::require_descriptions_reach(catalog, specs, opts).await?;
    let mutated = patched(catalog, &changes);
    let (names, base) = arm(
        &dir.join("baseline"),
        catalog,
        tasks,
        specs,
        opts,
        args.trials,
        args.concurrency,
    )
    .await?;
    let (_, head) = arm(
        &dir.join("mutated"),
        &mutated,
        tasks,
        specs,
        opts,
        args.trials,
        args.concurrency,
    )
    .await?;
    let cmps: Vec<ModelComparison> = names
        .iter()
        .map(|s| compare(s, &base, s, &head, args.alpha))
        .collect();
    let mut text = preface;
    for s in &names {
        text.push_str(&super::what_it_judges(s));
    }
    text.push_str(&render(&changes, catalog, &cmps));
    for c in &cmps {
        let hurt = super::hurt_tools(c, args.max_loss);
        text.push_str(&if !hurt.is_empty() {
            format!(
                "\nverdict for {}: REJECTED — {}\n",
                c.head_model,
                hurt.join("; ")
            )
        } else if c.overall.verdict == crate::score::compare::Verdict::Better {
            format!(
                "\nverdict for {}: better on the whole suite, no tool significantly worse\n",
                c.head_model
            )
        } else {
            format!(
                "\nverdict for {}: not shown to be better on the whole suite ({})\n",
                c.head_model, c.overall.verdict
            )
        });
    }
    crate::out::write_shown(&dir.join("mutation.txt"), &text)?;
    crate::out::write_shown(
        &dir.join("mutation.json"),
        &serde_json::to_string_pretty(&cmps)?,
    )?;
    crate::elog!(
        "{} task(s) × {} model(s) per arm; results in {}",
        tasks.len(),
        specs.len(),
        dir.display()
    );
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Tool;
    use serde_json::json;

    #[test]
    fn patches_only_the_named_description() {
        let c = Catalog {
            tools: vec![
                Tool::from_value(
                    json!({"name": "a", "description": "old", "inputSchema": {"type": "object"}}),
                    "t",
                )
                .unwrap(),
                Tool::from_value(json!({"name": "b", "description": "keep"}), "t").unwrap(),
            ],
            ..Default::default()
        };
        let m = parse_mutation("a: Use this when …", &c).unwrap();
        let p = patched(&c, &[m]);
        assert_eq!(p.tools[0].description(), Some("Use this when …"));
        assert_eq!(p.tools[0].input_schema(), c.tools[0].input_schema());
        assert_eq!(p.tools[1].raw, c.tools[1].raw);
        assert!(parse_mutation("zzz:x", &c).is_err());
        assert!(parse_mutation("nocolon", &c).is_err());
    }
}

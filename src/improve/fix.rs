//! `toolgate run … --fix`: the measured fix loop. For each failing tool a model proposes a
//! rewrite of its description (at most 25 words, enforced here); each proposal is measured on
//! the dev split against the same tasks (paired, exact McNemar), accepted only when it is
//! significantly better after a Bonferroni correction across all proposals, and then
//! confirmed on the held-out split. Accepted and rejected proposals are both reported.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::bail;
use serde::Serialize;

use super::ImproveOptions;
use super::mutate::{arm, patched};
use super::reply::{not_a_description, proposed};
use crate::catalog::Catalog;
use crate::models::{self, ModelOptions, ModelSpec};
use crate::score::Outcome as Graded;
use crate::score::compare::{ModelComparison, compare};
use crate::score::stats::bonferroni;
use crate::tasks::{Split, Task};

/// The longest description a proposal may have.
pub const MAX_WORDS: usize = 25;

const FIXER_SYSTEM: &str = "You improve MCP tool descriptions so that AI assistants pick the right tool. Reply with the new description only.";

#[derive(Clone, Debug, Serialize)]
pub struct Proposal {
    pub tool: String,
    pub before: String,
    pub after: String,
    pub dev_before: f64,
    pub dev_after: f64,
    pub dev_n: u64,
    pub p: f64,
    pub p_corrected: f64,
    pub heldout: Option<(f64, f64, u64)>,
    pub accepted: bool,
    pub reason: String,
    /// The fixer's reply when it was refused unmeasured (not a description, or too long), cut
    /// to 300 characters: what was refused, shown beside why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// How a tool failed on the dev split.
#[derive(Clone, Debug, Default)]
struct Failing {
    count: usize,
    /// Tools chosen instead.
    chosen: Vec<String>,
    /// Up to three requests it missed.
    examples: Vec<String>,
}

/// Runs `tasks` against the catalog as served (`<dir>/<label>-base`) and with the proposal
/// (`<dir>/<label>-fix`), and compares the paired trials.
#[allow(clippy::too_many_arguments)]
async fn measure(
    dir: &Path,
    label: &str,
    catalog: &Catalog,
    mutated: &Catalog,
    tasks: &[Task],
    spec: &ModelSpec,
    opts: &ModelOptions,
    args: &ImproveOptions,
) -> anyhow::Result<ModelComparison> {
    let one = [spec.clone()];
    let (names, base) = arm(
        &dir.join(format!("{label}-base")),
        catalog,
        tasks,
        &one,
        opts,
        args.trials,
        args.concurrency,
    )
    .await?;
    let (_, head) = arm(
        &dir.join(format!("{label}-fix")),
        mutated,
        tasks,
        &one,
        opts,
        args.trials,
        args.concurrency,
    )
    .await?;
    let name = names.first().cloned().unwrap_or_else(|| spec.to_string());
    Ok(compare(&name, &base, &name, &head, args.alpha))
}

fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

/// The tasks of `split` that expect `tool` or lure toward it.
fn tasks_for(tasks: &[Task], tool: &str, split: Split) -> Vec<Task> {
    tasks
        .iter()
        .filter(|t| {
            t.split == split && (t.expected_tool() == Some(tool) || t.lure.as_deref() == Some(tool))
        })
        .cloned()
        .collect()
}

pub async fn run(
    args: &ImproveOptions,
    catalog: &Catalog,
    tasks: &[Task],
    specs: &[ModelSpec],
    opts: &ModelOptions,
) -> anyhow::Result<String> {
    let fixer_spec = match (&args.fixer, specs.iter().find(|s| s.is_llm())) {
        (Some(f), _) => f.clone(),
        (None, Some(s)) => s.to_string(),
        (None, None) => {
            bail!("--fix needs a model to propose rewrites: pass --fixer <provider>:<model>")
        }
    };
    super::require_descriptions_reach(catalog, specs, opts).await?;
    let fixer = models::build_llm(&fixer_spec, catalog, opts)?;
    let Some(spec) = specs.first() else {
        bail!("--fix needs -m MODEL to measure with")
    };
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| super::default_dir("fix"));
    let dev: Vec<Task> = tasks
        .iter()
        .filter(|t| t.split == Split::Dev)
        .cloned()
        .collect();
    if dev.is_empty() {
        bail!("--fix measures on the dev split, and the task file has no dev tasks");
    }
    // Nothing is spent — no baseline, no fixer call — on a tool whose dev tasks could not show
    // a change even if every one of them flipped.
    let m = if args.fix_tools.is_empty() {
        args.fix_max.max(1)
    } else {
        args.fix_tools.len()
    };
    let small = |tool: &str| {
        super::too_small_note(tool, tasks_for(&dev, tool, Split::Dev).len(), m, args.alpha)
    };
    let candidates: Vec<&str> = if args.fix_tools.is_empty() {
        catalog.tools.iter().map(|t| t.name()).collect()
    } else {
        args.fix_tools.iter().map(String::as_str).collect()
    };
    if let Some(missing) = candidates.iter().find(|t| catalog.tool(t).is_none()) {
        bail!("--fix-tool {missing}: the server has no such tool")
    }
    if candidates.iter().all(|t| small(t).is_some()) {
        let need = super::tasks_needed(m, args.alpha);
        bail!(
            "--fix: no tool has the {need} dev task(s) (expecting it or luring toward it) a rewrite needs to be shown better after correcting for {m} proposal(s); nothing was run. Add tasks (`toolgate generate --only TOOL`) or name fewer tools with --fix-tool"
        );
    }
    let one = [spec.clone()];
    let (_, base) = arm(
        &dir.join("baseline"),
        catalog,
        &dev,
        &one,
        opts,
        args.trials,
        args.concurrency,
    )
    .await?;
    // Failing tools, most failures first.
    let mut failures: BTreeMap<String, Failing> = BTreeMap::new();
    for o in &base {
        if let Some(exp) = &o.expected
            && o.outcome != Graded::Correct
        {
            let e = failures.entry(exp.clone()).or_default();
            e.count += 1;
            if let Some(c) = &o.called {
                e.chosen.push(c.clone());
            }
            if let Some(t) = dev.iter().find(|t| t.id == o.task_id)
                && e.examples.len() < 3
            {
                e.examples.push(t.request.clone());
            }
        }
    }
    let mut order: Vec<(&String, &Failing)> = failures.iter().collect();
    order.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(b.0)));
    let chosen: Vec<String> = if args.fix_tools.is_empty() {
        order
            .iter()
            .filter(|(t, _)| small(t).is_none())
            .take(args.fix_max)
            .map(|(t, _)| (*t).clone())
            .collect()
    } else {
        args.fix_tools.clone()
    };
    let mut proposals = Vec::new();
    for tool in &chosen {
        let Some(t) = catalog.tool(tool) else {
            bail!("--fix-tool {tool}: the server has no such tool")
        };
        let before = t.description().unwrap_or("").to_string();
        let Failing {
            count: n,
            chosen: confused,
            examples,
        } = failures.get(tool).cloned().unwrap_or_default();
        let mut confused = confused;
        confused.sort();
        confused.dedup();
        let prompt = format!(
            "Tool `{tool}` has the description: \"{before}\".\nIn {n} test requests the assistant did not pick it{}. Requests it missed: {}.\nWrite a better description of at most {MAX_WORDS} words: what it does, when to use it, and which sibling to use instead when relevant.",
            if confused.is_empty() {
                String::new()
            } else {
                format!(" (it chose {} instead)", confused.join(", "))
            },
            examples
                .iter()
                .map(|e| format!("\"{e}\""))
                .collect::<Vec<_>>()
                .join("; ")
        );
        let mut p = Proposal {
            tool: tool.clone(),
            before,
            after: String::new(),
            dev_before: 0.0,
            dev_after: 0.0,
            dev_n: 0,
            p: 1.0,
            p_corrected: 1.0,
            heldout: None,
            accepted: false,
            reason: String::new(),
            refused: None,
        };
        if let Some(note) = small(tool) {
            p.reason = format!("not measured, nothing spent: {note}");
            proposals.push(p);
            continue;
        }
        match fixer.complete(FIXER_SYSTEM, &prompt, 0).await {
            Err(e) => p.reason = format!("the fixer failed: {e}"),
            Ok(text) => {
                p.after = proposed(&text);
                let shown = || text.trim().chars().take(300).collect::<String>();
                if let Some(why) = not_a_description(&p.after) {
                    p.reason = format!("rejected unmeasured: {why}");
                    p.refused = Some(shown());
                    p.after.clear();
                } else if words(&p.after) > MAX_WORDS {
                    p.reason = format!(
                        "rejected unmeasured: {} words, over the {MAX_WORDS}-word limit",
                        words(&p.after)
                    );
                    p.refused = Some(shown());
                }
            }
        }
        proposals.push(p);
    }
    let measured = proposals.iter().filter(|p| p.reason.is_empty()).count();
    let mut notes: Vec<String> = Vec::new();
    for p in proposals.iter_mut().filter(|p| p.reason.is_empty()) {
        // Every dev task is measured, so a rewrite that steals other tools' tasks shows.
        let touching = tasks_for(&dev, &p.tool, Split::Dev).len();
        if let Some(n) = super::too_small_note(&p.tool, touching, measured, args.alpha) {
            crate::elog!("toolgate: note: {n}");
            notes.push(n);
        }
        let subset = dev.clone();
        let change = [(p.tool.clone(), p.after.clone())];
        let mutated = patched(catalog, &change);
        let c = measure(
            &dir,
            &format!("dev-{}", p.tool),
            catalog,
            &mutated,
            &subset,
            spec,
            opts,
            args,
        )
        .await?;
        p.dev_before = c.overall.base.value;
        p.dev_after = c.overall.head.value;
        p.dev_n = c.overall.base.n;
        p.p = c.overall.p;
        p.p_corrected = bonferroni(c.overall.p, measured);
        let hurt = super::hurt_tools(&c, args.max_loss);
        if !hurt.is_empty() {
            p.reason = format!("rejected: {}", hurt.join("; "));
        } else if p.p_corrected < args.alpha && c.overall.only_head > c.overall.only_base {
            let held: Vec<Task> = tasks
                .iter()
                .filter(|t| t.split == Split::Heldout)
                .cloned()
                .collect();
            if held.is_empty() {
                p.reason =
                    "significantly better on dev, but there are no held-out tasks to confirm it"
                        .into();
            } else {
                let hc = measure(
                    &dir,
                    &format!("heldout-{}", p.tool),
                    catalog,
                    &mutated,
                    &held,
                    spec,
                    opts,
                    args,
                )
                .await?;
                p.heldout = Some((
                    hc.overall.base.value,
                    hc.overall.head.value,
                    hc.overall.base.n,
                ));
                let held_hurt = super::hurt_tools(&hc, args.max_loss);
                if !held_hurt.is_empty() {
                    p.reason = format!("better on dev but on held-out it {}", held_hurt.join("; "));
                } else if hc.overall.head.value >= hc.overall.base.value {
                    p.accepted = true;
                    p.reason = "significantly better on dev and not worse on held-out".into();
                } else {
                    p.reason = "better on dev but worse on held-out: not confirmed".into();
                }
            }
        } else {
            p.reason =
                format!("not significantly better after the correction for {measured} proposal(s)");
        }
    }
    let mut text = format!(
        "fix loop: {} proposal(s) for `{spec}` by `{fixer_spec}`; {} accepted (each measured on every dev task)\n",
        proposals.len(),
        proposals.iter().filter(|p| p.accepted).count()
    );
    for n in &notes {
        text.push_str(&format!("note: {n}\n"));
    }
    text.push_str(&super::what_it_judges(spec.as_str()));
    for p in proposals.iter().filter(|p| p.dev_n == 0) {
        // Not measured: what was refused and why, never an empty rate.
        text.push_str(&format!(
            "\nrejected `{}` — {}\n  before: {}\n{}",
            p.tool,
            p.reason,
            p.before,
            match &p.refused {
                Some(r) => format!("  the fixer's reply: {r:?}\n"),
                None => String::new(),
            }
        ));
    }
    for p in proposals.iter().filter(|p| p.dev_n > 0) {
        text.push_str(&format!(
            "\n{} `{}` — {}\n  before: {}\n  after:  {}\n  dev: {:.1}% → {:.1}% (n={}), p={:.4}, corrected p={:.4}{}\n",
            if p.accepted { "ACCEPTED" } else { "rejected" },
            p.tool,
            p.reason,
            p.before,
            p.after,
            p.dev_before * 100.0,
            p.dev_after * 100.0,
            p.dev_n,
            p.p,
            p.p_corrected,
            p.heldout.map(|(b, a, n)| format!("; held-out: {:.1}% → {:.1}% (n={n})", b * 100.0, a * 100.0)).unwrap_or_default()
        ));
    }
    crate::out::write_shown(&dir.join("fix.txt"), &text)?;
    crate::out::write_shown(
        &dir.join("fix.json"),
        &serde_json::to_string_pretty(&proposals)?,
    )?;
    Ok(text)
}

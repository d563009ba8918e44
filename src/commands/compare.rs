//! `toolgate compare RUN_A RUN_B`: deltas on shared tasks with exact paired tests.

use std::path::Path;

use anyhow::{Context, bail};

use super::Exit;
use crate::cli::{CompareArgs, Format};
use crate::eval::RunFile;
use crate::eval::runner::{OUTCOMES_FILE, OutcomeLine};
use crate::score::compare::{Delta, ModelComparison, compare};

pub fn read_outcomes(dir: &Path) -> anyhow::Result<Vec<OutcomeLine>> {
    let path = dir.join(OUTCOMES_FILE);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "could not read {} (is {} a finished run?)",
            path.display(),
            dir.display()
        )
    })?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).with_context(|| format!("{}:{}", path.display(), i + 1))
        })
        .collect()
}

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

fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

fn signed(v: f64) -> String {
    format!(
        "{}{:.1} pts",
        if v >= 0.0 { "+" } else { "−" },
        v.abs() * 100.0
    )
}

fn row(d: &Delta, md: bool) -> String {
    let cells = [
        if md {
            format!("`{}`", d.label)
        } else {
            d.label.clone()
        },
        d.base.n.to_string(),
        pct(d.base.value),
        pct(d.head.value),
        signed(d.delta),
        format!("{}/{}", d.only_base, d.only_head),
        if d.p_adjusted < 0.001 {
            format!("{:.1e}", d.p_adjusted)
        } else {
            format!("{:.3}", d.p_adjusted)
        },
        d.verdict.to_string(),
    ];
    if md {
        format!("| {} |\n", cells.join(" | "))
    } else {
        format!(
            "{:<28} {:>4} {:>7} {:>7} {:>11} {:>7} {:>7}  {}\n",
            cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[7]
        )
    }
}

/// Notes on what makes the comparison shaky (other catalog, other suite, partial runs).
pub fn caveats(a: &RunFile, b: &RunFile) -> Vec<String> {
    let mut out = Vec::new();
    if a.suite.sha256 != b.suite.sha256 {
        out.push(format!(
            "the runs used different task suites ({} vs {}): only the tasks both ran are compared",
            a.suite.path, b.suite.path
        ));
    }
    if a.catalog.sha256 != b.catalog.sha256 {
        out.push(
            "the tool catalogs differ (expected: a description change is what is being measured)"
                .into(),
        );
    }
    for (name, r) in [("base", a), ("head", b)] {
        if r.status != crate::eval::run_file::RunStatus::Complete {
            out.push(format!(
                "the {name} run is {}: its numbers are not final",
                r.status
            ));
        }
    }
    out
}

pub fn render(a: &RunFile, b: &RunFile, cmps: &[ModelComparison], md: bool) -> String {
    let mut out = String::new();
    if md {
        out.push_str("### toolgate compare\n\n");
    }
    for c in caveats(a, b) {
        out.push_str(&format!("{}note: {c}\n", if md { "> " } else { "" }));
    }
    for c in cmps {
        out.push_str(&format!(
            "\n{}{} → {} on {} shared task×trial pairs; exact McNemar, Bonferroni over {} comparisons, α = {}\n\n",
            if md { "**" } else { "" },
            c.base_model,
            c.head_model,
            c.shared,
            c.comparisons,
            c.alpha
        ));
        if md {
            out.push_str("| | n | before | after | Δ | only before/only after | p (corrected) | verdict |\n|---|---:|---:|---:|---:|---:|---:|---|\n");
        } else {
            out.push_str(&format!(
                "{:<28} {:>4} {:>7} {:>7} {:>11} {:>7} {:>7}  verdict\n",
                "", "n", "before", "after", "Δ", "b/c", "p adj"
            ));
        }
        out.push_str(&row(&c.overall, md));
        for d in &c.per_tool {
            out.push_str(&row(d, md));
        }
        if c.shared < 30 {
            out.push_str(&format!(
                "\nWith {} shared pairs, only large differences can reach significance.\n",
                c.shared
            ));
        }
    }
    out
}

pub fn run(args: &CompareArgs) -> anyhow::Result<Exit> {
    if !(0.0..1.0).contains(&args.alpha) || args.alpha <= 0.0 {
        bail!("--alpha must be between 0 and 1");
    }
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
        .map(|(ma, mb)| compare(ma, &oa, mb, &ob, args.alpha))
        .collect();
    if cmps.iter().all(|c| c.shared == 0) {
        bail!(
            "{} and {} share no tasks: nothing to compare",
            args.base.display(),
            args.head.display()
        );
    }
    match args.format {
        Format::Json => crate::out::println(&(serde_json::to_string_pretty(&cmps)?)),
        Format::Markdown | Format::Github => crate::out::print(&(render(&a, &b, &cmps, true))),
        _ => crate::out::print(&(render(&a, &b, &cmps, false))),
    }
    Ok(Exit::Pass)
}

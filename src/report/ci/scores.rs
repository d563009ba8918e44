//! The score sections: before → after with paired tests, and the tools whose scores moved.

use super::CiReport;
use super::cells::{p_value, signed_pts};
use crate::report::markdown::code;
use crate::score::Rate;
use crate::score::compare::{Delta, Verdict};

fn rate_cell(r: &Rate) -> String {
    r.show()
}

fn verdict_cell(d: &Delta) -> String {
    let mark = match d.verdict {
        Verdict::Better => format!("🟢 {}", d.verdict),
        Verdict::Worse => format!("🔴 {}", d.verdict),
        other => other.to_string(),
    };
    format!(
        "{mark} (p={}; {} lost, {} gained)",
        p_value(d.p_adjusted),
        d.only_base,
        d.only_head
    )
}

pub(super) fn scores(r: &CiReport, out: &mut String) {
    let cmp = r.comparison.as_ref().filter(|c| c.comparable);
    if let Some(c) = cmp {
        out.push_str("| model | base | this change | Δ | paired test (corrected) |\n|---|---|---|---:|---|\n");
        for m in &c.models {
            let d = &m.overall;
            out.push_str(&format!(
                "| {} | {} | **{}** | **{}** | {} |\n",
                code(&m.head_model),
                rate_cell(&d.base),
                rate_cell(&d.head),
                signed_pts(d.delta),
                verdict_cell(d)
            ));
        }
        if c.models.iter().any(|m| m.shared_tasks < 30) {
            out.push_str("\nFew shared tasks: only large differences can reach significance.\n");
        }
    } else {
        out.push_str(&format!(
            "| model | {} | tasks | failures (confused / missed / false call / error) |\n|---|---|---:|---|\n",
            crate::record::metric::name_of_all(r.run.results.iter().map(|m| m.model.as_str()))
        ));
        for m in &r.run.results {
            let x = &m.metrics;
            out.push_str(&format!(
                "| {} | **{}** | {} | {} / {} / {} / {} |\n",
                code(&m.model),
                rate_cell(&x.accuracy),
                x.n,
                x.confusions,
                x.missed_calls,
                x.false_calls,
                x.errors
            ));
        }
    }
    for info in &r.run.models {
        if let Some(l) = crate::report::run::stopped_line(info) {
            out.push_str(&format!(
                "\n{}: {}\n",
                code(&info.spec),
                crate::report::markdown::message(&l)
            ));
        }
        if let Some(l) = crate::report::run::probe_line(info) {
            out.push_str(&format!(
                "\n{}: {}\n",
                code(&info.spec),
                crate::report::markdown::message(&l)
            ));
        }
    }
    out.push('\n');
}

/// The mark and test cell of one compact per-tool row: a significant change leads with its
/// colour and word, anything else shows only its corrected p.
fn compact_test(d: &Delta) -> String {
    match d.verdict {
        Verdict::Better => format!("🟢 **better** p={}", p_value(d.p_adjusted)),
        Verdict::Worse => format!("🔴 **worse** p={}", p_value(d.p_adjusted)),
        _ => format!("p={}", p_value(d.p_adjusted)),
    }
}

/// The tools whose outcomes changed, one compact row each (significant ones first, then by
/// size of the change), with one legend under the table instead of words in every row.
pub(super) fn per_tool(r: &CiReport, out: &mut String) {
    let Some(c) = r.comparison.as_ref().filter(|c| c.comparable) else {
        return;
    };
    for m in &c.models {
        let mut moved: Vec<&Delta> = m
            .per_tool
            .iter()
            .filter(|d| d.only_base + d.only_head > 0)
            .collect();
        if moved.is_empty() {
            continue;
        }
        moved.sort_by(|a, b| {
            let sig = |d: &Delta| !d.verdict.is_significant();
            sig(a)
                .cmp(&sig(b))
                .then(b.delta.abs().total_cmp(&a.delta.abs()))
                .then(a.label.cmp(&b.label))
        });
        out.push_str(&format!(
            "### Tools whose scores moved{}\n\n| tool | n | base → this change | Δ | lost / gained | paired test |\n|---|---:|---|---:|---:|---|\n",
            if c.models.len() > 1 {
                format!(" ({})", code(&m.head_model))
            } else {
                String::new()
            }
        ));
        for d in moved.iter().take(20) {
            out.push_str(&format!(
                "| {} | {} | {:.1}% → {:.1}% | {} | {} / {} | {} |\n",
                code(&d.label),
                d.base.n,
                d.base.value * 100.0,
                d.head.value * 100.0,
                signed_pts(d.delta),
                d.only_base,
                d.only_head,
                compact_test(d)
            ));
        }
        if moved.len() > 20 {
            out.push_str(&format!(
                "\n…and {} more in report.html.\n",
                moved.len() - 20
            ));
        }
        let few = moved
            .iter()
            .filter(|d| d.verdict == Verdict::TooFewPairs)
            .count();
        // With several trials a task is discordant when its share of correct trials moved.
        let several = r.run.models.iter().any(|i| i.trials > 1);
        out.push_str(&format!(
            "\n*lost / gained*: tasks only the base / only this change got right{}; *p*: exact \
             paired test (McNemar), Bonferroni-corrected over {} comparisons; 🔴/🟢 mark a \
             significant change.{}",
            if several {
                " (with several trials: tasks whose share of correct trials fell / rose)"
            } else {
                ""
            },
            m.comparisons,
            if few > 0 {
                format!(
                    " {few} of these rows changed on too few tasks for any result to reach \
                     significance."
                )
            } else {
                String::new()
            }
        ));
        let unchanged = m.per_tool.len() - moved.len();
        if unchanged > 0 {
            out.push_str(&format!(
                " {unchanged} other tool(s) scored exactly as on the base."
            ));
        }
        out.push_str("\n\n");
    }
}

/// What the suite measures: the ablation check, right under the scores it qualifies.
pub(super) fn ablation(r: &CiReport, out: &mut String) {
    out.push_str(&crate::report::run::ablation::markdown(&r.run));
}

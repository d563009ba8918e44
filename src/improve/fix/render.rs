//! The fix loop's report in words (fix.txt, and what `run --fix` prints): each proposal,
//! accepted or not and why, with its measured rates; refused ones with what was refused.

use super::types::Proposal;
use crate::models::ModelSpec;

/// The report of `proposals` for `spec`, proposed by `fixer_spec`.
pub(super) fn render(
    proposals: &[Proposal],
    notes: &[String],
    spec: &ModelSpec,
    fixer_spec: &str,
) -> String {
    let mut text = format!(
        "fix loop: {} proposal(s) for `{spec}` by `{fixer_spec}`; {} accepted (each measured on every dev task)\n",
        proposals.len(),
        proposals.iter().filter(|p| p.accepted).count()
    );
    for n in notes {
        text.push_str(&format!("note: {n}\n"));
    }
    text.push_str(&crate::improve::what_it_judges(spec.as_str()));
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
        text.push_str(&measured(p));
    }
    text
}

/// A measured proposal's paragraph.
fn measured(p: &Proposal) -> String {
    format!(
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
        p.heldout
            .map(|(b, a, n)| format!("; held-out: {:.1}% → {:.1}% (n={n})", b * 100.0, a * 100.0))
            .unwrap_or_default()
    )
}

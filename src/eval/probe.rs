//! The description probe of a run: does the endpoint put tool descriptions in the prompt?

use crate::models;
use crate::record::run::RunFile;
use crate::tasks::Task;

/// Once per LLM and run: do descriptions reach the model on this endpoint at all? The
/// behavioural canary ([`models::Canary`]) answers, two requests; the `usage` an endpoint
/// reports is kept for the record but decides nothing.
pub(super) async fn probe_descriptions(
    run: &mut RunFile,
    built: &[Box<dyn models::Model>],
    tasks: &[Task],
    predictions: &[crate::record::PredictionLine],
) {
    for (info, m) in run.models.iter_mut().zip(built) {
        if info.deterministic || info.descriptions.is_some() {
            continue;
        }
        let mine = predictions
            .iter()
            .filter(|p| p.model == info.spec && p.decision.error.is_none());
        let Some((request, tokens)) = mine.clone().find_map(|p| {
            let t = tasks.iter().find(|t| t.id == p.task_id)?;
            Some((t.request.clone(), p.decision.prompt_tokens))
        }) else {
            continue;
        };
        if let Some(p) = m.descriptions_reach(&request, tokens).await {
            let note = match p.canary {
                models::Canary::Follows => None,
                models::Canary::Ignores => Some(format!(
                    "tool descriptions do not reach this model: two tools that differ only in their descriptions, asked the same request with the descriptions swapped, got the same call both times (`{}`), so this endpoint (its chat format or template) leaves descriptions out. Its scores say nothing about descriptions, and toolgate refuses description comparisons (--mutate, --fix, a base comparison) on it",
                    p.picked.first().map(String::as_str).unwrap_or("")
                )),
                models::Canary::Inconclusive => Some(format!(
                    "could not tell whether tool descriptions reach this model: the description canary got {} (as written, then swapped) instead of the described tool both times; --mutate and --fix are refused on it",
                    p.picked
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                )),
            };
            if let Some(note) = note {
                eprintln!("toolgate: WARNING: {}: {note}", info.spec);
                info.notes.push(note);
            }
            info.descriptions = Some(p);
        }
    }
}

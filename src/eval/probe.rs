//! The description probe of a run: does the endpoint put tool descriptions in the prompt?

use crate::models;
use crate::record::run::RunFile;
use crate::tasks::Task;

/// Once per LLM and run: do descriptions reach the model on this endpoint at all? One
/// decision's request is sent again with one description made longer; the same prompt tokens
/// mean the endpoint leaves descriptions out. Needs an endpoint that reports `usage`.
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
        let Some((request, tokens)) = predictions
            .iter()
            .filter(|p| p.model == info.spec && p.decision.error.is_none())
            .filter(|p| p.decision.steps.len() <= 1)
            .find_map(|p| {
                let t = tasks.iter().find(|t| t.id == p.task_id)?;
                Some((t.request.clone(), p.decision.prompt_tokens?))
            })
        else {
            continue;
        };
        if let Some(p) = m.descriptions_reach(&request, Some(tokens)).await {
            if !p.reach {
                let note = format!(
                    "tool descriptions do not reach this model: a request cost the same {} prompt tokens with one description made longer, so this endpoint (its chat format or template) leaves descriptions out. Its scores say nothing about descriptions, and toolgate refuses description comparisons (--mutate, --fix, a base comparison) on it",
                    p.prompt_tokens.0
                );
                eprintln!("toolgate: WARNING: {}: {note}", info.spec);
                info.notes.push(note);
            }
            info.descriptions = Some(p);
        }
    }
}

//! The description probe of a run: does the endpoint put tool descriptions in the prompt?

use crate::models::{self, DescriptionProbe, ProbeOutcome};
use crate::record::run::RunFile;
use crate::tasks::Task;

/// The models of `run` whose description probe has no answer yet (LLMs not probed, or probed
/// without a verdict).
pub(super) fn unprobed(run: &RunFile) -> Vec<usize> {
    run.models
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            !m.deterministic
                && m.descriptions
                    .as_ref()
                    .is_none_or(|p| p.outcome == ProbeOutcome::CouldNotCheck)
        })
        .map(|(i, _)| i)
        .collect()
}

/// The canary of each [`unprobed`] model, sent at once (outside --max-calls): run beside the
/// run's first tasks so it adds no wait after them.
pub(super) async fn early_canaries(
    run: &RunFile,
    built: &[Box<dyn models::Model>],
) -> Vec<(usize, Option<DescriptionProbe>)> {
    futures::future::join_all(
        unprobed(run)
            .into_iter()
            .map(|i| async move { (i, built[i].descriptions_reach("", None).await) }),
    )
    .await
}

/// Once per LLM and run: do descriptions reach the model on this endpoint at all? The
/// behavioural canary ([`models::Canary`]) answers, two requests; the `usage` an endpoint
/// reports is kept for the record but decides nothing. Every LLM gets an outcome: a probe
/// that was not sent is `could_not_check` with its reason, never left blank (blank read as
/// "checked and fine" and "never checked" alike). `budget_left`: false when `--max-calls`
/// ran out during the run (the canary is not sent past it; a resumed run probes).
pub(super) async fn probe_descriptions(
    run: &mut RunFile,
    built: &[Box<dyn models::Model>],
    tasks: &[Task],
    predictions: &[crate::record::PredictionLine],
    budget_left: bool,
    early: Vec<(usize, Option<DescriptionProbe>)>,
) {
    let mut early: std::collections::BTreeMap<usize, Option<DescriptionProbe>> =
        early.into_iter().collect();
    for (i, (info, m)) in run.models.iter_mut().zip(built).enumerate() {
        if info.deterministic
            || info
                .descriptions
                .as_ref()
                .is_some_and(|p| p.outcome != ProbeOutcome::CouldNotCheck)
        {
            continue;
        }
        let mine = predictions
            .iter()
            .filter(|p| p.model == info.spec && p.decision.error.is_none());
        let found = mine.clone().find_map(|p| {
            let t = tasks.iter().find(|t| t.id == p.task_id)?;
            Some((t.request.clone(), p.decision.prompt_tokens))
        });
        // An early canary that could not check (a cold endpoint, a burst refused) is asked
        // again below, once a request of the run is known to work.
        let sent = early
            .remove(&i)
            .flatten()
            .filter(|p| p.outcome != ProbeOutcome::CouldNotCheck);
        let p = match (budget_left, found) {
            // The canary went out with the first tasks: its answer stands, with the prompt
            // tokens one real request cost added for the record.
            (_, found) if sent.is_some() => sent.map(|mut p| {
                if p.prompt_tokens.is_none() {
                    p.prompt_tokens = found.and_then(|(_, t)| t);
                }
                p
            }),
            _ if info.stopped.is_some() => Some(DescriptionProbe::unchecked(
                "the endpoint was stopped (its cause is given with the run) before the description canary was sent",
            )),
            (false, _) => Some(DescriptionProbe::unchecked(
                "--max-calls ran out before the description canary was sent (a resumed run sends it)",
            )),
            (true, None) => Some(DescriptionProbe::unchecked(
                "no request to this model succeeded, so the description canary was not sent",
            )),
            (true, Some((request, tokens))) => m.descriptions_reach(&request, tokens).await,
        };
        let Some(p) = p else { continue };
        let note = match p.outcome {
            ProbeOutcome::Passed => None,
            ProbeOutcome::Failed => Some(format!(
                "tool descriptions do not reach this model: {}, so this endpoint (its chat format or template) leaves descriptions out. Its scores say nothing about descriptions, it cannot pass a gate, and toolgate refuses description comparisons (--mutate, --fix, a base comparison) on it",
                p.why.as_deref().unwrap_or("the canary ignored them")
            )),
            ProbeOutcome::CouldNotCheck => Some(format!(
                "could not check whether tool descriptions reach this model: {}; a run that cannot show it does cannot pass a gate, and --mutate and --fix are refused on it",
                p.why.as_deref().unwrap_or("no answer")
            )),
        };
        if let Some(note) = note {
            crate::elog!("toolgate: WARNING: {}: {note}", info.spec);
            // A resumed run replaces an earlier could-not-check note with its own.
            info.notes
                .retain(|n| !n.starts_with("could not check whether tool descriptions"));
            info.notes.push(note);
        }
        info.descriptions = Some(p);
    }
}

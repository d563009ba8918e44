//! The ablation check (`--ablation`): the suite runs again, in memory, on the catalog without
//! descriptions and on the catalog with neutral names ([`crate::catalog::ablate`]), and each
//! arm is paired task by task with the full catalog ([`crate::score::ablation`]). Models whose
//! decisions cost no provider call are measured by default; LLMs when asked (`--ablation`),
//! since each arm is another call per task; replayed logs never (they do not depend on the
//! catalog).

use std::collections::HashMap;

use super::curve::When;
use super::runner;
use crate::catalog::Catalog;
use crate::catalog::ablate::{neutral_names, without_descriptions};
use crate::models::{self, ModelOptions, ModelSpec};
use crate::score::ablation::{Ablation, Arm, arm_result};
use crate::tasks::Task;

/// The most decisions one check makes (arms × tasks × models) before it is skipped.
pub(crate) const MAX_DECISIONS: usize = 1_000_000;

/// What to measure.
pub(crate) struct Request<'a> {
    pub catalog: &'a Catalog,
    pub tasks: &'a [Task],
    pub models: &'a [ModelSpec],
    pub alpha: f64,
    pub model: &'a ModelOptions,
    pub when: When,
    pub concurrency: usize,
    /// The run's directory, whose trial-0 decisions on the catalog as it is are the full arm:
    /// no request is sent twice, cache or not (`--no-cache` sent each one again). Without
    /// it the full arm runs in memory.
    pub run_dir: Option<&'a std::path::Path>,
}

/// The models the check measures, and why others are left out.
pub(crate) fn models_for(specs: &[ModelSpec], when: When) -> (Vec<ModelSpec>, Vec<String>) {
    super::curve::measured(
        specs,
        when,
        "the ablation check",
        "it would cost two more provider calls per task; pass --ablation to measure it",
    )
}

/// A decision made on the neutral-names catalog, its tool names put back (`back`: neutral name
/// → the tool's name). A name that is not a tool's neutral name stays as it is: it counted as
/// wrong on the renamed catalog and still does.
fn named_back(line: &mut crate::record::PredictionLine, back: &HashMap<String, String>) {
    let fix = |n: &mut String| {
        if let Some(old) = back.get(n.as_str()) {
            n.clone_from(old);
        }
    };
    let d = &mut line.decision;
    if let Some(t) = &mut d.tool {
        fix(t);
    }
    d.ranking.iter_mut().flatten().for_each(fix);
    for s in d.steps.iter_mut().chain(d.parallel_calls.iter_mut()) {
        fix(&mut s.tool);
    }
}

/// Measures the check, or says why it was not (`Ok(None)`, after a note on stderr).
pub(crate) async fn measure(req: &Request<'_>) -> anyhow::Result<Option<Ablation>> {
    let (specs, mut notes) = models_for(req.models, req.when);
    for n in &notes {
        crate::elog!("note: {n}");
    }
    if specs.is_empty() || req.tasks.is_empty() {
        return Ok(None);
    }
    let decisions = 3 * req.tasks.len() * specs.len();
    if decisions > MAX_DECISIONS {
        crate::elog!(
            "note: the ablation check is skipped: {decisions} decisions (3 catalogs × {} tasks × {} models) is over {MAX_DECISIONS}; run it on a split (--split dev)",
            req.tasks.len(),
            specs.len()
        );
        return Ok(None);
    }
    // One arm at a time, each catalog made, run and dropped before the next: at scale a
    // catalog copy is tens of megabytes. The full arm runs on the catalog as it is.
    let arms: [Option<Arm>; 3] = [None, Some(Arm::NoDescriptions), Some(Arm::NeutralNames)];
    let bar = crate::progress::bar(decisions as u64, "ablation decisions");
    let mut outcomes = Vec::with_capacity(arms.len());
    let mut normalised: Vec<String> = specs.iter().map(ToString::to_string).collect();
    let mut skipped = 0usize;
    for arm in &arms {
        // Each arm is kept as one answer per model and task: three arms' outcome lines of a
        // 100,000-task suite were tens of megabytes.
        let (correct, specs_run, not_made) = run_arm(req, &specs, *arm, &bar).await?;
        normalised = specs_run;
        skipped += not_made;
        outcomes.push(correct);
        crate::limits::trim_heap();
    }
    bar.finish_and_clear();
    if skipped > 0 {
        notes.push(format!(
            "{skipped} ablation decision(s) were not made: --max-calls was reached; the arms cover fewer tasks"
        ));
    }
    let mut results = Vec::new();
    for (m, model) in normalised.iter().enumerate() {
        for (i, arm) in arms.iter().enumerate() {
            if let Some(arm) = arm {
                results.push(arm_result(
                    model,
                    *arm,
                    &outcomes[0][m],
                    &outcomes[i][m],
                    req.alpha,
                ));
            }
        }
    }
    Ok(Some(Ablation {
        alpha: req.alpha,
        results,
        notes,
    }))
}

/// One arm's answers (for each model and task, whether it was right), the models' normalised
/// specs, and the decisions `--max-calls` left unmade. The full arm reuses the run's own decisions when they are on disk; the
/// neutral-names arm's decisions are scored on the tasks as written, their tool names put
/// back (a renamed copy of a 100,000-task suite was the peak of a run). The arm's catalog is
/// dropped on return: at scale a catalog copy is tens of megabytes.
async fn run_arm(
    req: &Request<'_>,
    specs: &[ModelSpec],
    arm: Option<Arm>,
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<(Vec<Vec<Option<bool>>>, Vec<String>, usize)> {
    use std::borrow::Cow;
    let mut back = HashMap::new();
    let catalog: Cow<Catalog> = match arm {
        None => Cow::Borrowed(req.catalog),
        Some(Arm::NoDescriptions) => Cow::Owned(without_descriptions(req.catalog)),
        Some(Arm::NeutralNames) => {
            let (neutral, map) = neutral_names(req.catalog);
            back = map.into_iter().map(|(old, new)| (new, old)).collect();
            Cow::Owned(neutral)
        }
    };
    let built: Vec<Box<dyn models::Model>> = specs
        .iter()
        .map(|s| models::build(s, &catalog, req.model))
        .collect::<anyhow::Result<_>>()?;
    let normalised: Vec<String> = built.iter().map(|m| m.spec()).collect();
    if arm.is_none()
        && let Some(dir) = req.run_dir
    {
        // Graded as they are read: the run's decisions (with their rankings) are never all
        // held.
        let correct = runner::correct_each(&catalog, req.tasks, &normalised, |add| {
            crate::record::for_each_prediction(dir, |p| {
                if p.trial == 0 && normalised.contains(&p.model) {
                    add(&p);
                }
            })
            .map(drop)
        })?;
        bar.inc((req.tasks.len() * specs.len()) as u64);
        return Ok((correct, normalised, 0));
    }
    // Scored on the catalog the tasks name (the neutral arm's differs only in names).
    let scored_on = if back.is_empty() {
        &catalog
    } else {
        req.catalog
    };
    let (ran, correct) = super::in_memory::correct_as(
        &built,
        scored_on,
        req.tasks,
        &|p| named_back(p, &back),
        req.concurrency,
        Some(bar),
    )
    .await?;
    Ok((correct, normalised, ran.skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llms_join_the_check_only_when_asked() {
        let specs =
            ModelSpec::parse_all(&["bm25", "openai:gpt-4o-mini", "replay:x.jsonl"], "t").unwrap();
        let names = |v: Vec<ModelSpec>| v.iter().map(ToString::to_string).collect::<Vec<_>>();
        let (auto, notes) = models_for(&specs, When::Auto);
        assert_eq!(names(auto), ["bm25"]);
        assert!(
            notes[0].contains("--ablation") && notes[1].contains("replayed"),
            "{notes:?}"
        );
        assert_eq!(
            names(models_for(&specs, When::On).0),
            ["bm25", "openai:gpt-4o-mini"]
        );
        assert!(models_for(&specs, When::Off).0.is_empty());
    }

    #[test]
    fn neutral_decisions_get_their_tools_names_back() {
        let back: HashMap<String, String> = [("tool_01", "x"), ("tool_02", "y")]
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let step = |t: &str| crate::models::Step {
            tool: t.into(),
            ..Default::default()
        };
        let mut line = crate::record::PredictionLine {
            model: "bm25".into(),
            task_id: "a".into(),
            trial: 0,
            decision: crate::models::Decision {
                tool: Some("tool_02".into()),
                ranking: Some(vec!["tool_02".into(), "tool_01".into(), "tool_09".into()]),
                steps: vec![step("tool_01")],
                parallel_calls: vec![step("tool_02")],
                ..Default::default()
            },
        };
        named_back(&mut line, &back);
        let d = &line.decision;
        assert_eq!(d.tool.as_deref(), Some("y"));
        // A name that is no tool's neutral name stays wrong.
        assert_eq!(
            d.ranking.as_deref(),
            Some(&["y".into(), "x".into(), "tool_09".into()][..])
        );
        assert_eq!(
            (d.steps[0].tool.as_str(), d.parallel_calls[0].tool.as_str()),
            ("x", "y")
        );
    }
}

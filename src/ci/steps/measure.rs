//! Step 2: the measurement. Evaluates the tasks (resumable in `<out>/run`; incremental
//! against the base when asked) with the run's own products, the belt, the distractor curve
//! and the ablation; or joins a fan-in's shards there. Then scores the run, writes its
//! reports, and hands back the run, its outcomes and decisions, and the requests at risk.

use super::{Inputs, Trail};
use crate::ci::files::OutDir;
use crate::ci::inputs::incremental_base;
use crate::ci::settings::CiSettings;
use crate::ci::{belt, shards};
use crate::eval::{self, EvalOptions, RunDir};
use crate::github::GithubEnv;
use crate::record::ci::AtRisk;
use crate::record::files::{REPORT_HTML, REPORT_MD, RUN_FILE};
use crate::record::scores::OutcomeLine;
use crate::record::{PredictionLine, RunFile};

/// The run as measured, and what the later steps read of it.
pub(crate) struct Measured {
    pub run: RunFile,
    pub outcomes: Vec<OutcomeLine>,
    pub predictions: Vec<PredictionLine>,
    /// Requests a search puts another tool first for (at most the kept number), and how many.
    pub at_risk: Vec<AtRisk>,
    pub at_risk_total: usize,
}

/// Measures (or joins the shards), scores and writes the run's reports.
pub(crate) async fn measure(
    s: &CiSettings,
    gh: &GithubEnv,
    inputs: &mut Inputs,
    out: &OutDir,
    trail: &mut Trail,
) -> anyhow::Result<Measured> {
    if let Some(b) = inputs.belt.as_mut() {
        let models = s.model_options()?;
        belt::prepare(b, &inputs.catalog, &inputs.tasks, &s.eval.models, &models).await?;
    }
    let shards = inputs.shards.take();
    let inputs = &*inputs;
    let on = inputs.belt.as_ref().map_or(&inputs.catalog, |b| &b.catalog);
    let mut rd = match shards {
        Some(g) => shards::join(g, out, &inputs.tasks, &inputs.tasks_path)?,
        None => evaluate(s, gh, inputs, out, trail).await?,
    };
    let (_, outcomes) = rd.finalize_keeping(on, &inputs.tasks, &s.policy)?;
    crate::limits::trim_heap();
    crate::report::write_run_reports(&rd.dir, &rd.run)?;
    trail.wrote(|w| &mut w.run_json, &rd.dir.join(RUN_FILE));
    trail.wrote(|w| &mut w.report_html, &rd.dir.join(REPORT_HTML));
    trail.wrote(|w| &mut w.report_markdown, &rd.dir.join(REPORT_MD));
    let (at_risk, at_risk_total) = crate::report::ci::at_risk::collect(&outcomes, &inputs.tasks);
    let predictions = rd.predictions()?;
    Ok(Measured {
        // Moved, not copied: at scale the run is tens of megabytes.
        run: rd.run,
        outcomes,
        predictions,
        at_risk,
        at_risk_total,
    })
}

/// Evaluates here (resuming an earlier `ci` in the same folder when asked), then measures the
/// run's products: in a belt your catalog alone and the distractor curve, and the ablation.
async fn evaluate(
    s: &CiSettings,
    gh: &GithubEnv,
    inputs: &Inputs,
    out: &OutDir,
    trail: &mut Trail,
) -> anyhow::Result<RunDir> {
    let on = inputs.belt.as_ref().map_or(&inputs.catalog, |b| &b.catalog);
    let run_dir = out.run_dir();
    let mut opts = EvalOptions {
        model: s.model_options()?,
        ..s.eval.clone()
    };
    if s.resume && run_dir.join(RUN_FILE).is_file() {
        opts.resume = Some(run_dir);
        opts.out = None;
    } else {
        out.clear_run()?;
        let base = inputs.base.as_ref();
        opts.incremental = incremental_base(s, gh, base, &mut trail.notices);
    }
    let mut rd = eval::evaluate(on, &inputs.tasks_path, &inputs.tasks, &opts).await?;
    crate::limits::trim_heap();
    if let Some(b) = &inputs.belt {
        rd.run.belt = Some(b.info.clone());
        rd.alone = b.alone.clone();
        rd.run.curve = belt::curve(s, b, &inputs.catalog, &inputs.tasks).await?;
    }
    rd.run.ablation = eval::ablation::measure(&eval::ablation::Request {
        catalog: on,
        tasks: &inputs.tasks,
        models: &s.eval.models,
        alpha: s.policy.alpha,
        model: &s.model_options()?,
        when: s.ablation,
        concurrency: s.eval.concurrency,
        run_dir: Some(&rd.dir),
    })
    .await?;
    if let Some(why) = &rd.incremental_note {
        trail.notices.push(format!(
            "Incremental evaluation was asked for but this run went in full: {why}."
        ));
    }
    if let Some(r) = &rd.run.reused {
        trail.notices.push(r.sentence());
    }
    Ok(rd)
}

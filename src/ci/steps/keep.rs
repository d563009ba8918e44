//! Step 4: what a measured run leaves behind: the baseline (the run, its outcomes and
//! decisions, the lint report, the lock and the policy applied; `--write-baseline` copies it
//! where asked) and the badge. A run that measured nothing leaves neither.

use super::{Inputs, Measured, Trail};
use crate::ci::applied::applied_policy;
use crate::ci::files::{self, OutDir};
use crate::ci::settings::CiSettings;
use crate::eval::baseline::Baseline;
use crate::out::write_file;
use crate::record::RunFile;
use crate::report::badge;

/// Writes the baseline and the badge of a measured run and hands back the run and the inputs
/// (the run, the lint report and the lock go into the baseline and come back out: at scale each is tens of megabytes,
/// and the baseline is streamed, never held as one text).
pub(crate) fn keep(
    s: &CiSettings,
    mut inputs: Inputs,
    m: Measured,
    measured: bool,
    out: &OutDir,
    trail: &mut Trail,
) -> anyhow::Result<(RunFile, Inputs)> {
    if !measured {
        if s.write_baseline.is_some() || s.badge.is_some() {
            trail.notices.push(
                "No badge or baseline was written: this run's numbers cannot stand for the server."
                    .into(),
            );
        }
        return Ok((m.run, inputs));
    }
    let mut baseline = Baseline::new(m.run, m.outcomes, inputs.lint, inputs.head_lock)
        .with_decisions(m.predictions, &inputs.catalog, &inputs.tasks);
    baseline.policy = Some(applied_policy(s, &inputs.catalog.source));
    let path = out.file(files::BASELINE_JSON);
    baseline.write(&path)?;
    trail.wrote(|w| &mut w.baseline, &path);
    let Baseline {
        run,
        lint: Some(lint),
        lock: Some(lock),
        ..
    } = baseline
    else {
        anyhow::bail!("internal error: the baseline lost the lint report or the lock");
    };
    (inputs.lint, inputs.head_lock) = (lint, lock);
    if let Some(p) = &s.write_baseline {
        crate::fsio::write_atomic_with(p, &mut |w| {
            std::io::copy(&mut std::fs::File::open(&path)?, w).map(|_| ())
        })?;
        crate::elog!(
            "wrote the baseline {} (commit it to compare pull requests with it)",
            p.display()
        );
    }
    write_badge(s, &run, out, trail)?;
    Ok((run, inputs))
}

/// The badge and its shields endpoint document, in the output folder and at `--badge`.
fn write_badge(
    s: &CiSettings,
    run: &RunFile,
    out: &OutDir,
    trail: &mut Trail,
) -> anyhow::Result<()> {
    let (Some(svg), Some(json)) = (badge::for_run(run), badge::endpoint_json(run)) else {
        return Ok(());
    };
    write_file(&out.file(files::BADGE_SVG), &svg)?;
    write_file(&out.file(files::BADGE_JSON), &json)?;
    trail.wrote(|w| &mut w.badge, &out.file(files::BADGE_SVG));
    trail.wrote(|w| &mut w.badge_json, &out.file(files::BADGE_JSON));
    if let Some(p) = &s.badge {
        write_file(p, &svg)?;
        write_file(&badge::endpoint_path(p), &json)?;
        trail.wrote(|w| &mut w.badge, p);
        trail.wrote(|w| &mut w.badge_json, &badge::endpoint_path(p));
    }
    Ok(())
}

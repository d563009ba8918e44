//! `toolgate report DIR`: re-render (and re-gate) a finished run.

use std::path::Path;

use crate::adapt::run::policy;
use crate::adapt::{print_run, verdict, write_badge};
use crate::cli::ReportArgs;
use crate::gate::{Exit, GateInput, decide};
use crate::record::RunFile;

/// `toolgate report DIR`: re-render (and re-gate) a finished run.
pub fn run(a: &ReportArgs) -> anyhow::Result<Exit> {
    let dir: &Path = &a.run;
    let policy = policy(&a.gate)?;
    let mut run = RunFile::read(dir)?;
    let decision = decide(
        &GateInput {
            run: Some(&run),
            ..Default::default()
        },
        &policy,
    );
    let thresholds = a.gate.fail_under.is_some() || a.gate.min_tool_accuracy.is_some();
    let decision = match &run.gate {
        // Without new thresholds the recorded decision stands, unless it is now stricter.
        Some(g) if !thresholds && !g.passed && decision.passed() => crate::gate::GateDecision {
            reasons: g.failures.clone(),
            notices: vec![],
        },
        _ => decision,
    };
    if thresholds || run.gate.is_none() || !decision.passed() {
        run.gate = Some((&decision).into());
    }
    crate::report::write_run_reports(dir, &run)?;
    if decision.passed() {
        write_badge(&run, &a.gate)?;
    }
    print_run(&run, a.format);
    let exit = verdict(&decision);
    // A recorded failure from an older toolgate has only its wording.
    if exit == Exit::Pass && run.gate.as_ref().is_some_and(|g| !g.passed) {
        let g = run
            .gate
            .as_ref()
            .map(|g| g.reasons.join("; "))
            .unwrap_or_default();
        eprintln!("toolgate: gate failed: {g}");
        return Ok(Exit::GateFailed);
    }
    Ok(exit)
}

//! `toolgate report DIR`: re-render (and re-gate) a finished run.

use std::path::Path;

use crate::adapt::run::policy;
use crate::adapt::{print_run, verdict, write_badge};
use crate::cli::ReportArgs;
use crate::gate::{Exit, GateInput, decide};
use crate::record::RunFile;

/// `toolgate report DIR`: re-render (and re-gate) a finished run.
pub(crate) fn run(a: &ReportArgs) -> anyhow::Result<Exit> {
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
    let judged = crate::gate::rejudge(&run, decision, thresholds);
    if judged.record {
        run.gate = Some((&judged.decision).into());
    }
    crate::report::write_run_reports(dir, &run)?;
    if judged.decision.passed() {
        write_badge(&run, &a.gate)?;
    }
    print_run(&run, a.format);
    Ok(verdict(&judged.exit))
}

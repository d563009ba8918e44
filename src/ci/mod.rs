//! `toolgate ci`: the whole gate in one process. From one catalog: check the lock, lint,
//! evaluate, compare with a base, decide through the gate stage, write every output into one
//! folder, and on GitHub write the job summary, step outputs, annotations and the sticky
//! pull-request comment. The exit code is decided after every output is written.

mod applied;
pub(crate) mod belt;
pub(crate) mod files;
pub(crate) mod fork;
mod inputs;
mod lint_delta;
pub(crate) mod policy;
pub(crate) mod prepare;
pub(crate) mod relay;
pub(crate) mod settings;
pub(crate) mod shards;
pub(crate) mod sinks;
mod steps;
pub(crate) mod templates;
pub(crate) mod workflow;

pub(crate) use settings::{CiSettings, resolve};
pub(crate) use steps::Source;

use crate::gate::Exit;
use crate::github::GithubEnv;
use crate::lint::LintSettings;
use crate::record::contract::ContractReport;
use crate::report::Format;
use files::OutDir;
use steps::{Publish, Trail};

/// Runs the gate over the catalog (or the shards) and writes every output, in named steps:
/// gather the inputs, measure, decide, keep what a measured run leaves, publish. `format` is
/// what goes to stdout; `contract` is what the contract tests found, when they ran.
pub(crate) async fn run(
    s: &CiSettings,
    lint_settings: &LintSettings,
    source: Source,
    gh: &GithubEnv,
    format: Format,
    contract: Option<ContractReport>,
) -> anyhow::Result<Exit> {
    // Every server session is over: the reviewed files must be as they were read at start.
    crate::fsio::verify_pins()?;
    let out = OutDir(s.out.clone());
    let mut trail = Trail::new(s.notices.clone());
    let mut inputs = steps::gather(s, lint_settings, source, &out, &mut trail).await?;
    let mut measured = steps::measure(s, gh, &mut inputs, &out, &mut trail).await?;
    let verdict = steps::decide(s, &inputs, &measured, contract.as_ref(), &out, &mut trail)?;
    let at_risk = (
        std::mem::take(&mut measured.at_risk),
        measured.at_risk_total,
    );
    let (run, inputs) = steps::keep(s, inputs, measured, verdict.measured, &out, &mut trail)?;
    let report = Publish {
        inputs,
        run,
        verdict,
        at_risk,
        contract,
        trail,
    };
    steps::publish(s, gh, format, report, &out).await
}

//! `toolgate contract SERVER`: the opt-in contract tests. Exit 0 when no call failed, 1 when
//! one did, 2 when the server could not be reached or no tool could be called (nothing was
//! tested, so nothing passed).

use crate::adapt::resolve_server;
use crate::cli::ContractArgs;
use crate::config::Config;
use crate::contract::ContractOptions;
use crate::gate::Exit;
use crate::limits::duration_from_secs;

/// The contract options the flags ask for.
pub(crate) fn options(a: &ContractArgs) -> anyhow::Result<ContractOptions> {
    Ok(ContractOptions {
        allow_writes: a.allow_writes,
        call_timeout: duration_from_secs(a.call_timeout, "--call-timeout")
            .map_err(anyhow::Error::msg)?,
        deadline: duration_from_secs(a.deadline, "--deadline").map_err(anyhow::Error::msg)?,
        seed: a.seed,
    })
}

pub(crate) async fn run(a: &ContractArgs, cfg: &Config) -> anyhow::Result<Exit> {
    let opts = options(a)?;
    if crate::adapt::belt::wanted(&a.server) {
        anyhow::bail!(
            "contract tests run on one server: name it (with --mcp-config, the server's name in that file)"
        );
    }
    let (spec, connect) = resolve_server(&a.server, cfg)?;
    let report = crate::contract::run(&spec, &connect, &opts).await?;
    let json = format!("{}\n", serde_json::to_string_pretty(&report)?);
    if let Some(p) = &a.output_json {
        crate::out::write_shown(p, &json)?;
    }
    if a.json {
        crate::out::print(&json);
    } else {
        crate::out::print(&crate::report::contract::terminal(
            &report,
            crate::report::style::palette(),
        ));
    }
    if report.summary.calls == 0 {
        crate::elog!(
            "toolgate: no tool was called, so nothing was tested: mark read-only tools with readOnlyHint: true, or pass --allow-writes to call the others (they run in the sandbox)"
        );
        return Ok(Exit::CouldNotRun);
    }
    Ok(if report.summary.failed > 0 {
        Exit::GateFailed
    } else {
        Exit::Pass
    })
}

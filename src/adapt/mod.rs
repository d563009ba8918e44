//! Adapters shared by the commands: server and connection settings from flags then
//! toolgate.toml, the gate policy and model options of the run flags, loading a catalog or a
//! belt, and the printed forms of a run. Commands call these; none calls another command.

pub(crate) mod belt;
pub(crate) mod connect;
pub(crate) mod run;
pub(crate) mod server;
pub(crate) mod suite;

pub(crate) use connect::{locate_file, lock_path, rate, trimmed};
pub(crate) use server::{load_catalog, resolve_server};

use crate::cli::{Format, GateArgs};
use crate::out::{print, write_file};
use crate::record::RunFile;
use crate::report::run as run_report;

use crate::gate::Exit;

/// Says why the gate failed (on stderr) and returns the exit.
pub(crate) fn verdict(d: &crate::gate::GateDecision) -> Exit {
    if !d.passed() {
        let what = if d.exit() == Exit::CouldNotRun {
            "the run cannot be scored"
        } else {
            "gate failed"
        };
        crate::elog!("toolgate: {what}: {}", d.wording().join("; "));
    }
    d.exit()
}

/// Writes `--badge FILE` (and the shields endpoint document FILE.json beside it) when asked.
pub(crate) fn write_badge(run: &RunFile, gate_args: &GateArgs) -> anyhow::Result<()> {
    if let Some(path) = &gate_args.badge
        && let Some(svg) = crate::report::badge::for_run(run)
    {
        write_file(path, &svg)?;
        if let Some(json) = crate::report::badge::endpoint_json(run) {
            write_file(&crate::report::badge::endpoint_path(path), &json)?;
        }
    }
    Ok(())
}

pub(crate) fn print_run(run: &RunFile, format: Format) {
    match format {
        Format::Json => print(&crate::record::v1::to_text(run).unwrap_or_default()),
        Format::Markdown | Format::Github => print(&run_report::markdown(run)),
        Format::Terminal | Format::Sarif => print(&run_report::terminal(run)),
    }
}

/// One tool's row of `inspect --json` (a belt's rows put `key` and `server` before it).
pub(crate) fn tool_row(
    t: &crate::catalog::Tool,
    tokens: usize,
    exact: bool,
) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::json;
    let mut row = serde_json::Map::new();
    row.insert("name".into(), json!(t.name()));
    row.insert("params".into(), json!(t.params().len()));
    row.insert("required".into(), json!(t.required()));
    row.insert("annotations".into(), json!(t.annotations()));
    row.insert("tokens".into(), json!(tokens));
    row.insert("tokens_exact".into(), json!(exact));
    row.insert(
        "sha256".into(),
        json!(crate::catalog::canonical::tool_hash(t)),
    );
    row
}

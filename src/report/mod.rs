//! Renderers: pure functions from plain report types to text. Exit status is decided elsewhere.

pub(crate) mod badge;
pub(crate) mod belt;
pub(crate) mod chart;
pub(crate) mod ci;
pub(crate) mod compare;
pub(crate) mod contract;
pub(crate) mod escape;
pub(crate) mod github;
pub(crate) mod html;
pub(crate) mod junit;
pub(crate) mod markdown;
pub(crate) mod run;
pub(crate) mod sarif;
pub(crate) mod style;
pub(crate) mod table;
pub(crate) mod terminal;

pub use crate::record::lint::LintReport;
pub(crate) use crate::record::lint::ReportFinding;

/// A format a report can be printed in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[default]
    Terminal,
    Json,
    Sarif,
    Github,
    Markdown,
}

/// A lint report in `format`, info findings folded to one line per rule in the terminal and
/// in annotations (JSON, SARIF and Markdown keep each one).
pub fn render_lint(report: &LintReport, format: Format) -> String {
    render_lint_as(report, format, false)
}

/// [`render_lint`], with every info finding on its own line when `every` (`--all-findings`).
pub(crate) fn render_lint_as(report: &LintReport, format: Format, every: bool) -> String {
    match format {
        Format::Terminal => terminal::lint(report, every),
        Format::Github if !every => github::annotations_folded(report),
        Format::Json => pretty(&serde_json::to_value(report).unwrap_or_default()),
        Format::Sarif => pretty(&sarif::lint(report)),
        Format::Github => github::annotations(report),
        Format::Markdown => markdown::lint(report),
    }
}

fn pretty(v: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// Writes a run directory's reports beside its run.json: report.md and report.html.
pub(crate) fn write_run_reports(
    dir: &std::path::Path,
    run: &crate::record::RunFile,
) -> anyhow::Result<()> {
    use crate::record::files::{REPORT_HTML, REPORT_MD};
    crate::out::write_shown(&dir.join(REPORT_MD), &run::markdown(run))?;
    crate::out::write_shown(&dir.join(REPORT_HTML), &html::render(run))?;
    Ok(())
}

//! `toolgate lint SERVER`: rules over the catalog, rendered in one or several formats.

use super::{Outcome, load_catalog, lock_path, write_file};
use crate::catalog::Catalog;
use crate::cli::{Format, LintArgs, OutputArgs};
use crate::config::Config;
use crate::lint::{self, Context, Severity};
use crate::report::locate::Locator;
use crate::report::{LintReport, github, markdown, sarif, terminal};

/// Lints a catalog and builds the versioned report.
pub fn report_for(catalog: &Catalog, cfg: &Config, output: Option<&OutputArgs>) -> LintReport {
    report_in(&Context::new(catalog, &cfg.lint), cfg, output)
}

/// Like [`report_for`], over a lint context the caller already built.
pub fn report_in(cx: &Context, cfg: &Config, output: Option<&OutputArgs>) -> LintReport {
    let catalog = cx.catalog;
    let findings = lint::run_in(cx);
    let total = cx.total_tokens();
    let file = output
        .and_then(|o| o.locate_in.clone())
        .or_else(|| catalog.snapshot_path.clone())
        .or_else(|| {
            let lock = lock_path(None, cfg);
            lock.is_file().then_some(lock)
        });
    let locator = file.as_deref().and_then(Locator::from_file);
    LintReport::new(catalog, &findings, total, locator.as_ref())
}

pub fn render(report: &LintReport, format: Format) -> String {
    match format {
        Format::Terminal => terminal::lint(report),
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

/// Writes the extra report files the user asked for.
pub fn write_outputs(report: &LintReport, o: &OutputArgs) -> anyhow::Result<()> {
    if let Some(p) = &o.output_json {
        write_file(p, &render(report, Format::Json))?;
    }
    if let Some(p) = &o.output_sarif {
        write_file(p, &render(report, Format::Sarif))?;
    }
    if let Some(p) = &o.output_markdown {
        write_file(p, &render(report, Format::Markdown))?;
    }
    Ok(())
}

pub async fn run(args: &LintArgs, cfg: &Config) -> anyhow::Result<Outcome> {
    let catalog = load_catalog(&args.server, cfg).await?;
    let report = report_for(&catalog, cfg, Some(&args.output));
    print!("{}", render(&report, args.output.format));
    write_outputs(&report, &args.output)?;
    let threshold = if args.strict {
        Severity::Warning
    } else {
        Severity::Error
    };
    if report.fails(threshold) {
        let s = &report.summary;
        eprintln!(
            "toolgate: lint failed: {} error(s){}",
            s.errors,
            if args.strict {
                format!(", {} warning(s) (--strict)", s.warnings)
            } else {
                String::new()
            }
        );
        return Ok(Outcome::GateFailed);
    }
    Ok(Outcome::Pass)
}

//! `toolgate lint SERVER`: rules over the catalog, rendered in one or several formats, gated
//! on errors (or warnings with `--strict`).

use crate::adapt::{load_catalog, locate_file};
use crate::catalog::Catalog;
use crate::cli::{Format, LintArgs, OutputArgs};
use crate::config::Config;
use crate::gate::Exit;
use crate::gate::{GateInput, GatePolicy, LintFailOn, decide};
use crate::out::print;
use crate::report::{LintReport, render_lint};

/// Lints a catalog and builds the versioned report.
pub(crate) fn report_for(
    catalog: &Catalog,
    cfg: &Config,
    output: Option<&OutputArgs>,
) -> anyhow::Result<LintReport> {
    let file = locate_file(catalog, cfg, output);
    LintReport::for_catalog(catalog, &cfg.lint, file.as_deref())
}

/// Writes the extra report files the user asked for.
fn write_outputs(report: &LintReport, o: &OutputArgs) -> anyhow::Result<()> {
    for (path, format) in [
        (&o.output_json, Format::Json),
        (&o.output_sarif, Format::Sarif),
        (&o.output_markdown, Format::Markdown),
    ] {
        if let Some(p) = path {
            crate::out::write_shown(p, &render_lint(report, format))?;
        }
    }
    Ok(())
}

pub(crate) async fn run(args: &LintArgs, cfg: &Config) -> anyhow::Result<Exit> {
    // The rules' patterns compile while the server starts.
    crate::lint::warm_up();
    let mut cfg = cfg.clone();
    if let Some(dir) = &args.embed {
        cfg.lint.embed_model = Some(dir.clone());
    }
    if !args.hosts.is_empty() {
        cfg.lint.hosts = crate::adapt::trimmed(&args.hosts);
    }
    if let Some(n) = &args.host_server_name {
        cfg.lint.host_server_name = Some(n.clone());
    }
    cfg.lint.validate()?;
    cfg.lint.restrict(&args.select, &args.ignore)?;
    let cfg = &cfg;
    let report = if crate::adapt::belt::wanted(&args.server) {
        let belt = crate::adapt::belt::load(&args.server, cfg).await?;
        let lock = crate::adapt::belt::lock_to_locate(cfg, Some(&args.output));
        crate::adapt::belt::lint_report(&belt, cfg, lock.as_deref())?
    } else {
        report_for(
            &load_catalog(&args.server, cfg).await?,
            cfg,
            Some(&args.output),
        )?
    };
    if args.accept_stubs {
        let open: Vec<_> = report
            .findings
            .iter()
            .filter(|f| f.severity >= crate::lint::Severity::Warning)
            .cloned()
            .collect();
        print(&crate::lint::settings::Accepted::stubs(&open));
        return Ok(Exit::Pass);
    }
    let text = crate::report::render_lint_as(&report, args.output.format, args.output.all_findings);
    if args.output.format == crate::report::Format::Github {
        // Annotations are workflow commands by design (their data escaped where made).
        crate::out::command(&text);
    } else {
        print(&text);
    }
    write_outputs(&report, &args.output)?;
    let policy = GatePolicy {
        lint_fail_on: if args.strict {
            LintFailOn::Warning
        } else {
            LintFailOn::Error
        },
        ..GatePolicy::default()
    };
    let decision = decide(
        &GateInput {
            lint: Some(&report.summary),
            ..Default::default()
        },
        &policy,
    );
    if !decision.passed() {
        crate::elog!("toolgate: lint failed: {}", decision.wording().join("; "));
    }
    Ok(decision.exit())
}

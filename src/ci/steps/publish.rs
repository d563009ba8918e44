//! Step 5: the report, everywhere it goes. ci.json, JUnit, summary.md and comment.md in the
//! output folder; on GitHub the annotations, the sticky pull-request comment, the job summary
//! and the step outputs; and stdout in the format asked for. The exit code is the verdict's,
//! returned after every output is written.

use super::{Inputs, Trail, Verdict};
use crate::ci::files::{self, OutDir};
use crate::ci::settings::CiSettings;
use crate::ci::sinks;
use crate::gate::Exit;
use crate::github::{GithubEnv, comment};
use crate::out::{write_file, write_shown};
use crate::record::RunFile;
use crate::record::ci::AtRisk;
use crate::record::contract::ContractReport;
use crate::record::lint::LintReport;
use crate::report::Format;
use crate::report::ci::{self as ci_report, CiReport, CiStatus};

/// What the report is made of.
pub(crate) struct Publish {
    pub inputs: Inputs,
    pub run: RunFile,
    pub verdict: Verdict,
    pub at_risk: (Vec<AtRisk>, usize),
    pub contract: Option<ContractReport>,
    pub trail: Trail,
}

/// Builds the report, writes it to every sink, and returns the verdict's exit code.
pub(crate) async fn publish(
    s: &CiSettings,
    gh: &GithubEnv,
    format: Format,
    p: Publish,
    out: &OutDir,
) -> anyhow::Result<Exit> {
    let Publish {
        inputs,
        run,
        verdict,
        at_risk: (at_risk, at_risk_total),
        contract,
        mut trail,
    } = p;
    let Inputs {
        catalog,
        lock,
        lint,
        lint_delta,
        tasks_path,
        tasks_generated,
        ..
    } = inputs;
    trail.wrote(|w| &mut w.summary, &out.file(files::SUMMARY_MD));
    trail.wrote(|w| &mut w.ci_json, &out.file(files::CI_JSON));
    trail.wrote(|w| &mut w.junit, &out.file(files::JUNIT_XML));
    let ctx = gh.context();
    let d = &verdict.decision;
    let mut report = CiReport {
        schema_version: ci_report::CI_SCHEMA.into(),
        toolgate_version: env!("CARGO_PKG_VERSION").into(),
        status: if verdict.measured {
            CiStatus::Ok
        } else {
            CiStatus::Errored
        },
        commit: ctx.commit,
        run_url: ctx.run_url,
        passed: d.passed(),
        reasons: d.wording(),
        failures: d.reasons.clone(),
        server: catalog.source.clone(),
        catalog_sha256: lint.catalog_sha256.clone(),
        tools: catalog.tools.len(),
        total_tokens: lint.total_tokens,
        lock,
        lint: lint.summary.clone(),
        lint_fail_on: s.policy.lint_fail_on,
        fail_on_new: s.policy.fail_on_new,
        tasks: tasks_path.display().to_string(),
        tasks_generated,
        run,
        comparison: verdict.comparison,
        lint_delta,
        at_risk,
        at_risk_total,
        outputs: trail.written,
        notices: trail.notices,
        contract,
        settings: s.settings_review.clone(),
    };
    write_sinks(s, gh, format, &mut report, &lint, out).await?;
    if !report.passed {
        let what = if verdict.measured {
            "gate failed"
        } else {
            "the run cannot be scored"
        };
        crate::elog!("toolgate: {what}: {}", report.reasons.join("; "));
    }
    Ok(verdict.decision.exit())
}

/// JUnit, the annotations and the comment, then summary.md, ci.json, the job summary and step
/// outputs (which report the comment), then stdout.
async fn write_sinks(
    s: &CiSettings,
    gh: &GithubEnv,
    format: Format,
    report: &mut CiReport,
    lint: &LintReport,
    out: &OutDir,
) -> anyhow::Result<()> {
    let junit = crate::report::junit::ci(report, lint, s.policy.min_tool_accuracy);
    write_shown(&out.file(files::JUNIT_XML), &junit)?;
    let full_run = crate::report::run::markdown_body(&report.run);
    let mut comment_url = String::new();
    if gh.actions {
        let annotations = crate::report::github::annotations_folded(lint);
        // Keep stdout pure JSON when JSON was asked for (the runner reads commands on stderr too).
        if format == Format::Json {
            crate::out::command_on_stderr(&annotations);
        } else {
            crate::out::command(&annotations);
        }
    }
    if s.comment {
        let body = crate::secrets::shown::mask_shown(&format!(
            "{}\n{}",
            comment::marker(&s.comment_id),
            ci_report::markdown(report, lint, &full_run)
        ));
        write_file(&out.file(files::COMMENT_MD), &body)?;
        comment_url = sinks::comment_on_pr(gh, s, &body, report).await;
    }
    let summary = crate::secrets::shown::mask_shown(&ci_report::markdown(report, lint, &full_run));
    write_shown(&out.file(files::SUMMARY_MD), &summary)?;
    crate::out::write_shown_json(&out.file(files::CI_JSON), &*report)?;
    if gh.actions {
        sinks::write_github(gh, report, &summary, &comment_url)?;
    }
    match format {
        Format::Json => crate::out::println(&serde_json::to_string_pretty(&*report)?),
        Format::Markdown => crate::out::print(&summary),
        _ => crate::out::print(&ci_report::terminal(report)),
    }
    Ok(())
}

//! Where `toolgate ci` reports go besides its output folder: the log (annotations, notices),
//! the job summary, the step outputs and the sticky pull-request comment.

use std::path::Path;

use super::files::{CI_JSON, OutDir, SUMMARY_MD};
use super::settings::CiSettings;
use crate::github::{self, GithubEnv, comment};
use crate::out::write_shown;
use crate::record::ci_json::{CiError, CiJson};
use crate::report::ci::{self as ci_report, CiReport, CiStatus};

pub(crate) const NOT_A_PR: &str = "this run is not for a pull request";

/// Masks the values of credential variables set in this environment, and every secret-shaped
/// value ([`crate::secrets::shown`]).
pub(crate) fn mask(text: &str) -> String {
    let mut known = crate::secrets::secret_values();
    known.extend(crate::secrets::shown::values(&[]));
    crate::secrets::shown::mask_with(text, &known).0
}

/// A notice in the log (an Actions `::notice` on GitHub).
pub(crate) fn notice(gh: &GithubEnv, msg: &str) {
    if gh.actions {
        crate::out::command(&format!(
            "::notice title=toolgate comment::{}",
            crate::report::github::escape_data(msg)
        ));
    } else {
        crate::elog!("toolgate: notice: {msg}");
    }
}

/// Posts or updates the comment; what happened, for the report.
pub(crate) async fn post_comment(
    gh: &GithubEnv,
    s: &CiSettings,
    body: &str,
) -> anyhow::Result<comment::Posted> {
    let skip = |reason: &str| {
        Ok(comment::Posted::Skipped {
            reason: reason.into(),
        })
    };
    let Some(pr) = gh.pull_request()? else {
        return skip(&format!(
            "{NOT_A_PR} (GITHUB_EVENT_PATH has no pull_request)"
        ));
    };
    let Some(repo) = &gh.repository else {
        return skip("GITHUB_REPOSITORY is not set");
    };
    let Some(token) = &gh.token else {
        return skip(
            "GITHUB_TOKEN is not set (give the action `github-token`, with pull-requests: write)",
        );
    };
    let (owner, name) = github::split_repo(repo)?;
    let marker = comment::marker(&s.comment_id);
    let posted = comment::upsert(
        &comment::Target {
            api_url: &gh.api_url,
            token,
            owner,
            repo: name,
            number: pr.number,
            marker: &marker,
            author: s.comment_author.as_deref(),
            from_fork: pr.from_fork,
        },
        body,
    )
    .await?;
    Ok(posted)
}

/// Posts the comment and returns its URL, adding a notice to `report` when it was skipped
/// or failed.
pub(crate) async fn comment_on_pr(
    gh: &GithubEnv,
    s: &CiSettings,
    body: &str,
    report: &mut CiReport,
) -> String {
    match post_comment(gh, s, body).await {
        Ok(comment::Posted::Created { url }) | Ok(comment::Posted::Updated { url }) => {
            crate::elog!("toolgate: pull-request comment {url}");
            url
        }
        Ok(comment::Posted::Skipped { reason }) if reason.starts_with(NOT_A_PR) => {
            crate::elog!("toolgate: no pull-request comment: {reason}");
            String::new()
        }
        Ok(comment::Posted::Skipped { reason }) => {
            notice(gh, &format!("no pull-request comment: {reason}"));
            report
                .notices
                .push(format!("No pull-request comment: {reason}."));
            String::new()
        }
        Err(e) => {
            let msg = format!("the pull-request comment failed: {e:#}");
            if gh.actions {
                crate::out::command(&format!(
                    "::warning title=toolgate comment::{}",
                    crate::report::github::escape_data(&msg)
                ));
            } else {
                crate::elog!("toolgate: warning: {msg}");
            }
            report.notices.push(format!("{msg}."));
            String::new()
        }
    }
}

/// Writes summary.md, ci.json, the job summary, step outputs and the PR comment for a run
/// that could not finish. Failures here are printed, never raised over the original error.
pub(crate) async fn report_error(s: &CiSettings, gh: &GithubEnv, error: &str) {
    let error = mask(error);
    let error: String = error.chars().take(4000).collect();
    let ctx = gh.context();
    let markdown = ci_report::error_markdown(&error, ctx.commit.as_deref(), ctx.run_url.as_deref());
    let json = CiJson::CouldNotRun(CiError::new(&error));
    let out = OutDir(s.out.clone());
    let written = std::fs::create_dir_all(&s.out).is_ok()
        && write_shown(&out.file(SUMMARY_MD), &markdown).is_ok()
        && crate::out::write_shown_json(&out.file(CI_JSON), &json).is_ok();
    if !written {
        crate::elog!(
            "toolgate: could not write the error report into {}",
            s.out.display()
        );
    }
    if !gh.actions {
        return;
    }
    if let Some(p) = &gh.step_summary
        && let Err(e) = github::outputs::write_summary(p, &markdown)
    {
        crate::elog!("toolgate: {e:#}");
    }
    if let Some(p) = &gh.output {
        let first_line = github::outputs::inert(&error);
        if let Err(e) =
            github::outputs::write_outputs(p, &[("passed", "false".into()), ("error", first_line)])
        {
            crate::elog!("toolgate: {e:#}");
        }
    }
    if s.comment {
        let body = format!("{}\n{markdown}", comment::marker(&s.comment_id));
        match post_comment(gh, s, &body).await {
            Ok(comment::Posted::Created { url }) | Ok(comment::Posted::Updated { url }) => {
                crate::elog!("toolgate: pull-request comment {url}");
            }
            Ok(comment::Posted::Skipped { reason }) => {
                crate::elog!("toolgate: no pull-request comment: {reason}");
            }
            Err(e) => crate::elog!("toolgate: warning: the pull-request comment failed: {e:#}"),
        }
    }
}

/// The job summary and the step outputs.
pub(crate) fn write_github(
    gh: &GithubEnv,
    r: &CiReport,
    summary: &str,
    comment_url: &str,
) -> anyhow::Result<()> {
    if let Some(p) = &gh.step_summary {
        github::outputs::write_summary(p, summary)?;
    }
    let Some(p) = &gh.output else {
        return Ok(());
    };
    let outs = StepOutputs::of(r, comment_url);
    let mut pairs: Vec<(&str, String)> = outs.pairs();
    // Report paths, named after their kind in ci.json (`run_json` → `run-json`).
    let paths: Vec<(String, String)> = r
        .outputs
        .iter()
        .map(|(k, v)| (k.replace('_', "-"), v.to_string()))
        .collect();
    pairs.extend(paths.iter().map(|(k, v)| (k.as_str(), v.clone())));
    github::outputs::write_outputs(p, &pairs)
}

/// The step outputs a workflow reads (`steps.<id>.outputs.<name>`), one field each; a run
/// that measured nothing (exit 2) has no score, and `error` says why instead.
struct StepOutputs {
    passed: bool,
    /// The first model's headline rate and its interval (empty when errored).
    score: String,
    score_low: String,
    score_high: String,
    /// `reviewed`, or `smoke`: no person approved the suite, so `score` is a smoke test.
    suite: &'static str,
    /// What `score` measures (tool accuracy, or findability@1 for a search).
    metric: String,
    /// Lint findings this change introduces against the base (empty: not compared).
    lint_introduced: String,
    lock_status: String,
    lint_errors: usize,
    lint_warnings: usize,
    catalog_sha256: String,
    suite_sha256: String,
    comment_url: String,
    /// Why the run measured nothing, on one line made inert for the shell.
    error: String,
    out_dir: String,
    /// The score's change against the base (empty: not compared).
    score_delta: String,
}

impl StepOutputs {
    fn of(r: &CiReport, comment_url: &str) -> StepOutputs {
        let errored = r.status == CiStatus::Errored;
        let first = r
            .run
            .results
            .first()
            .map(|m| &m.metrics.accuracy)
            .filter(|_| !errored);
        let score = |f: fn(&crate::score::Rate) -> f64| {
            first.map(|a| format!("{:.4}", f(a))).unwrap_or_default()
        };
        StepOutputs {
            passed: r.passed,
            score: score(|a| a.value),
            score_low: score(|a| a.lo),
            score_high: score(|a| a.hi),
            suite: if r.run.suite.reviewed() {
                "reviewed"
            } else {
                "smoke"
            },
            metric: r
                .run
                .results
                .first()
                .map(|m| crate::record::metric::name(&m.model).to_string())
                .unwrap_or_default(),
            lint_introduced: r
                .lint_delta
                .as_ref()
                .map(|d| d.introduced.len().to_string())
                .unwrap_or_default(),
            lock_status: r.lock.status.to_string(),
            lint_errors: r.lint.errors,
            lint_warnings: r.lint.warnings,
            catalog_sha256: r.catalog_sha256.clone(),
            suite_sha256: r.run.suite.sha256.clone(),
            comment_url: comment_url.to_string(),
            error: github::outputs::inert(&errored_cause(r)),
            out_dir: r
                .outputs
                .ci_json
                .as_deref()
                .and_then(|p| Path::new(p).parent())
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            score_delta: r
                .first_comparison()
                .filter(|_| !errored)
                .map(|m| format!("{:.4}", m.overall.delta))
                .unwrap_or_default(),
        }
    }

    /// The outputs by name, in the order the step writes them.
    fn pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("passed", self.passed.to_string()),
            ("score", self.score.clone()),
            ("suite", self.suite.to_string()),
            ("metric", self.metric.clone()),
            ("lint-introduced", self.lint_introduced.clone()),
            ("score-low", self.score_low.clone()),
            ("score-high", self.score_high.clone()),
            ("lock-status", self.lock_status.clone()),
            ("lint-errors", self.lint_errors.to_string()),
            ("lint-warnings", self.lint_warnings.to_string()),
            ("catalog-sha256", self.catalog_sha256.clone()),
            ("suite-sha256", self.suite_sha256.clone()),
            ("comment-url", self.comment_url.clone()),
            ("error", self.error.clone()),
            ("out-dir", self.out_dir.clone()),
            ("score-delta", self.score_delta.clone()),
        ]
    }
}

/// Why a run measured nothing, on one line (empty when it measured).
fn errored_cause(r: &CiReport) -> String {
    if r.status != CiStatus::Errored {
        return String::new();
    }
    let causes: Vec<String> = r
        .failures
        .iter()
        .filter(|f| f.exit() == crate::gate::Exit::CouldNotRun)
        .map(ToString::to_string)
        .collect();
    let text = if causes.is_empty() {
        r.reasons.join("; ")
    } else {
        causes.join("; ")
    };
    let line = text.lines().next().unwrap_or_default().to_string();
    if line.is_empty() {
        "the run measured nothing".to_string()
    } else {
        line
    }
}

//! The fork-safe comment: the evaluation job runs the pull request's code with a read-only
//! token and uploads its output folder; a `workflow_run` job, which never runs that code, holds
//! `pull-requests: write` and calls `toolgate ci --comment-from DIR` on the downloaded folder.
//!
//! The folder is untrusted (the pull request's code wrote it): each file is bounded in size
//! and must be a regular file; the comment is rendered again from the data (every string
//! escaped by the renderer), never copied; the commit, the run's link and the pull request come
//! from the `workflow_run` event GitHub wrote, and a report claiming a pass for a job that did
//! not succeed is shown as failed.

use std::path::Path;

use anyhow::{Context, bail};
use serde_json::Value;

use super::files::{CI_JSON, LINT_JSON};
use super::settings::CiSettings;
use crate::gate::Exit;
use crate::github::{self, GithubEnv, comment};
use crate::record::ci_json::CiJson;
use crate::record::lint::LintReport;
use crate::report::ci::{self as ci_report, CiStatus};

/// The largest artefact file read, in bytes.
pub(crate) const MAX_FILE: u64 = 16 * 1024 * 1024;

/// Reads `dir/name` when it is a regular file of at most [`MAX_FILE`] bytes.
fn read_bounded(dir: &Path, name: &str) -> anyhow::Result<Option<String>> {
    let path = dir.join(name);
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("could not read {}", path.display())),
    };
    if !meta.file_type().is_file() {
        bail!(
            "{} is not a regular file: a link or special file in an artefact is refused",
            path.display()
        );
    }
    if meta.len() > MAX_FILE {
        bail!(
            "{} is {} bytes, more than the {MAX_FILE} an artefact file may hold",
            path.display(),
            meta.len()
        );
    }
    std::fs::read_to_string(&path)
        .map(Some)
        .with_context(|| format!("could not read {}", path.display()))
}

/// What the `workflow_run` event (written by GitHub, trusted) says about the evaluation run.
#[derive(Debug)]
struct Evaluated {
    event: String,
    head_sha: String,
    head_label: Option<String>,
    conclusion: String,
    url: Option<String>,
    /// Pull requests GitHub lists for the run (empty for forks), with their head commit.
    prs: Vec<(u64, String)>,
}

fn evaluated(gh: &GithubEnv) -> anyhow::Result<Evaluated> {
    let Some(path) = &gh.event_path else {
        bail!("--comment-from runs in a `workflow_run` job: GITHUB_EVENT_PATH is not set");
    };
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("could not read GITHUB_EVENT_PATH {}", path.display()))?;
    let event: Value = serde_json::from_str(&text)
        .with_context(|| format!("GITHUB_EVENT_PATH {} is not JSON", path.display()))?;
    let Some(run) = event.get("workflow_run") else {
        bail!(
            "--comment-from runs in a job triggered by `workflow_run` (this event is `{}`)",
            gh.event_name.as_deref().unwrap_or("unknown")
        );
    };
    let s = |p: &str| run.pointer(p).and_then(Value::as_str).map(str::to_string);
    let head_label = match (s("/head_repository/owner/login"), s("/head_branch")) {
        (Some(owner), Some(branch)) => Some(format!("{owner}:{branch}")),
        _ => None,
    };
    let prs = run
        .get("pull_requests")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|p| {
                    Some((
                        p.get("number")?.as_u64()?,
                        p.pointer("/head/sha")?.as_str()?.to_string(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Evaluated {
        event: s("/event").unwrap_or_default(),
        head_sha: s("/head_sha").context("the workflow_run event has no head_sha")?,
        head_label,
        conclusion: s("/conclusion").unwrap_or_else(|| "unknown".into()),
        url: s("/html_url"),
        prs,
    })
}

/// The comment, rendered again from the artefact's data.
fn body(dir: &Path, run: &Evaluated) -> anyhow::Result<String> {
    let text = read_bounded(dir, CI_JSON)?
        .with_context(|| format!("{} holds no {CI_JSON}", dir.display()))?;
    let report = match serde_json::from_str::<CiJson>(&text).with_context(|| {
        format!(
            "{} is not a toolgate ci report",
            dir.join(CI_JSON).display()
        )
    })? {
        CiJson::Report(r) => r,
        CiJson::CouldNotRun(e) => {
            let error: String = e.error.chars().take(4000).collect();
            return Ok(ci_report::error_markdown(
                &error,
                Some(&run.head_sha),
                run.url.as_deref(),
            ));
        }
    };
    let mut report = *report;
    let lint: LintReport = match read_bounded(dir, LINT_JSON)? {
        Some(t) => serde_json::from_str(&t)
            .with_context(|| format!("{} is not a lint report", dir.join(LINT_JSON).display()))?,
        None => bail!("{} holds no {LINT_JSON}", dir.display()),
    };
    report.commit = Some(run.head_sha.clone());
    report.run_url = run.url.clone();
    if report.passed && run.conclusion != "success" {
        report.passed = false;
        report.status = CiStatus::Errored;
        report.reasons.push(format!(
            "the evaluation job ended `{}` although its report says it passed, so this comment \
             does not trust the report",
            run.conclusion
        ));
    }
    let full_run = crate::report::run::markdown_body(&report.run);
    Ok(ci_report::markdown(&report, &lint, &full_run))
}

/// The pull request whose head is the evaluated commit: from the event, else by the head's
/// `owner:branch` (forks), checked against the commit either way.
async fn find_pr(
    gh: &GithubEnv,
    run: &Evaluated,
    owner: &str,
    repo: &str,
    token: &str,
) -> anyhow::Result<Option<u64>> {
    if let Some((n, _)) = run.prs.iter().find(|(_, sha)| *sha == run.head_sha) {
        return Ok(Some(*n));
    }
    let Some(label) = &run.head_label else {
        return Ok(None);
    };
    let client = comment::client(&gh.api_url, token)?;
    let pulls: Value = client
        .get(
            format!("/repos/{owner}/{repo}/pulls"),
            Some(&[("head", label.as_str()), ("state", "open")]),
        )
        .await
        .context("could not list the pull requests of the evaluated branch")?;
    Ok(pulls.as_array().and_then(|a| {
        a.iter().find_map(|p| {
            (p.pointer("/head/sha").and_then(Value::as_str) == Some(run.head_sha.as_str()))
                .then(|| p.get("number").and_then(Value::as_u64))
                .flatten()
        })
    }))
}

/// Posts the comment from the evaluation job's output folder `dir`.
pub(crate) async fn run(dir: &Path, s: &CiSettings, gh: &GithubEnv) -> anyhow::Result<Exit> {
    let run = evaluated(gh)?;
    if !run.event.starts_with("pull_request") {
        crate::elog!(
            "toolgate: the evaluated run was for a `{}` event, not a pull request: no comment",
            run.event
        );
        return Ok(Exit::Pass);
    }
    let body = body(dir, &run)?;
    let repo = gh
        .repository
        .as_deref()
        .context("GITHUB_REPOSITORY is not set")?;
    let token = gh
        .token
        .as_deref()
        .context("GITHUB_TOKEN is not set (give the job pull-requests: write)")?;
    let (owner, name) = github::split_repo(repo)?;
    let Some(number) = find_pr(gh, &run, owner, name, token).await? else {
        crate::elog!(
            "toolgate: no open pull request has the evaluated commit {} as its head: no comment",
            run.head_sha
        );
        return Ok(Exit::Pass);
    };
    let marker = comment::marker(&s.comment_id);
    let body = crate::secrets::shown::mask_shown(&format!("{marker}\n{body}"));
    let posted = comment::upsert(
        &comment::Target {
            api_url: &gh.api_url,
            token,
            owner,
            repo: name,
            number,
            marker: &marker,
            author: s.comment_author.as_deref(),
            from_fork: false,
        },
        &body,
    )
    .await?;
    match posted {
        comment::Posted::Created { url } | comment::Posted::Updated { url } => {
            crate::elog!("toolgate: pull-request comment {url}");
        }
        comment::Posted::Skipped { reason } => crate::elog!("toolgate: no comment: {reason}"),
    }
    Ok(Exit::Pass)
}

//! The sticky pull-request comment: exactly one per pull request (and comment id), found by
//! a hidden marker *and* its author, updated in place on every push. A comment by anyone
//! else is never edited, whatever it says. A read-only token (a pull request from a fork)
//! skips the comment with a notice; it never fails the gate.

use std::time::Duration;

use anyhow::Context;
use octocrab::Octocrab;
use octocrab::models::issues::Comment;
use serde::Serialize;

/// The author GitHub shows for comments made with a workflow's `GITHUB_TOKEN`.
pub(crate) const ACTIONS_BOT: &str = "github-actions[bot]";

/// The hidden first line that marks toolgate's comment; `id` tells several apart.
pub(crate) fn marker(id: &str) -> String {
    let id: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        .collect();
    format!("<!-- toolgate:comment {id} -->")
}

/// Where the comment goes.
pub(crate) struct Target<'a> {
    pub api_url: &'a str,
    pub token: &'a str,
    pub owner: &'a str,
    pub repo: &'a str,
    pub number: u64,
    pub marker: &'a str,
    /// Login whose comment may be edited; `None`: ask the API who the token is, else
    /// [`ACTIONS_BOT`].
    pub author: Option<&'a str>,
    /// The pull request comes from a fork (whose token GitHub makes read-only).
    pub from_fork: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "lowercase")]
pub(crate) enum Posted {
    Created { url: String },
    Updated { url: String },
    Skipped { reason: String },
}

fn status_of(e: &octocrab::Error) -> Option<u16> {
    match e {
        octocrab::Error::GitHub { source, .. } => Some(source.status_code.as_u16()),
        _ => None,
    }
}

fn message_of(e: &octocrab::Error) -> String {
    match e {
        octocrab::Error::GitHub { source, .. } => {
            format!("HTTP {}: {}", source.status_code.as_u16(), source.message)
        }
        other => {
            // octocrab's Display names its error variants; keep the first line only.
            other
                .to_string()
                .lines()
                .next()
                .unwrap_or_default()
                .to_string()
        }
    }
}

fn read_only(e: &octocrab::Error, what: &str, from_fork: bool) -> Option<Posted> {
    let why = if from_fork {
        "this pull request comes from a fork, and GitHub gives fork pull requests a read-only token"
    } else {
        "give the workflow `permissions: pull-requests: write`, or pass a token that may comment"
    };
    matches!(status_of(e), Some(401 | 403)).then(|| Posted::Skipped {
        reason: format!(
            "the token may not {what} ({}): {why}. No comment was posted; the gate still ran",
            message_of(e)
        ),
    })
}

pub(crate) fn client(api_url: &str, token: &str) -> anyhow::Result<Octocrab> {
    Octocrab::builder()
        .base_uri(api_url)
        .with_context(|| format!("GITHUB_API_URL `{api_url}` is not a URL"))?
        .personal_token(token.to_string())
        .set_connect_timeout(Some(Duration::from_secs(10)))
        .set_read_timeout(Some(Duration::from_secs(30)))
        .build()
        .context("could not build the GitHub client")
}

/// Creates toolgate's comment, or updates the one it made before.
pub(crate) async fn upsert(t: &Target<'_>, body: &str) -> anyhow::Result<Posted> {
    let crab = client(t.api_url, t.token)?;
    let author = match t.author {
        Some(a) => a.to_string(),
        // An installation token (GITHUB_TOKEN) may not read /user; its comments are the bot's.
        None => match crab.current().user().await {
            Ok(user) => user.login,
            Err(_) => ACTIONS_BOT.to_string(),
        },
    };
    let issues = crab.issues(t.owner, t.repo);
    let first = match issues.list_comments(t.number).per_page(100).send().await {
        Ok(p) => p,
        Err(e) => {
            if let Some(skip) = read_only(&e, "read the pull request's comments", t.from_fork) {
                return Ok(skip);
            }
            anyhow::bail!(
                "could not list the comments of {}/{}#{}: {}",
                t.owner,
                t.repo,
                t.number,
                message_of(&e)
            );
        }
    };
    let all: Vec<Comment> = crab
        .all_pages(first)
        .await
        .map_err(|e| anyhow::anyhow!("could not page through the comments: {}", message_of(&e)))?;
    let ours = all.iter().find(|c| {
        c.user.login.eq_ignore_ascii_case(&author)
            && c.body
                .as_deref()
                .is_some_and(|b| b.trim_start().starts_with(t.marker))
    });
    let result = match ours {
        Some(c) => issues
            .update_comment(c.id, body)
            .await
            .map(|c| Posted::Updated {
                url: c.html_url.to_string(),
            }),
        None => issues
            .create_comment(t.number, body)
            .await
            .map(|c| Posted::Created {
                url: c.html_url.to_string(),
            }),
    };
    match result {
        Ok(p) => Ok(p),
        Err(e) => match read_only(&e, "write pull-request comments", t.from_fork) {
            Some(skip) => Ok(skip),
            None => anyhow::bail!("could not post the comment: {}", message_of(&e)),
        },
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn marker_keeps_only_safe_characters() {
        assert_eq!(
            super::marker("api --> x"),
            "<!-- toolgate:comment api--x -->"
        );
    }
}

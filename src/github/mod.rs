//! GitHub: the Actions environment (read once from GitHub's standard variables, so GitHub
//! Enterprise works too), the job summary and step outputs, and the sticky pull-request
//! comment (octocrab).

pub(crate) mod access;
pub(crate) mod comment;
pub(crate) mod outputs;

use std::path::PathBuf;

use anyhow::Context;

/// What GitHub Actions tells a step through its environment.
#[derive(Clone, Default)]
pub(crate) struct GithubEnv {
    /// `GITHUB_ACTIONS=true`.
    pub actions: bool,
    /// `GITHUB_API_URL` (default `https://api.github.com`).
    pub api_url: String,
    /// `GITHUB_REPOSITORY`: `owner/name`.
    pub repository: Option<String>,
    pub event_name: Option<String>,
    pub event_path: Option<PathBuf>,
    /// `TOOLGATE_GITHUB_TOKEN`, else `GITHUB_TOKEN` (never printed: see the Debug impl).
    pub token: Option<String>,
    pub step_summary: Option<PathBuf>,
    pub output: Option<PathBuf>,
    /// `GITHUB_SHA`, `GITHUB_SERVER_URL`, `GITHUB_RUN_ID`: what the report links to.
    pub sha: Option<String>,
    pub server_url: Option<String>,
    pub run_id: Option<String>,
    /// `GITHUB_RUN_NUMBER`: counts the workflow's runs (for `--full-every`).
    pub run_number: Option<u64>,
}

/// Where a report came from: the commit it is about and the workflow run that made it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RunContext {
    pub commit: Option<String>,
    pub run_url: Option<String>,
}

impl std::fmt::Debug for GithubEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GithubEnv")
            .field("actions", &self.actions)
            .field("api_url", &self.api_url)
            .field("repository", &self.repository)
            .field("event_name", &self.event_name)
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

impl GithubEnv {
    pub(crate) fn from_env() -> Self {
        GithubEnv {
            actions: var("GITHUB_ACTIONS").is_some_and(|v| v == "true"),
            api_url: var("GITHUB_API_URL").unwrap_or_else(|| "https://api.github.com".into()),
            repository: var("GITHUB_REPOSITORY"),
            event_name: var("GITHUB_EVENT_NAME"),
            event_path: var("GITHUB_EVENT_PATH").map(PathBuf::from),
            // The action passes its `github-token` input as TOOLGATE_GITHUB_TOKEN.
            token: crate::secrets::secret_var("TOOLGATE_GITHUB_TOKEN")
                .or_else(|| crate::secrets::secret_var("GITHUB_TOKEN")),
            step_summary: var("GITHUB_STEP_SUMMARY").map(PathBuf::from),
            output: var("GITHUB_OUTPUT").map(PathBuf::from),
            sha: var("GITHUB_SHA"),
            server_url: var("GITHUB_SERVER_URL"),
            run_id: var("GITHUB_RUN_ID"),
            run_number: var("GITHUB_RUN_NUMBER").and_then(|n| n.parse().ok()),
        }
    }

    /// The commit (a pull request's head, not the merge commit GitHub checks out) and the
    /// workflow run's URL, when known.
    pub(crate) fn context(&self) -> RunContext {
        if !self.actions {
            return RunContext::default();
        }
        let head = self
            .pull_request()
            .ok()
            .flatten()
            .and_then(|pr| pr.head_sha);
        let run_url = match (&self.server_url, &self.repository, &self.run_id) {
            (Some(s), Some(r), Some(id)) => {
                Some(format!("{}/{r}/actions/runs/{id}", s.trim_end_matches('/')))
            }
            _ => None,
        };
        RunContext {
            commit: head.or_else(|| self.sha.clone()),
            run_url,
        }
    }

    /// The pull request this workflow run is about, read from the event payload.
    pub(crate) fn pull_request(&self) -> anyhow::Result<Option<PullRequest>> {
        let Some(path) = &self.event_path else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("could not read GITHUB_EVENT_PATH {}", path.display()))?;
        let event: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("GITHUB_EVENT_PATH {} is not JSON", path.display()))?;
        Ok(PullRequest::from_event(&event))
    }
}

/// The parts of a pull-request event toolgate uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PullRequest {
    pub number: u64,
    /// The head branch lives in another repository (a fork): its token is usually read-only.
    pub from_fork: bool,
    pub head_sha: Option<String>,
    /// The base revision the pull request merges into.
    pub base_sha: Option<String>,
    /// The pull request's labels (a maintainer's override is one).
    pub labels: Vec<String>,
    /// The pull request's author (`pull_request.user.login`).
    pub author: Option<String>,
    /// When this run is a `labeled` event: the label just added and who added it. An override
    /// label counts only on its own event (it then covers the commit it was added on, not a
    /// later push) and only from someone other than the author.
    pub labeled: Option<(String, String)>,
}

impl PullRequest {
    pub(crate) fn from_event(event: &serde_json::Value) -> Option<Self> {
        let pr = event.get("pull_request")?;
        let number = pr
            .get("number")
            .or_else(|| event.get("number"))
            .and_then(|n| n.as_u64())?;
        let head = pr.pointer("/head/repo/full_name").and_then(|v| v.as_str());
        let base = pr.pointer("/base/repo/full_name").and_then(|v| v.as_str());
        let from_fork = pr
            .pointer("/head/repo/fork")
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
            || matches!((head, base), (Some(h), Some(b)) if h != b);
        let head_sha = pr
            .pointer("/head/sha")
            .and_then(|v| v.as_str())
            .map(str::to_string);
        let base_sha = pr
            .pointer("/base/sha")
            .and_then(|v| v.as_str())
            .map(str::to_string);
        let labels = pr
            .get("labels")
            .and_then(|l| l.as_array())
            .map(|ls| {
                ls.iter()
                    .filter_map(|l| l.get("name").and_then(|n| n.as_str()))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let author = pr
            .pointer("/user/login")
            .and_then(|v| v.as_str())
            .map(str::to_string);
        let labeled = (event.get("action").and_then(|a| a.as_str()) == Some("labeled"))
            .then(|| {
                let label = event.pointer("/label/name")?.as_str()?.to_string();
                let sender = event.pointer("/sender/login")?.as_str()?.to_string();
                Some((label, sender))
            })
            .flatten();
        Some(PullRequest {
            number,
            from_fork,
            head_sha,
            base_sha,
            labels,
            author,
            labeled,
        })
    }
}

/// Splits `owner/name`.
pub(crate) fn split_repo(repo: &str) -> anyhow::Result<(&str, &str)> {
    match repo.split_once('/') {
        Some((o, n)) if !o.is_empty() && !n.is_empty() && !n.contains('/') => Ok((o, n)),
        _ => anyhow::bail!("GITHUB_REPOSITORY `{repo}` is not owner/name"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_pull_request_events() {
        let same = json!({"number": 7, "pull_request": {"number": 7,
            "head": {"repo": {"full_name": "o/r", "fork": false}},
            "base": {"repo": {"full_name": "o/r"}}}});
        assert_eq!(
            PullRequest::from_event(&same),
            Some(PullRequest {
                number: 7,
                from_fork: false,
                head_sha: None,
                base_sha: None,
                labels: vec![],
                author: None,
                labeled: None,
            })
        );
        let fork = json!({"pull_request": {"number": 8,
            "head": {"repo": {"full_name": "someone/r", "fork": true}},
            "base": {"repo": {"full_name": "o/r"}}}});
        assert!(PullRequest::from_event(&fork).unwrap().from_fork);
        assert_eq!(
            PullRequest::from_event(&json!({"ref": "refs/heads/main"})),
            None
        );
    }

    #[test]
    fn repository_must_be_owner_slash_name() {
        assert_eq!(split_repo("o/r").unwrap(), ("o", "r"));
        assert!(split_repo("o").is_err());
        assert!(split_repo("o/r/x").is_err());
    }

    #[test]
    fn debug_never_shows_the_token() {
        let env = GithubEnv {
            token: Some("ghs_secretvalue".into()),
            ..Default::default()
        };
        assert!(!format!("{env:?}").contains("ghs_secretvalue"));
    }
}

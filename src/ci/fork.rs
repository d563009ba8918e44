//! Pull requests from forks (and Dependabot's) run without the repository's secrets: an LLM
//! model whose key is missing there is skipped with a notice instead of failing the check of
//! every outside contribution. The offline checks still gate: the lock, lint, and BM25 (which
//! stands in when no model is left).

use crate::error::ProviderError;
use crate::github::GithubEnv;
use crate::models::{ModelKind, ModelSpec, provider};

use super::CiSettings;

/// This run is on GitHub Actions for a pull-request event.
fn in_pull_request(gh: &GithubEnv) -> bool {
    gh.actions
        && gh
            .event_name
            .as_deref()
            .is_some_and(|e| e.starts_with("pull_request"))
}

/// Why this run has no secrets, when it is a pull request GitHub gives none.
fn secretless(gh: &GithubEnv) -> Option<&'static str> {
    if !in_pull_request(gh) {
        return None;
    }
    if std::env::var("GITHUB_ACTOR").is_ok_and(|a| a == "dependabot[bot]") {
        return Some("Dependabot's pull requests");
    }
    match gh.pull_request() {
        Ok(Some(pr)) if pr.from_fork => Some("pull requests from forks"),
        _ => None,
    }
}

/// The model's missing key variable, when it needs one that this environment lacks.
fn missing_key(spec: &ModelSpec, base_url: Option<&str>) -> Option<String> {
    let ModelKind::Llm(p) = spec.kind() else {
        return None;
    };
    match provider::endpoint(p, base_url, None) {
        Err(e) => e
            .downcast_ref::<ProviderError>()
            .map(|ProviderError::MissingKey { var, .. }| var.clone()),
        Ok(_) => None,
    }
}

/// On a secretless pull request, drops the models whose key is missing (BM25 stands in when
/// none is left) and returns the notice that says so.
pub(crate) fn skip_keyless(s: &mut CiSettings, gh: &GithubEnv) -> Option<String> {
    let why = secretless(gh)?;
    let (skipped, kept): (Vec<ModelSpec>, Vec<ModelSpec>) = s
        .eval
        .models
        .iter()
        .cloned()
        .partition(|m| missing_key(m, s.base_url.as_deref()).is_some());
    if skipped.is_empty() {
        return None;
    }
    let vars: Vec<String> = skipped
        .iter()
        .filter_map(|m| missing_key(m, s.base_url.as_deref()))
        .collect();
    let names: Vec<String> = skipped.iter().map(|m| format!("`{m}`")).collect();
    let stand_in = if kept.is_empty() {
        s.eval.models = vec![crate::models::ModelSpec::bm25()];
        "; the offline BM25 router gates in their place (the thresholds apply to it)"
    } else {
        s.eval.models = kept;
        ""
    };
    Some(format!(
        "{} skipped: GitHub gives {why} no secrets ({} not set). The lock, lint and offline \
         checks still gate{stand_in}; the LLM scores are measured when the change is merged \
         or a maintainer runs the workflow.",
        names.join(", "),
        vars.join(", ")
    ))
}

/// In a pull request, `pass_env` may not hand the server GitHub's token or a provider key:
/// the server is the pull request's own code, and the names may come from its own config.
/// Drops such names from `lists` and returns the notice that says so.
pub(crate) fn keep_credentials_from_pr(
    gh: &GithubEnv,
    lists: &mut [&mut Vec<String>],
) -> Option<String> {
    if !in_pull_request(gh) {
        return None;
    }
    let mut dropped: Vec<String> = Vec::new();
    for list in lists.iter_mut() {
        list.retain(|name| {
            let credential = crate::secrets::SECRET_VARS.contains(&name.trim());
            if credential && !dropped.iter().any(|d| d == name.trim()) {
                dropped.push(name.trim().to_string());
            }
            !credential
        });
    }
    if dropped.is_empty() {
        return None;
    }
    Some(format!(
        "pass_env names {} in a pull request: the server under test is the pull request's code, \
         so it does not get GitHub's token or a provider key; give it a credential of its own \
         under another name",
        dropped.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pull_request_cannot_pass_the_token_or_a_provider_key() {
        let gh = GithubEnv {
            actions: true,
            event_name: Some("pull_request".into()),
            ..Default::default()
        };
        let mut flags = vec!["GITHUB_TOKEN".to_string(), "BRAVE_API_KEY".into()];
        let mut file = vec!["OPENAI_API_KEY".to_string()];
        let notice = keep_credentials_from_pr(&gh, &mut [&mut flags, &mut file]).unwrap();
        assert_eq!(flags, ["BRAVE_API_KEY"]);
        assert!(file.is_empty());
        assert!(notice.contains("GITHUB_TOKEN, OPENAI_API_KEY"), "{notice}");
        let push = GithubEnv {
            actions: true,
            event_name: Some("push".into()),
            ..Default::default()
        };
        let mut keep = vec!["GITHUB_TOKEN".to_string()];
        assert!(keep_credentials_from_pr(&push, &mut [&mut keep]).is_none());
        assert_eq!(keep, ["GITHUB_TOKEN"]);
    }
}

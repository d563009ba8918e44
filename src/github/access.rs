//! Who may do what on the repository: a collaborator's permission, read through the API
//! (`GET /repos/{owner}/{repo}/collaborators/{login}/permission`, which the workflow token's
//! always-granted `metadata: read` allows).

use super::comment::client;

/// `admin`, `maintain`, `write`, `triage`, `read` or `none` (the API's `role_name`, else its
/// older `permission`).
pub(crate) async fn permission(
    api_url: &str,
    token: &str,
    repository: &str,
    login: &str,
) -> anyhow::Result<String> {
    let (owner, repo) = super::split_repo(repository)?;
    if login.is_empty()
        || !login
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '[' || c == ']')
    {
        anyhow::bail!("`{login}` is not a GitHub login");
    }
    let crab = client(api_url, token)?;
    let v: serde_json::Value = crab
        .get(
            format!("/repos/{owner}/{repo}/collaborators/{login}/permission"),
            None::<&()>,
        )
        .await
        .map_err(|e| anyhow::anyhow!("could not read {login}'s permission: {e}"))?;
    let role = v
        .get("role_name")
        .or_else(|| v.get("permission"))
        .and_then(|r| r.as_str())
        .unwrap_or("none");
    Ok(role.to_string())
}

/// True for the roles that may merge: the only ones whose override counts.
pub(crate) fn may_merge(role: &str) -> bool {
    matches!(role, "admin" | "maintain" | "write")
}

//! What `toolgate init` writes: a commented starter toolgate.toml and a GitHub workflow that
//! runs `toolgate ci` (zizmor- and actionlint-clean).

pub const ACTION_REF: &str = "toolgate-dev/toolgate@v1";

fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

pub fn config_text(server: Option<&str>) -> String {
    let server_line = match server {
        Some(s) => format!("server = {}\n", toml_string(s)),
        None => "# A command line (stdio), an http(s) URL (Streamable HTTP) or a snapshot .json file.\nserver = \"npx -y @modelcontextprotocol/server-memory\"\n".into(),
    };
    format!(
        r#"# toolgate.toml: read by every toolgate command; flags override it.
# Docs: `toolgate --help`, `toolgate ci --help`, `toolgate rules`.

{server_line}
# The lock of the reviewed tool definitions (`toolgate pin` writes it; commit it).
lock = "toolgate.lock"

[connect]
# connect_timeout = 60        # seconds for start-up and the MCP handshake
# request_timeout = 30        # seconds per tools/list page
# headers = ["X-Tenant: demo"]  # extra HTTP headers for URL servers
# bearer_env = "MY_SERVER_TOKEN"  # variable holding a bearer token (never printed)
# pass_env = ["GITHUB_TOKEN"]   # credentials the server may see (toolgate strips them by default)

[lint]
# ignore_tools = ["debug_echo"]
# [lint.rules.TG003]            # a rule by code or slug
# level = "off"                 # off | info | warning | error
# ignore_tools = ["legacy_search"]

[ci]
# The task file (JSONL). Make one with `toolgate generate -o tasks.jsonl`, review it, commit it.
# Without one, tasks are generated on every run and cannot be compared with a base.
# tasks = "tasks.jsonl"
# Models: bm25 (offline, default), or e.g. "openai:gpt-4o-mini", "anthropic:claude-3-5-haiku-latest",
# "ollama:qwen2.5:7b". Keys come from the provider's own variable (OPENAI_API_KEY, ...).
models = ["bm25"]
# trials = 3                  # per task, for models that are not deterministic
# split = "all"               # all | dev | heldout
# Fail when overall tool accuracy is below this rate (0-1).
# fail_under = 0.6
# Fail when any single tool's accuracy is below this rate.
# min_tool_accuracy = 0.3
lint_fail_on = "error"        # error | warning | never
lock_check = "fail"           # fail | warn | off
out = "toolgate-out"
# The base to compare with: a baseline file committed on the default branch
# (`toolgate ci --write-baseline toolgate-baseline.json`) or a downloaded output directory.
# base = "toolgate-baseline.json"
# badge = "toolgate-badge.svg"
# comment = true              # post/update one pull-request comment (GitHub)
# comment_id = "default"      # tells several toolgate comments on one PR apart
# alpha = 0.05                # significance level of the paired tests
# max_calls = 2000            # stop paying after this many provider calls
"#
    )
}

/// `uses:` for the action: a SHA pin as given, or the tag with a note to pin it (zizmor's
/// unpinned-uses audit is told why it is allowed until then).
fn action_line(action_ref: Option<&str>) -> String {
    let r = action_ref.unwrap_or(ACTION_REF);
    let pinned = r
        .rsplit_once('@')
        .is_some_and(|(_, sha)| sha.len() == 40 && sha.chars().all(|c| c.is_ascii_hexdigit()));
    if pinned {
        r.to_string()
    } else {
        format!(
            "{r} # zizmor: ignore[unpinned-uses] -- pin it: `toolgate init --action-ref OWNER/toolgate@<release commit SHA>`"
        )
    }
}

pub fn workflow_text(action_ref: Option<&str>) -> String {
    let action = action_line(action_ref);
    format!(
        r#"# Runs toolgate on every pull request: pin check, lint, evaluation, comparison with the
# committed baseline, a job summary and one sticky comment. Written by `toolgate init`.
name: toolgate

on:
  pull_request:
  push:
    branches: [main]

permissions: {{}}

jobs:
  toolgate:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      pull-requests: write   # the sticky comment; fork PRs get a read-only token and skip it
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - uses: {action}
        id: toolgate
        with:
          config: toolgate.toml
          base: toolgate-baseline.json
          comment: ${{{{ github.event_name == 'pull_request' }}}}
          # For an LLM, add `model: openai:gpt-4o-mini` above and its key below.
        # env:
        #   OPENAI_API_KEY: ${{{{ secrets.OPENAI_API_KEY }}}}
      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2
        if: always()
        with:
          name: toolgate
          path: toolgate-out
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starter_config_is_valid() {
        for server in [None, Some("python3 \"my server.py\"")] {
            let text = config_text(server);
            let c: crate::config::Config = toml::from_str(&text).unwrap();
            assert!(c.server.is_some());
            assert_eq!(c.ci.models.as_deref(), Some(&["bm25".to_string()][..]));
            assert_eq!(c.ci.lock_check, Some(crate::gate::LockCheck::Fail));
        }
    }

    #[test]
    fn the_workflow_has_expressions_intact() {
        let w = workflow_text(None);
        let pinned = workflow_text(Some("me/toolgate@0123456789abcdef0123456789abcdef01234567"));
        assert!(pinned.contains("uses: me/toolgate@0123456789abcdef0123456789abcdef01234567\n"));
        assert!(
            w.contains("${{ github.event_name == 'pull_request' }}"),
            "{w}"
        );
        assert!(w.contains(ACTION_REF));
    }
}

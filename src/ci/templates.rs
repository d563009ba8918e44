//! What `toolgate init` writes: a commented starter toolgate.toml and a GitHub workflow that
//! runs `toolgate ci` (zizmor- and actionlint-clean).

pub const ACTION_REF: &str = "toolgate-dev/toolgate@v1";

fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// The `[connect]` lines for the settings `connect` gives (none for header values, which may be
/// credentials: they stay in the environment).
pub(crate) fn connect_lines(connect: &crate::config::ConnectConfig) -> String {
    let mut c = connect.clone();
    c.headers.clear();
    let text = toml::to_string(&c).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_end().ends_with("= []"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[cfg(test)]
pub(crate) fn config_text(server: Option<&str>, tasks: Option<&str>) -> String {
    config_text_with(server, tasks, "")
}

/// [`config_text`] with `connect` (from [`connect_lines`]) as the live lines of `[connect]`.
pub(crate) fn config_text_with(server: Option<&str>, tasks: Option<&str>, connect: &str) -> String {
    let tasks_line = match tasks {
        Some(t) => format!(
            "# {t} was written by `toolgate init` and is pending review: read it, fix or drop what is\n# wrong, then `toolgate approve {t}` (until then its score is a smoke test).\ntasks = {}\n",
            toml_string(t)
        ),
        None => "# tasks = \"tasks.jsonl\"\n".into(),
    };
    let server_line = match server {
        Some(s) => format!("server = {}\n", toml_string(s)),
        None => "# FILL IN: your server, then run `toolgate pin`. A command line started over stdio\n# (server = \"node dist/index.js\", server = \"uv run my-server\"), an http(s) URL spoken to\n# over Streamable HTTP, or a snapshot .json file. Until it is set, toolgate asks for one.\n# server = \"node dist/index.js\"\n".into(),
    };
    format!(
        r#"# toolgate.toml: read by every toolgate command; flags override it.
# Docs: `toolgate --help`, `toolgate ci --help`, `toolgate rules`.

{server_line}
# The lock of the reviewed tool definitions (`toolgate pin` writes it; commit it).
lock = "toolgate.lock"

[connect]
{connect}# connect_timeout = 60        # seconds for start-up and the MCP handshake
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
{tasks_line}# Models: bm25 (offline, default: a search over the definitions, so its score is findability,
# not tool accuracy; tool accuracy needs a model that chooses), or e.g. "openai:gpt-4o-mini", "anthropic:claude-3-5-haiku-latest",
# "ollama:qwen2.5:7b". Keys come from the provider's own variable (OPENAI_API_KEY, ...).
models = ["bm25"]
# trials = 3                  # per task, for models that are not deterministic
# split = "all"               # all | dev | heldout
# Fail when a model's overall score is below this rate (0-1): tool accuracy for a model that
# chooses (an LLM), findability@1 for bm25 (a search over the definitions, not a model).
# fail_under = 0.6
# Fail when any single tool's score is below this rate.
# min_tool_accuracy = 0.3
lint_fail_on = "error"        # error | warning | never
# A pull request fails on lint findings it introduces at or above this (matched against the
# base revision's definitions by rule, tools and pointer): two tools given the same text and
# parameters, a deprecated tool left beside its replacement, a copied description.
fail_on_new = "warning"       # error | warning | never
lock_check = "fail"           # fail | warn | off
out = "toolgate-out"
# The base to compare with: the output of the last successful run on the default branch, which
# the workflow (toolgate.yml) downloads here before the gate (none on the first run: a notice).
# A committed baseline file works too: `toolgate ci --write-baseline toolgate-baseline.json`,
# commit it, and set base = "toolgate-baseline.json".
base = "toolgate-base"
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
pub(crate) fn action_line(action_ref: Option<&str>) -> String {
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

pub(crate) const DOWNLOAD: &str =
    "actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0";

/// The fork-safe comment workflow: on `workflow_run` of the evaluation, it downloads the
/// run's `toolgate` artefact and posts the comment from it (`ci --comment-from`), running none
/// of the pull request's code; the only job that may write pull-request comments.
pub(crate) fn comment_workflow_text(action_ref: Option<&str>) -> String {
    let action = action_line(action_ref);
    format!(
        "# Posts toolgate's sticky comment on every pull request, forks included. The evaluation
# (toolgate.yml) runs the pull request's code with a read-only token and uploads its output;
# this workflow checks out nothing and runs none of that code: it downloads the run's
# `toolgate` artefact and renders the comment again from its data, treating it as untrusted
# (sizes bounded, every string escaped, commit and pull request taken from the event).
# Written by `toolgate init`.
name: toolgate comment

on:
  workflow_run:  # zizmor: ignore[dangerous-triggers] -- no checkout, no code of the pull request runs here; the artefact is read as untrusted data
    workflows: [toolgate]
    types: [completed]

permissions: {{}}

jobs:
  comment:
    if: ${{{{ github.event.workflow_run.event == 'pull_request' }}}}
    runs-on: ubuntu-latest
    permissions:
      actions: read          # the evaluation run's artefact
      pull-requests: write   # the sticky comment
    steps:
      - uses: {DOWNLOAD}
        with:
          name: toolgate
          path: ${{{{ runner.temp }}}}/toolgate-artifact
          run-id: ${{{{ github.event.workflow_run.id }}}}
          github-token: ${{{{ github.token }}}}
      - uses: {action}
        with:
          comment-from: ${{{{ runner.temp }}}}/toolgate-artifact
"
    )
}

#[cfg(test)]
#[path = "templates_tests.rs"]
mod tests;

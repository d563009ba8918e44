//! What `toolgate init` writes: a commented starter toolgate.toml and a GitHub workflow that
//! runs `toolgate ci` (zizmor- and actionlint-clean).

pub const ACTION_REF: &str = "toolgate-dev/toolgate@v1";

fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// The `[connect]` lines for the settings `connect` gives (none for header values, which may be
/// credentials: they stay in the environment).
pub fn connect_lines(connect: &crate::config::ConnectConfig) -> String {
    let mut c = connect.clone();
    c.headers.clear();
    let text = toml::to_string(&c).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_end().ends_with("= []"))
        .map(|l| format!("{l}\n"))
        .collect()
}

pub fn config_text(server: Option<&str>, tasks: Option<&str>) -> String {
    config_text_with(server, tasks, "")
}

/// [`config_text`] with `connect` (from [`connect_lines`]) as the live lines of `[connect]`.
pub fn config_text_with(server: Option<&str>, tasks: Option<&str>, connect: &str) -> String {
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

/// What the workflow `toolgate init` writes does besides the gate.
#[derive(Clone, Debug, Default)]
pub struct WorkflowOptions<'a> {
    /// `uses:` of the action (pinned or the tag).
    pub action_ref: Option<&'a str>,
    /// Split the evaluation over a matrix of this many jobs and gate in one fan-in job.
    pub shards: Option<u32>,
    /// Publish the badge (SVG and shields endpoint JSON) from the default branch to the
    /// `toolgate-badge` branch in a job of its own, the only one that may write.
    pub publish_badge: bool,
}

const CHECKOUT: &str =
    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
          # History, so toolgate reads the gate settings and reviewed files of the base
          # revision: a pull request cannot move its own goalposts.
          fetch-depth: 0
";
const UPLOAD: &str = "actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2";
const DOWNLOAD: &str =
    "actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0";

/// The gate step's inputs, shared by the one-job and the fan-in workflow.
const GATE_INPUTS: &str = "          config: toolgate.toml
          base: toolgate-baseline.json
          # The comment is posted by toolgate-comment.yml (fork-safe): this job runs the pull
          # request's code, so it holds a read-only token.
          comment: false
          # incremental: true   # re-run only the tasks a change can reach (LLM suites)
";
const LLM_HINT: &str =
    "          # Without a model the gate measures findability (a search over the definitions),
          # not tool accuracy. For tool accuracy add `model: openai:gpt-4o-mini` and
          # `max-cost: \"2\"` (dollars; the estimate is printed first) above and its key below;
          # restore .toolgate-cache with actions/cache so an unchanged PR costs 0 calls.
        # env:
        #   OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}
";

/// The fork-safe comment workflow: on `workflow_run` of the evaluation, it downloads the
/// run's `toolgate` artefact and posts the comment from it (`ci --comment-from`), running none
/// of the pull request's code; the only job that may write pull-request comments.
pub fn comment_workflow_text(action_ref: Option<&str>) -> String {
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

pub fn workflow_text(o: &WorkflowOptions) -> String {
    let action = action_line(o.action_ref);
    let mut w = String::from(
        "# Runs toolgate on every pull request: pin check, lint, evaluation, comparison with the
# committed baseline, a job summary and one sticky comment. Written by `toolgate init`.
name: toolgate

on:
  pull_request:
    # `labeled`: a maintainer's toolgate-accept-settings label is judged on its own event.
    types: [opened, synchronize, reopened, labeled]
  push:
    branches: [main]

permissions: {}

jobs:
",
    );
    let gate_needs = match o.shards {
        Some(n) => {
            let list: Vec<String> = (1..=n).map(|k| k.to_string()).collect();
            w.push_str(&format!(
                "  # {n} jobs each evaluate one slice of the suite (a stable hash of each task id);
  # the `toolgate` job joins them and gates exactly as one unsharded run would.
  evaluate:
    runs-on: ubuntu-latest
    if: ${{{{ github.event.action != 'labeled' || github.event.label.name == 'toolgate-accept-settings' }}}}
    permissions:
      contents: read
    strategy:
      fail-fast: false
      matrix:
        shard: [{list}]
    steps:
{CHECKOUT}      - uses: {action}
        with:
          config: toolgate.toml
          shard: ${{{{ matrix.shard }}}}/{n}
{LLM_HINT}      - uses: {UPLOAD}
        with:
          name: toolgate-shard-${{{{ matrix.shard }}}}
          path: toolgate-out/run
          if-no-files-found: error

",
                list = list.join(", ")
            ));
            // The fan-in runs even when a shard failed, so the comment says which one.
            "    needs: evaluate
    if: ${{ !cancelled() && (github.event.action != 'labeled' || github.event.label.name == 'toolgate-accept-settings') }}
"
        }
        None => "    if: ${{ github.event.action != 'labeled' || github.event.label.name == 'toolgate-accept-settings' }}
",
    };
    w.push_str(&format!(
        "  toolgate:
    runs-on: ubuntu-latest
{gate_needs}    permissions:
      contents: read
    steps:
{CHECKOUT}"
    ));
    if o.shards.is_some() {
        w.push_str(&format!(
            "      - uses: {DOWNLOAD}
        with:
          pattern: toolgate-shard-*
          path: toolgate-shards
"
        ));
    }
    w.push_str(&format!(
        "      - uses: {action}
        id: toolgate
        with:
{GATE_INPUTS}"
    ));
    if o.shards.is_some() {
        w.push_str(
            "          merge: toolgate-shards
",
        );
    } else {
        w.push_str(LLM_HINT);
    }
    w.push_str(&format!(
        "      - uses: {UPLOAD}
        if: always()
        with:
          name: toolgate
          path: toolgate-out
"
    ));
    if o.publish_badge {
        w.push_str(&format!(
            "
  # On the default branch only: publish badge.svg and badge.json (a shields.io endpoint) to the
  # `toolgate-badge` branch. Link them from the README:
  #   ![toolgate](https://raw.githubusercontent.com/OWNER/REPO/toolgate-badge/badge.svg)
  #   ![toolgate](https://img.shields.io/endpoint?url=https://raw.githubusercontent.com/OWNER/REPO/toolgate-badge/badge.json)
  badge:
    needs: toolgate
    if: ${{{{ !cancelled() && github.event_name == 'push' && github.ref == 'refs/heads/main' }}}}
    runs-on: ubuntu-latest
    permissions:
      contents: write   # pushes the one `toolgate-badge` branch; nothing else runs here
    steps:
      - uses: {DOWNLOAD}
        with:
          name: toolgate
          path: toolgate-out
      - name: publish the badge
        env:
          GH_TOKEN: ${{{{ github.token }}}}
          REPO: ${{{{ github.repository }}}}
          SERVER: ${{{{ github.server_url }}}}
        run: |
          test -f toolgate-out/badge.svg || {{ echo \"no badge: this run measured nothing\"; exit 0; }}
          mkdir badge && cp toolgate-out/badge.svg toolgate-out/badge.json badge/
          cd badge
          git init -q -b toolgate-badge
          git add badge.svg badge.json
          git -c user.name=\"github-actions[bot]\" -c user.email=\"41898282+github-actions[bot]@users.noreply.github.com\" commit -qm \"toolgate badge for ${{GITHUB_SHA}}\"
          git push -qf \"https://x-access-token:${{GH_TOKEN}}@${{SERVER#https://}}/${{REPO}}.git\" HEAD:toolgate-badge
"
        ));
    }
    w
}

#[cfg(test)]
#[path = "templates_tests.rs"]
mod tests;

//! The GitHub workflow `toolgate init` writes (zizmor- and actionlint-clean): on pull requests
//! and pushes to the default branch, the steps that make the server startable (see
//! [`super::prepare`]), the default branch's last run downloaded as the base, the gate, and the
//! run's output uploaded as the `toolgate` artefact, which the fork-safe comment workflow
//! renders and later runs download as their base.

use super::prepare::Prepare;
use super::templates::{ACTION_REF, DOWNLOAD, action_line};

/// What the workflow `toolgate init` writes does besides the gate.
#[derive(Clone, Debug, Default)]
pub(crate) struct WorkflowOptions<'a> {
    /// `uses:` of the action (pinned or the tag).
    pub action_ref: Option<&'a str>,
    /// Split the evaluation over a matrix of this many jobs and gate in one fan-in job.
    pub shards: Option<u32>,
    /// Publish the badge (SVG and shields endpoint JSON) from the default branch to the
    /// `toolgate-badge` branch in a job of its own, the only one that may write.
    pub publish_badge: bool,
    /// What the server needs before it starts, and whether toolgate runs on the runner.
    pub prepare: Prepare,
    /// The default branch (`main` when empty): its pushes make the baseline and the badge.
    pub default_branch: String,
}

impl WorkflowOptions<'_> {
    fn branch(&self) -> &str {
        if self.default_branch.is_empty() {
            "main"
        } else {
            &self.default_branch
        }
    }
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

/// Downloads the output of the last successful run on a push to the base branch into
/// `toolgate-base` (toolgate.toml's `base`).
const BASELINE: &str = "      - name: the base branch's last run, as the base
        # The `toolgate` artefact of the last successful run on a push to the base branch (this
        # workflow on the default branch; never a pull request's run) into toolgate-base, which
        # toolgate.toml names as `base`. The first run has none: toolgate says so, no deltas.
        env:
          GH_TOKEN: ${{ github.token }}
          REPO: ${{ github.repository }}
          BRANCH: ${{ github.base_ref || github.ref_name }}
        run: |
          id=$(gh run list --repo \"$REPO\" --workflow toolgate.yml --branch \"$BRANCH\" --event push \\
            --status success --limit 1 --json databaseId --jq '.[0].databaseId // empty')
          if [ -z \"$id\" ]; then echo \"no successful toolgate run on $BRANCH yet: no base\"; exit 0; fi
          gh run download \"$id\" --repo \"$REPO\" --name toolgate --dir toolgate-base \\
            || echo \"run $id left no toolgate artefact: no base\"
";

const COMMENT_NOTE: &str =
    "# The comment is posted by toolgate-comment.yml (fork-safe): this job runs the pull
          # request's code, so it holds a read-only token.
";
const LLM_HINT: &str =
    "          # Without a model the gate measures findability (a search over the definitions),
          # not tool accuracy. For tool accuracy set `models = [\"openai:gpt-4o-mini\"]` and
          # `max_cost = 2` (dollars) in toolgate.toml's [ci] (gate settings are reviewed there:
          # in a pull request a value given here is compared with the base revision's) and give
          # the key below; restore .toolgate-cache with actions/cache so an unchanged PR costs
          # 0 calls.
";

/// `uses:` of the `setup` action that installs the release binary on the runner.
fn setup_line(action_ref: Option<&str>) -> String {
    let r = action_ref.unwrap_or(ACTION_REF);
    let setup = match r.split_once('@') {
        Some((repo, rev)) => format!("{repo}/setup@{rev}"),
        None => format!("{r}/setup"),
    };
    action_line(Some(&setup))
}

/// The step that runs toolgate: the action (its container) or, when the server needs the
/// runner's toolchain, the release binary on the runner. `shard` is the matrix's `K/N`.
fn gate_steps(o: &WorkflowOptions, shard: Option<u32>) -> String {
    if o.prepare.on_runner {
        let mut s = format!(
            "      - uses: {}
      - name: toolgate ci
        id: toolgate
        # On the runner, beside what the steps above installed: the action's container has
        # neither the project's dependencies nor its build.
        env:
          TOOLGATE_CONFIG: toolgate.toml
",
            setup_line(o.action_ref)
        );
        match shard {
            Some(n) => s.push_str(&format!(
                "          TOOLGATE_SHARD: ${{{{ matrix.shard }}}}/{n}\n"
            )),
            None => s.push_str(&format!(
                "          {COMMENT_NOTE}          TOOLGATE_COMMENT: \"false\"\n"
            )),
        }
        s.push_str(LLM_HINT);
        s.push_str(
            "          # OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}
        run: toolgate ci
",
        );
        return s;
    }
    let action = action_line(o.action_ref);
    let mut s = format!("      - uses: {action}\n");
    match shard {
        Some(n) => s.push_str(&format!(
            "        with:
          config: toolgate.toml
          shard: ${{{{ matrix.shard }}}}/{n}
"
        )),
        None => s.push_str(&format!(
            "        id: toolgate
        with:
          config: toolgate.toml
          {COMMENT_NOTE}          comment: false
          # incremental: true   # re-run only the tasks a change can reach (LLM suites)
"
        )),
    }
    s.push_str(LLM_HINT);
    s.push_str(
        "        # env:
        #   OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}
",
    );
    s
}

/// The step that shows a background server's log when the gate fails.
fn log_step(p: &Prepare) -> String {
    match &p.log {
        Some(cmd) => format!(
            "      - name: the server's log
        if: failure()
        run: {cmd} || true
"
        ),
        None => String::new(),
    }
}

const HEADER: &str =
    "# Runs toolgate on every pull request: pin check, lint, evaluation, comparison with the
# default branch's last run, a job summary and one sticky comment (toolgate-comment.yml). On
# pushes to the default branch it makes the run that later pull requests compare with.
# Written by `toolgate init`.
name: toolgate

on:
  pull_request:
    # `labeled`: a maintainer's toolgate-accept-settings label is judged on its own event.
    types: [opened, synchronize, reopened, labeled]
";

const LABEL_IF: &str =
    "github.event.action != 'labeled' || github.event.label.name == 'toolgate-accept-settings'";

pub(crate) fn workflow_text(o: &WorkflowOptions) -> String {
    let branch = o.branch();
    let mut w = format!(
        "{HEADER}  push:
    branches: [{branch}]

permissions: {{}}

jobs:
"
    );
    let gate_if = match o.shards {
        Some(n) => {
            w.push_str(&evaluate_job(o, n));
            // The fan-in runs even when a shard failed, so the comment says which one.
            format!(
                "    needs: evaluate
    if: ${{{{ !cancelled() && ({LABEL_IF}) }}}}
"
            )
        }
        None => format!("    if: ${{{{ {LABEL_IF} }}}}\n"),
    };
    w.push_str(&format!(
        "  toolgate:
    runs-on: ubuntu-latest
{gate_if}    permissions:
      contents: read
      actions: read   # the base branch's last run (its artefact)
    steps:
{CHECKOUT}"
    ));
    w.push_str(&gate_job_steps(o));
    w.push_str(&format!(
        "      - uses: {UPLOAD}
        if: always()
        with:
          name: toolgate
          path: toolgate-out
"
    ));
    if o.publish_badge {
        w.push_str(&badge_job(branch));
    }
    w
}

/// The matrix job of a sharded workflow: `n` jobs each evaluate one slice of the suite.
fn evaluate_job(o: &WorkflowOptions, n: u32) -> String {
    let list: Vec<String> = (1..=n).map(|k| k.to_string()).collect();
    format!(
        "  # {n} jobs each evaluate one slice of the suite (a stable hash of each task id);
  # the `toolgate` job joins them and gates exactly as one unsharded run would.
  evaluate:
    runs-on: ubuntu-latest
    if: ${{{{ {LABEL_IF} }}}}
    permissions:
      contents: read
    strategy:
      fail-fast: false
      matrix:
        shard: [{list}]
    steps:
{CHECKOUT}{prepare}{gate}{log}      - uses: {UPLOAD}
        with:
          name: toolgate-shard-${{{{ matrix.shard }}}}
          path: toolgate-out/run
          if-no-files-found: error

",
        list = list.join(", "),
        prepare = o.prepare.steps,
        gate = gate_steps(o, Some(n)),
        log = log_step(&o.prepare),
    )
}

/// The gate job's steps after the checkout: the fan-in of the shards (no server starts
/// there), or the server's setup, the base and the gate.
fn gate_job_steps(o: &WorkflowOptions) -> String {
    if o.shards.is_some() {
        // The fan-in reads the shards' catalog and decisions: no server starts here.
        return format!(
            "      - uses: {DOWNLOAD}
        with:
          pattern: toolgate-shard-*
          path: toolgate-shards
{BASELINE}      - uses: {action}
        id: toolgate
        with:
          config: toolgate.toml
          {COMMENT_NOTE}          comment: false
          merge: toolgate-shards
",
            action = action_line(o.action_ref)
        );
    }
    let mut w = o.prepare.steps.clone();
    w.push_str(BASELINE);
    w.push_str(&gate_steps(o, None));
    w.push_str(&log_step(&o.prepare));
    w
}

fn badge_job(branch: &str) -> String {
    format!(
        "
  # On the default branch only: publish badge.svg and badge.json (a shields.io endpoint) to the
  # `toolgate-badge` branch. Link them from the README:
  #   ![toolgate](https://raw.githubusercontent.com/OWNER/REPO/toolgate-badge/badge.svg)
  #   ![toolgate](https://img.shields.io/endpoint?url=https://raw.githubusercontent.com/OWNER/REPO/toolgate-badge/badge.json)
  badge:
    needs: toolgate
    if: ${{{{ !cancelled() && github.event_name == 'push' && github.ref == 'refs/heads/{branch}' }}}}
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
    )
}

#[cfg(test)]
#[path = "workflow_tests.rs"]
mod tests;

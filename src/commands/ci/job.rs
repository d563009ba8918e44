//! Where this `ci` job runs and what it may do there: the GitHub environment, the pull-request
//! refusals (settings an earlier step could set to skip the gate), the base revision's gate
//! settings, and the server this job connects to.

use crate::ci::policy::Prepared;
use crate::ci::policy::flags::Folded;
use crate::ci::{self, CiSettings};
use crate::cli::{CiArgs, ServerArgs};
use crate::config::Config;
use crate::github::GithubEnv;

use super::early::report_early;

/// The GitHub environment this job runs in.
pub(super) struct Job {
    /// The Actions environment as it is.
    pub(super) actions: GithubEnv,
    /// What toolgate reports to (empty with `--no-github`).
    pub(super) gh: GithubEnv,
    pub(super) no_github: bool,
    /// A pull-request event: the gate settings are checked against the base revision's.
    pub(super) pr_event: bool,
}

impl Job {
    pub(super) fn from_env(a: &CiArgs) -> Job {
        let actions = GithubEnv::from_env();
        let no_github = a.no_github.unwrap_or(false);
        let gh = if no_github {
            GithubEnv::default()
        } else {
            actions.clone()
        };
        // In a pull request, the gate settings come from the base revision where the pull
        // request's would loosen the gate (src/ci/policy): those of toolgate.toml and those
        // given as flags or TOOLGATE_* variables alike. --no-github does not switch that off.
        let pr_event = actions.actions && actions.pull_request().ok().flatten().is_some();
        Job {
            actions,
            gh,
            no_github,
            pr_event,
        }
    }

    /// What decides which verdict this job gives is not a gate setting the base can hold: in
    /// a pull request, the ones an earlier step could set through $GITHUB_ENV to skip the gate
    /// are refused, or named (src/ci/policy/flags.rs).
    pub(super) async fn refuse_skips(&self, a: &CiArgs) -> anyhow::Result<()> {
        if !self.pr_event {
            return Ok(());
        }
        let msg = if a.comment_from.is_some() {
            "--comment-from (TOOLGATE_COMMENT_FROM) is set in a pull-request event: the comment job runs on workflow_run and gives no verdict, so here it would skip the gate; refused"
        } else if a.resume == Some(true) {
            "--resume (TOOLGATE_RESUME) is set in a pull-request event: a run folder an earlier step of the job could have written is not evidence; refused (resume runs outside pull requests)"
        } else {
            return Ok(());
        };
        report_early(&self.actions, msg, &super::early::Sinks::of(a)).await;
        anyhow::bail!(msg)
    }

    /// The base revision's gate settings in a pull request (`None` elsewhere, and for the
    /// comment job), with what this job's own switches mean for the verdict noted.
    pub(super) async fn base_policy(
        &self,
        a: &CiArgs,
        folded: &Folded,
        config_path: Option<&std::path::Path>,
        explicit: bool,
    ) -> Option<Prepared> {
        if a.comment_from.is_some() {
            return None;
        }
        let review_env = if self.no_github && self.pr_event {
            &self.actions
        } else {
            &self.gh
        };
        let origins = &folded.origins;
        let mut p =
            ci::policy::prepare(review_env, &folded.config, config_path, explicit, origins).await?;
        ci::policy::flags::annotate(&mut p.review, origins, &p.inherited);
        if let Some(shard) = &a.shard {
            p.review.notes.push(format!(
                "This job evaluates shard {}/{} only: its exit code says the shard ran, not that the gate passed; the fan-in job (`ci --merge`) gives the verdict. If this workflow has no fan-in job, something set --shard (TOOLGATE_SHARD) to skip the gate.",
                shard.k, shard.n
            ));
        }
        if !a.merge.is_empty() {
            p.review.notes.push(
                "The verdict comes from shard folders (--merge, TOOLGATE_MERGE): each is checked against its seal, but they were made by this job's workflow.".into(),
            );
        }
        if self.no_github {
            p.review.notes.push(
                "--no-github (TOOLGATE_NO_GITHUB) is set in a pull-request event: it turns off the comment, summary and annotations, not the comparison with the base revision's settings.".into(),
            );
        }
        Some(p)
    }
}

/// Holds the settings to the base revision's review: unchecked settings are no evidence (the
/// gate cannot pass on them), and reviewed files are settled from where the review says.
pub(super) async fn settle(
    p: &mut Prepared,
    s: &mut CiSettings,
    gh: &GithubEnv,
) -> anyhow::Result<()> {
    if let Some(why) = &p.unreadable {
        let msg = format!(
            "the gate settings of this pull request could not be checked against its base revision: {why}. Check out with fetch-depth: 0 (and mark the workspace a safe.directory in a container), or have a maintainer add the `{}` label",
            ci::policy::OVERRIDE_LABEL
        );
        ci::sinks::report_error(s, gh, &msg).await;
        anyhow::bail!(msg);
    }
    if let Err(e) = p.settle_files(s) {
        ci::sinks::report_error(s, gh, &format!("{e:#}")).await;
        return Err(e);
    }
    s.settings_review = Some(p.review.clone());
    Ok(())
}

/// The server this job connects to and the settings it connects with (a pull request's own
/// credentials kept out where its code runs), and the lock section it is checked against.
pub(super) fn server(
    a: &CiArgs,
    s: &mut CiSettings,
    folded: &Folded,
    reviewed: bool,
    cfg: &Config,
    gh: &GithubEnv,
) -> (ServerArgs, Config) {
    // Reviewed: the connection flags were folded into `cfg` too.
    let mut connect = if reviewed {
        folded.rest_connect.clone()
    } else {
        a.connect.clone()
    };
    let mut pr_cfg = cfg.clone();
    let kept = ci::fork::keep_credentials_from_pr(
        gh,
        &mut [&mut connect.pass_env, &mut pr_cfg.connect.pass_env],
    );
    s.notices.extend(kept);
    let flags = if reviewed { &folded.rest } else { &a.settings };
    let server = ServerArgs {
        server: if reviewed { None } else { a.server.clone() },
        server_args: vec![],
        connect,
        mcp_config: flags
            .mcp_config
            .clone()
            .or_else(|| pr_cfg.ci.mcp_config.clone()),
    };
    let lock = if reviewed { None } else { a.lock.as_ref() };
    s.lock_section = crate::adapt::belt::section_of(&server, lock, &pr_cfg);
    let skipped = ci::fork::skip_keyless(s, gh);
    s.notices.extend(skipped);
    if gh.actions
        && let Ok(here) = std::env::current_dir()
    {
        s.notices.extend(ci::files::persisted_credentials(&here));
    }
    (server, pr_cfg)
}

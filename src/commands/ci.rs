//! `toolgate ci`: resolves flags (and `TOOLGATE_*` variables) over toolgate.toml's `[ci]` over
//! defaults once, connects, and hands over to the ci stage. When toolgate cannot finish, the
//! error is still reported wherever a reader looks (summary, ci.json, comment).

use crate::adapt::{load_catalog, lock_path};
use crate::ci::{self, CiSettings};
use crate::cli::{CiArgs, ServerArgs};
use crate::config::Config;
use crate::gate::Exit;
use crate::github::GithubEnv;

/// Settings from flags, toolgate.toml and defaults.
pub fn settings(a: &CiArgs, cfg: &Config, on_actions: bool) -> anyhow::Result<CiSettings> {
    settings_from(a, &a.settings, a.lock.as_ref(), cfg, on_actions)
}

/// [`settings`] with the gate flags given apart: in a pull request they were already folded
/// into `cfg` and compared with the base revision, so none is laid over it again.
fn settings_from(
    a: &CiArgs,
    flags: &crate::config::CiConfig,
    lock: Option<&std::path::PathBuf>,
    cfg: &Config,
    on_actions: bool,
) -> anyhow::Result<CiSettings> {
    let mut s = ci::resolve(flags, &cfg.ci, lock_path(lock, cfg), on_actions)?;
    s.write_baseline = a.write_baseline.clone();
    s.resume = a.resume.unwrap_or(false);
    s.eval.shard = a.shard;
    s.merge = a.merge.clone();
    s.incremental = a.incremental.unwrap_or(false);
    s.full_every = a.full_every;
    if s.belt.is_some() && (s.eval.shard.is_some() || !s.merge.is_empty()) {
        anyhow::bail!(
            "--belt with --shard or --merge is not supported yet: run the belt unsharded"
        );
    }
    if s.contract.is_some() && (s.eval.shard.is_some() || !s.merge.is_empty()) {
        s.notices.push(
            "--contract is not run in shard or fan-in jobs: run it in one unsharded job".into(),
        );
        s.contract = None;
    }
    if s.full_every == Some(0) {
        anyhow::bail!("--full-every must be at least 1");
    }
    Ok(s)
}

/// `config_path` is the settings file `cfg` was read from, if any; `explicit`: it was named
/// with `--config` (else it was found up the tree).
pub async fn run(
    a: &CiArgs,
    cfg: &Config,
    config_path: Option<&std::path::Path>,
    explicit: bool,
) -> anyhow::Result<Exit> {
    let actions = GithubEnv::from_env();
    let no_github = a.no_github.unwrap_or(false);
    let gh = if no_github {
        GithubEnv::default()
    } else {
        actions.clone()
    };
    // In a pull request, the gate settings come from the base revision where the pull
    // request's would loosen the gate (src/ci/policy): those of toolgate.toml and those given
    // as flags or TOOLGATE_* variables alike. --no-github does not switch that off there.
    let pr_event = actions.actions && actions.pull_request().ok().flatten().is_some();
    // What decides which verdict this job gives is not a gate setting the base can hold: in a
    // pull request, the ones an earlier step could set through $GITHUB_ENV to skip the gate
    // are refused, or named (src/ci/policy/flags.rs).
    if pr_event {
        if a.comment_from.is_some() {
            let msg = "--comment-from (TOOLGATE_COMMENT_FROM) is set in a pull-request event: the comment job runs on workflow_run and gives no verdict, so here it would skip the gate; refused";
            report_early(&actions, msg, Some(a)).await;
            anyhow::bail!(msg);
        }
        if a.resume == Some(true) {
            let msg = "--resume (TOOLGATE_RESUME) is set in a pull-request event: a run folder an earlier step of the job could have written is not evidence; refused (resume runs outside pull requests)";
            report_early(&actions, msg, Some(a)).await;
            anyhow::bail!(msg);
        }
    }
    let folded = ci::policy::flags::fold(cfg, a)?;
    let mut base_policy = if a.comment_from.is_none() {
        let review_env = if no_github && pr_event { &actions } else { &gh };
        ci::policy::prepare(
            review_env,
            &folded.config,
            config_path,
            explicit,
            &folded.origins,
        )
        .await
    } else {
        None
    };
    if let Some(p) = &mut base_policy {
        ci::policy::flags::annotate(&mut p.review, &folded.origins, &p.inherited);
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
        if no_github {
            p.review.notes.push(
                "--no-github (TOOLGATE_NO_GITHUB) is set in a pull-request event: it turns off the comment, summary and annotations, not the comparison with the base revision's settings.".into(),
            );
        }
    }
    let reviewed = base_policy.is_some();
    let effective = base_policy.as_ref().map(|p| p.config.clone());
    let cfg = effective.as_ref().unwrap_or(cfg);
    let (flags, lock) = if reviewed {
        (&folded.rest, None)
    } else {
        (&a.settings, a.lock.as_ref())
    };
    let mut s = match settings_from(a, flags, lock, cfg, gh.actions) {
        Ok(s) => s,
        Err(e) => {
            // A settings error is still this commit's result: it replaces the last comment.
            report_early(&gh, &format!("{e:#}"), Some(a)).await;
            return Err(e);
        }
    };
    if let Some(dir) = &a.comment_from {
        // The comment job runs no server and no model: only the artefact and the event.
        let result = ci::relay::run(dir, &s, &gh).await;
        if let Err(e) = &result {
            crate::elog!("toolgate: the comment could not be posted: {e:#}");
        }
        return result;
    }
    if let Some(p) = &mut base_policy {
        if let Some(why) = &p.unreadable {
            // Unchecked settings are no evidence: the gate cannot pass on them.
            let msg = format!(
                "the gate settings of this pull request could not be checked against its base revision: {why}. Check out with fetch-depth: 0 (and mark the workspace a safe.directory in a container), or have a maintainer add the `{}` label",
                ci::policy::OVERRIDE_LABEL
            );
            ci::sinks::report_error(&s, &gh, &msg).await;
            anyhow::bail!(msg);
        }
        if let Err(e) = p.settle_files(&mut s) {
            ci::sinks::report_error(&s, &gh, &format!("{e:#}")).await;
            return Err(e);
        }
        s.settings_review = Some(p.review.clone());
    }
    // Reviewed: the connection flags were folded into `cfg` too.
    let mut connect = if reviewed {
        folded.rest_connect.clone()
    } else {
        a.connect.clone()
    };
    let mut pr_cfg = cfg.clone();
    let kept = ci::fork::keep_credentials_from_pr(
        &gh,
        &mut [&mut connect.pass_env, &mut pr_cfg.connect.pass_env],
    );
    s.notices.extend(kept);
    let cfg = &pr_cfg;
    let server = ServerArgs {
        server: if reviewed { None } else { a.server.clone() },
        server_args: vec![],
        connect,
        mcp_config: flags
            .mcp_config
            .clone()
            .or_else(|| cfg.ci.mcp_config.clone()),
    };
    s.lock_section = crate::adapt::belt::section_of(&server, lock, cfg);
    let skipped = ci::fork::skip_keyless(&mut s, &gh);
    s.notices.extend(skipped);
    if gh.actions
        && let Ok(here) = std::env::current_dir()
    {
        s.notices.extend(ci::files::persisted_credentials(&here));
    }
    let result = async {
        if !s.merge.is_empty() {
            // Fan-in: the shards kept the catalog they ran against; no server is needed.
            return ci::run(
                &s,
                &cfg.lint,
                ci::Source::Shards(s.merge.clone()),
                &gh,
                a.format,
                None,
            )
            .await;
        }
        // What the reviewer saw, read before any server runs: a server that rewrites one of
        // these files before toolgate reads it is caught, naming the file.
        let replays: Vec<std::path::PathBuf> = s
            .eval
            .models
            .iter()
            .filter(|m| m.is_replay())
            .map(|m| std::path::PathBuf::from(m.rest()))
            .collect();
        crate::fsio::pin_reviewed(
            [Some(&s.policy.lock_path), s.tasks.as_ref(), s.base.as_ref()]
                .into_iter()
                .flatten()
                .chain(&replays)
                .map(std::path::PathBuf::as_path),
        )?;
        // The rules' patterns compile while the server starts.
        crate::lint::warm_up();
        let catalog = load_catalog(&server, cfg).await?;
        let contract = match (&s.contract, s.eval.shard) {
            (Some(opts), None) => {
                let (spec, connect) = crate::adapt::resolve_server(&server, cfg)?;
                let report = crate::contract::run(&spec, &connect, opts).await?;
                crate::fsio::verify_pins()?;
                Some(report)
            }
            _ => None,
        };
        if let Some(spec) = &s.belt {
            let (combined, info, belt) =
                crate::adapt::run::load_belt(spec, &catalog, &server, cfg).await?;
            crate::fsio::verify_pins()?;
            let belt = ci::belt::BeltRun::new(combined, info, belt);
            let source = ci::Source::Belt(Box::new(catalog), Box::new(belt));
            return ci::run(&s, &cfg.lint, source, &gh, a.format, contract).await;
        }
        match s.eval.shard {
            Some(shard) => ci::shards::run_shard(&s, &catalog, shard, a.format).await,
            None => {
                ci::run(
                    &s,
                    &cfg.lint,
                    ci::Source::Live(Box::new(catalog)),
                    &gh,
                    a.format,
                    contract,
                )
                .await
            }
        }
    }
    .await;
    if let Err(e) = &result {
        // toolgate could not do its job: say so wherever a reader looks, so a stale "passed"
        // comment or an empty output never stands in for this run.
        ci::sinks::report_error(&s, &gh, &format!("{e:#}")).await;
    }
    result
}

/// The value of `--<flag> V` or `--<flag>=V` in this process's arguments, else the
/// `TOOLGATE_<FLAG>` variable: read by hand when the arguments or settings did not parse.
fn raw_setting(flag: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let long = format!("--{flag}");
    let eq = format!("--{flag}=");
    let from_args = args.iter().enumerate().find_map(|(i, a)| {
        if a == &long {
            args.get(i + 1).cloned()
        } else {
            a.strip_prefix(&eq).map(str::to_string)
        }
    });
    from_args.or_else(|| {
        std::env::var(format!(
            "TOOLGATE_{}",
            flag.replace('-', "_").to_uppercase()
        ))
        .ok()
        .filter(|v| !v.is_empty())
    })
}

/// Reports an error that came before `ci`'s settings could be resolved (arguments, the config
/// file, a settings value): the summary, ci.json and the sticky comment say "could not run"
/// with the cause, so the previous push's verdict does not stand for this commit. Where each
/// report goes is read from what did parse (`args`), else from the raw `--out`,
/// `--comment` and `--comment-id` values, else the defaults.
pub async fn report_early(gh: &GithubEnv, error: &str, args: Option<&CiArgs>) {
    let mut s = match ci::resolve(
        &Default::default(),
        &Default::default(),
        std::path::PathBuf::from(crate::config::DEFAULT_LOCK),
        gh.actions,
    ) {
        Ok(s) => s,
        Err(_) => return,
    };
    let flags = args.map(|a| &a.settings);
    if let Some(out) = flags
        .and_then(|f| f.out.clone())
        .or_else(|| raw_setting("out").map(Into::into))
    {
        s.out = out;
    }
    if let Some(id) = flags
        .and_then(|f| f.comment_id.clone())
        .or_else(|| raw_setting("comment-id"))
    {
        s.comment_id = id;
    }
    if let Some(c) = flags.and_then(|f| f.comment).or_else(|| {
        raw_setting("comment").and_then(|v| match v.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Some(true),
            "false" | "0" | "no" => Some(false),
            _ => None,
        })
    }) {
        s.comment = c;
    }
    ci::sinks::report_error(&s, gh, error).await;
}

/// [`report_early`] for `ci` when even the arguments or the config file did not parse.
pub async fn report_unparsed(error: &str, no_github: bool) {
    let gh = if no_github {
        GithubEnv::default()
    } else {
        GithubEnv::from_env()
    };
    report_early(&gh, error, None).await;
}

//! `toolgate ci`: resolves flags (and `TOOLGATE_*` variables) over toolgate.toml's `[ci]` over
//! defaults once, connects, and hands over to the ci stage. When toolgate cannot finish, the
//! error is still reported wherever a reader looks (summary, ci.json, comment).

mod early;
mod execute;
mod job;
mod settings;

pub(crate) use early::{Sinks, report_early, report_unparsed};

use crate::ci;
use crate::cli::CiArgs;
use crate::config::Config;
use crate::gate::Exit;
use job::Job;

/// `toolgate ci`, in named steps: where the job runs (and what a pull request may not set),
/// the base revision's gate settings, the settings, the server, then the gate. `config_path`
/// is the settings file `cfg` was read from, if any; `explicit`: it was named with `--config`
/// (else it was found up the tree).
pub(crate) async fn run(
    a: &CiArgs,
    cfg: &Config,
    config_path: Option<&std::path::Path>,
    explicit: bool,
) -> anyhow::Result<Exit> {
    let job = Job::from_env(a);
    job.refuse_skips(a).await?;
    let folded = ci::policy::flags::fold(cfg, a)?;
    let mut base_policy = job.base_policy(a, &folded, config_path, explicit).await;
    let reviewed = base_policy.is_some();
    let effective = base_policy.as_ref().map(|p| p.config.clone());
    let cfg = effective.as_ref().unwrap_or(cfg);
    let (flags, lock) = if reviewed {
        (&folded.rest, None)
    } else {
        (&a.settings, a.lock.as_ref())
    };
    let gh = &job.gh;
    let mut s = match settings::settings_from(a, flags, lock, cfg, gh.actions) {
        Ok(s) => s,
        Err(e) => {
            // A settings error is still this commit's result: it replaces the last comment.
            report_early(gh, &format!("{e:#}"), &Sinks::of(a)).await;
            return Err(e);
        }
    };
    if let Some(dir) = &a.comment_from {
        // The comment job runs no server and no model: only the artefact and the event.
        let result = ci::relay::run(dir, &s, gh).await;
        if let Err(e) = &result {
            crate::elog!("toolgate: the comment could not be posted: {e:#}");
        }
        return result;
    }
    if let Some(p) = &mut base_policy {
        job::settle(p, &mut s, gh).await?;
    }
    let (server, cfg) = job::server(a, &mut s, &folded, reviewed, cfg, gh);
    let result = execute::execute(&s, &server, &cfg, gh, a.format).await;
    if let Err(e) = &result {
        // toolgate could not do its job: say so wherever a reader looks, so a stale "passed"
        // comment or an empty output never stands in for this run.
        ci::sinks::report_error(&s, gh, &format!("{e:#}")).await;
    }
    result
}

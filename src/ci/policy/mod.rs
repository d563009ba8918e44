//! A pull request cannot move its own goalposts. In a pull request, the gate settings of
//! toolgate.toml (thresholds, lock check, lint levels, models, the server, pass_env, the
//! sandbox, the task, base and lock paths) are read from the base revision too; where the pull
//! request's value would loosen the gate or change what it measures, the base's applies unless
//! a maintainer set the override label ([`OVERRIDE_LABEL`]), and every difference is named in
//! the comment's "Gate settings changed in this PR" section. The reviewed files themselves
//! (lock, baseline, tasks) are compared in [`files`].
//!
//! Flags and `TOOLGATE_*` variables come from the workflow file, which a pull request can edit
//! too, or from `$GITHUB_ENV`, which any earlier step of the job that runs the pull request's
//! code (`npm ci`, `uv sync`) can write: in a pull request they are folded into its settings
//! and compared the same way ([`flags`]), named with where they came from.

mod compare;
pub(crate) mod files;
pub(crate) mod flags;
pub(crate) mod git;
mod order;

pub(crate) use compare::review_settings;

use crate::config::Config;
use crate::record::settings::{Applied, SettingChange};
pub(crate) use crate::record::settings::{OVERRIDE_LABEL, SettingsReview};

/// The base revision's settings and files, for a pull request.
pub(crate) struct Prepared {
    /// The settings the gate applies (the pull request's, with loosening values replaced).
    pub config: Config,
    pub review: SettingsReview,
    tree: Option<git::BaseTree>,
    /// Why the base revision could not be read: the gate cannot be judged (exit 2) unless a
    /// maintainer's override accepts the pull request's own settings.
    pub unreadable: Option<String>,
    /// Settings the job gave where the base revision's settings set nothing (see
    /// [`flags::inherit`]), with where each came from.
    pub inherited: Vec<(String, String)>,
}

/// Whether the override label lets this pull request's own values apply, and what to say.
/// It counts only on its own `labeled` event (so it covers the commit it was added on: a later
/// push runs without it), added by someone other than the author who may merge (asked of the
/// API; no token or no answer: it does not count).
pub(crate) async fn override_granted(
    gh: &crate::github::GithubEnv,
    pr: &crate::github::PullRequest,
) -> (bool, Option<String>) {
    let on_this_event = pr
        .labeled
        .as_ref()
        .filter(|(label, _)| label == OVERRIDE_LABEL);
    let Some((_, sender)) = on_this_event else {
        if pr.labels.iter().any(|l| l == OVERRIDE_LABEL) {
            return (
                false,
                Some(format!(
                    "The `{OVERRIDE_LABEL}` label was added before this commit: it accepts the settings of the commit it was added on only. Remove it and add it again to accept this commit's."
                )),
            );
        }
        return (false, None);
    };
    if pr.author.as_deref() == Some(sender.as_str()) {
        return (
            false,
            Some(format!(
                "The `{OVERRIDE_LABEL}` label was added by the pull request's author @{sender}: it counts only from another maintainer."
            )),
        );
    }
    let (Some(token), Some(repo)) = (&gh.token, &gh.repository) else {
        return (
            false,
            Some(format!(
                "The `{OVERRIDE_LABEL}` label was added by @{sender}, but without a GitHub token their permission could not be checked: it does not count."
            )),
        );
    };
    match crate::github::access::permission(&gh.api_url, token, repo, sender).await {
        Ok(role) if crate::github::access::may_merge(&role) => (
            true,
            Some(format!(
                "The `{OVERRIDE_LABEL}` label was added by @{sender} ({role}) on this commit: the pull request's own settings apply."
            )),
        ),
        Ok(role) => (
            false,
            Some(format!(
                "The `{OVERRIDE_LABEL}` label was added by @{sender}, whose permission is `{role}`: only a maintainer with write access can accept settings."
            )),
        ),
        Err(e) => (
            false,
            Some(format!(
                "The `{OVERRIDE_LABEL}` label was added by @{sender}, but their permission could not be checked ({e:#}): it does not count."
            )),
        ),
    }
}

/// In a pull request on GitHub Actions: reads toolgate.toml on the base revision and compares
/// it with the pull request's. `config_path` is the file the pull request's settings came from
/// (default ./toolgate.toml). `None` outside pull requests.
pub(crate) async fn prepare(
    gh: &crate::github::GithubEnv,
    head: &Config,
    config_path: Option<&std::path::Path>,
    explicit: bool,
    origins: &std::collections::BTreeMap<String, String>,
) -> Option<Prepared> {
    if !gh.actions {
        return None;
    }
    let pr = gh.pull_request().ok().flatten()?;
    let sha = pr.base_sha.clone()?;
    let (overridden, note) = override_granted(gh, &pr).await;
    let mut review = SettingsReview {
        base_sha: sha.clone(),
        overridden,
        ..Default::default()
    };
    review.notes.extend(note);
    let tree = match git::BaseTree::open(&sha) {
        Ok(t) => t,
        Err(e) => return Some(base_unreadable(head, review, &format!("{e:#}"))),
    };
    let head_path = config_path.map(std::path::Path::to_path_buf);
    let found = base_settings(&tree, head_path, explicit, &mut review);
    let mut inherited = Vec::new();
    let config = match found.config {
        Some(mut base) => {
            match flags::inherit(&mut base, head, origins) {
                Ok(taken) => {
                    flags::note_inherited(&mut review, &taken);
                    inherited = taken;
                }
                Err(e) => review.notes.push(format!(
                    "The job's own settings could not be laid over the base revision's ({e:#}): only the base revision's apply."
                )),
            }
            let (mut config, changes) = review_settings(&base, head, overridden);
            review.changes.extend(changes);
            if let Some(dir) = found.dir
                && !overridden
                && config.server == base.server
            {
                config.dir = dir;
            }
            config
        }
        None => head.clone(),
    };
    Some(Prepared {
        config,
        review,
        tree: Some(tree),
        unreadable: found.unreadable.filter(|_| !overridden),
        inherited,
    })
}

/// When the base revision cannot be read: the pull request's own settings, unchecked (and
/// no evidence unless the override label was given).
fn base_unreadable(head: &Config, mut review: SettingsReview, why: &str) -> Prepared {
    let overridden = review.overridden;
    review.notes.push(if overridden {
        format!(
            "The base revision could not be read ({why}): the override label accepts this pull request's own gate settings and files, unchecked."
        )
    } else {
        format!(
            "The base revision could not be read ({why}): the gate settings of this pull request cannot be checked against it."
        )
    });
    Prepared {
        config: head.clone(),
        review,
        tree: None,
        unreadable: (!overridden).then(|| why.to_string()),
        inherited: Vec::new(),
    }
}

/// The base revision's settings as found there.
struct BaseSettings {
    /// `None`: they could not be read (see `unreadable`).
    config: Option<Config>,
    /// Why the base's settings could not be read.
    unreadable: Option<String>,
    /// The folder the base's server command runs in, when the settings file moved.
    dir: Option<Option<std::path::PathBuf>>,
}

/// The base's settings file is found on the base revision the way toolgate finds one in a
/// checkout: a pull request that adds a nearer file (a toolgate.toml beside the base's
/// pyproject.toml) or deletes the base's is compared with the base's own settings.
fn base_settings(
    tree: &git::BaseTree,
    head_path: Option<std::path::PathBuf>,
    explicit: bool,
    review: &mut SettingsReview,
) -> BaseSettings {
    let mut out = BaseSettings {
        config: None,
        unreadable: None,
        dir: None,
    };
    let found = match tree.settings_file(head_path.as_deref().filter(|_| explicit)) {
        Ok(found) => found,
        Err(e) => {
            review.notes.push(format!("{e:#}"));
            out.unreadable = Some(format!("{e:#}"));
            return out;
        }
    };
    let base_path = found.as_ref().map(|(p, _)| p.clone());
    if base_path != head_path {
        // The base's server command runs in the base's settings folder, as it would on the
        // base revision (a pull request that adds a nearer file does not move it).
        out.dir = Some(
            base_path
                .as_deref()
                .and_then(std::path::Path::parent)
                .filter(|d| !d.as_os_str().is_empty())
                .map(std::path::Path::to_path_buf),
        );
        let shown = |p: &Option<std::path::PathBuf>| {
            p.as_ref()
                .map_or("none".to_string(), |p| p.display().to_string())
        };
        review.changes.push(SettingChange {
            setting: "settings file".into(),
            base: shown(&base_path),
            head: shown(&head_path),
            applied: if review.overridden {
                Applied::Override
            } else {
                Applied::Base
            },
        });
    }
    let Some((path, bytes)) = found else {
        out.config = Some(Config::default());
        return out;
    };
    match Config::parse(&path, &String::from_utf8_lossy(&bytes)) {
        Ok(mut c) => {
            // Resolved as the pull request's were, so only real differences show.
            c.resolve_paths(path.parent().unwrap_or(std::path::Path::new("")));
            out.config = Some(c);
        }
        Err(e) => {
            let why = format!(
                "{} on the base revision does not parse ({e:#})",
                path.display()
            );
            review
                .notes
                .push(format!("{why}: its settings could not be compared."));
            out.unreadable = Some(why);
        }
    }
    out
}

impl Prepared {
    /// Compares the reviewed files (lock, baseline, tasks) with the base revision's and points
    /// `s` at the ones the gate uses.
    pub(crate) fn settle_files(&mut self, s: &mut super::CiSettings) -> anyhow::Result<()> {
        let Some(tree) = &self.tree else {
            return Ok(());
        };
        let mut files = files::Files {
            tree,
            dir: s.out.join("base-revision"),
            overridden: self.review.overridden,
            changes: Vec::new(),
            base_lock: None,
        };
        s.policy.lock_path = files.lock(&s.policy.lock_path)?;
        if let Some(b) = s.base.clone() {
            s.base = files.baseline(&b)?;
        }
        if let Some(t) = s.tasks.clone() {
            files.tasks(&t)?;
        }
        for m in s.eval.models.iter().filter(|m| m.is_replay()) {
            files.replay(std::path::Path::new(m.rest()))?;
        }
        // The response cache holds model replies: one the pull request's tree carries would
        // be a forged model. Any tracked file under it switches the cache off for this run.
        if let Some(dir) = &s.cache_dir
            && tree.tracked(dir)
        {
            self.review.notes.push(format!(
                "{} holds files committed in this pull request: cached model replies from the tree are not used, every model reply is asked again",
                dir.display()
            ));
            s.cache_dir = None;
        }
        s.base_lock = files.base_lock.take();
        self.review.changes.extend(files.changes);
        Ok(())
    }
}

#[cfg(test)]
mod tests;

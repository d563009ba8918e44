//! Reporting an error that came before `ci`'s settings were resolved (the arguments, the
//! config file, a settings value): the summary, ci.json and the sticky comment still say
//! "could not run", so the previous push's verdict never stands for this commit.

use crate::ci;
use std::path::PathBuf;

use crate::cli::CiArgs;
use crate::github::GithubEnv;

/// Where `ci`'s error reports go: `--out`, `--comment`, `--comment-id`, `--no-github` (or
/// their `TOOLGATE_*` variables), read from arguments that parsed, or leniently from ones that
/// did not.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Sinks {
    out: Option<PathBuf>,
    comment_id: Option<String>,
    comment: Option<bool>,
    no_github: bool,
}

impl Sinks {
    /// From `ci`'s parsed arguments.
    pub(crate) fn of(a: &CiArgs) -> Self {
        Sinks {
            out: a.settings.out.clone(),
            comment_id: a.settings.comment_id.clone(),
            comment: a.settings.comment,
            no_github: a.no_github.unwrap_or(false),
        }
    }

    /// From a command line that did not parse: the same clap definition parsed leniently (a
    /// bad value, a missing one or an unknown flag is skipped, the rest read as the run would
    /// have read it). `None` when the words are not a `ci` command.
    pub(crate) fn lenient<I, T>(words: I) -> Option<Self>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let m = crate::cli::help::command(true)
            .ignore_errors(true)
            .mut_subcommand("ci", |c| c.ignore_errors(true))
            .try_get_matches_from(words)
            .ok()?;
        let ci = m.subcommand_matches("ci")?;
        let bool_of = |id: &str| ci.try_get_one::<bool>(id).ok().flatten().copied();
        Some(Sinks {
            out: ci.try_get_one::<PathBuf>("out").ok().flatten().cloned(),
            comment_id: ci
                .try_get_one::<String>("comment_id")
                .ok()
                .flatten()
                .cloned(),
            comment: bool_of("comment"),
            no_github: bool_of("no_github").unwrap_or(false),
        })
    }

    /// The GitHub environment these sinks write to (none with `--no-github`).
    pub(crate) fn github(&self) -> GithubEnv {
        if self.no_github {
            GithubEnv::default()
        } else {
            GithubEnv::from_env()
        }
    }
}

/// Reports an error that came before `ci`'s settings could be resolved (arguments, the config
/// file, a settings value): the summary, ci.json and the sticky comment say "could not run"
/// with the cause, so the previous push's verdict does not stand for this commit. Where each
/// report goes is read from `sinks`, else the defaults.
pub(crate) async fn report_early(gh: &GithubEnv, error: &str, sinks: &Sinks) {
    let Ok(mut s) = ci::resolve(
        &Default::default(),
        &Default::default(),
        std::path::PathBuf::from(crate::config::DEFAULT_LOCK),
        gh.actions,
    ) else {
        return;
    };
    if let Some(out) = &sinks.out {
        s.out = out.clone();
    }
    if let Some(id) = &sinks.comment_id {
        s.comment_id = id.clone();
    }
    if let Some(c) = sinks.comment {
        s.comment = c;
    }
    ci::sinks::report_error(&s, gh, error).await;
}

/// [`report_early`] for `ci` when even the arguments or the config file did not parse.
pub(crate) async fn report_unparsed(error: &str, sinks: &Sinks) {
    report_early(&sinks.github(), error, sinks).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_path_reads_what_parses_of_ci_with_clap() {
        let s = Sinks::lenient([
            "toolgate",
            "ci",
            "--out",
            "o",
            "--comment-id=k",
            "--comment=false",
            "--no-github",
            "--trials",
            "abc",
        ])
        .unwrap();
        assert_eq!(s.out.as_deref(), Some(std::path::Path::new("o")));
        assert_eq!(s.comment_id.as_deref(), Some("k"));
        assert_eq!(s.comment, Some(false));
        assert!(s.no_github);
        // A bad value for the switch itself is skipped, not taken for `true`.
        let s = Sinks::lenient(["toolgate", "ci", "--comment=maybe"]).unwrap();
        assert_eq!(s.comment, None);
        assert!(Sinks::lenient(["toolgate", "run", "x.json", "--bogus"]).is_none());
    }
}

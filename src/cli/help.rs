//! The command line as parsed: [`super::Cli`]'s, with `ci --help` showing the flags a first
//! pipeline needs and `ci --help-all` every one. A hidden flag still parses exactly as before;
//! only the help text is shorter (the CLI reference in docs/cli.md lists every flag).

use clap::{Arg, ArgAction, CommandFactory};

use super::Cli;

/// `ci`'s flags shown by `ci --help` (with the global `--config` and `--color`, `--help` and
/// `--help-all`): where the server is, what to evaluate with, what fails the gate, where the
/// reports go, how to reach the server, and the matrix split. The rest (timeouts, retries,
/// trials, the distractor curve and ablation, sandbox tuning, comment keys, resuming and
/// incremental runs) are rarely set and stay one `--help-all` away.
pub(crate) const CI_SHOWN: &[&str] = &[
    "server",
    "mcp_config",
    "tasks",
    "models",
    "out",
    "base",
    "lock",
    "lock_check",
    "lint_fail_on",
    "fail_on_new",
    "fail_under",
    "fail_under_recall",
    "fail_on_regression",
    "max_drop",
    "comment",
    "badge",
    "format",
    "max_calls",
    "max_cost",
    "concurrency",
    "headers",
    "pass_env",
    "sandbox",
    "no_github",
    "shard",
    "merge",
];

/// The placeholder a help text writes where the provider names go.
const PROVIDERS_SLOT: &str = "{providers}";

/// The providers a `<provider>:<model>` spec may name, from the provider table (`local` has its
/// own wording beside it).
pub(crate) fn provider_names() -> String {
    crate::models::provider::PROVIDERS
        .iter()
        .map(|p| p.name)
        .filter(|n| *n != "local")
        .collect::<Vec<_>>()
        .join(", ")
}

/// `cmd` with `{providers}` in every flag's help (of every subcommand) replaced by the
/// provider table's names, so no help text keeps its own list.
fn with_providers(cmd: clap::Command) -> clap::Command {
    let names = provider_names();
    let fill = |a: Arg| {
        let help = a.get_help().map(|h| h.to_string());
        let long = a.get_long_help().map(|h| h.to_string());
        let a = match help {
            Some(h) if h.contains(PROVIDERS_SLOT) => a.help(h.replace(PROVIDERS_SLOT, &names)),
            _ => a,
        };
        match long {
            Some(h) if h.contains(PROVIDERS_SLOT) => a.long_help(h.replace(PROVIDERS_SLOT, &names)),
            _ => a,
        }
    };
    let ids = |c: &clap::Command| -> Vec<clap::Id> {
        c.get_arguments()
            .filter(|a| {
                let has = |h: Option<&clap::builder::StyledStr>| {
                    h.is_some_and(|h| h.to_string().contains(PROVIDERS_SLOT))
                };
                has(a.get_help()) || has(a.get_long_help())
            })
            .map(|a| a.get_id().clone())
            .collect()
    };
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    subs.into_iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(name, |sub| {
            ids(&sub)
                .into_iter()
                .fold(sub, |sub, id| sub.mut_arg(id, fill))
        })
    })
}

/// Whether `args` (the program name first) ask for `--help-all` (before any `--`).
pub(crate) fn wants_all<S: AsRef<str>>(args: &[S]) -> bool {
    args.iter()
        .skip(1)
        .map(AsRef::as_ref)
        .take_while(|a| *a != "--")
        .any(|a| a == "--help-all")
}

/// The command to parse with: every flag in `ci --help` when `all`, else the rare ones hidden
/// there. Both know `ci --help-all`.
pub fn command(all: bool) -> clap::Command {
    with_providers(Cli::command()).mut_subcommand("ci", |ci| {
        let rare: Vec<clap::Id> = ci
            .get_arguments()
            .filter(|a| !a.is_hide_set() && !CI_SHOWN.contains(&a.get_id().as_str()))
            .map(|a| a.get_id().clone())
            .collect();
        let hidden = rare.len();
        let ci = if all {
            ci
        } else {
            rare.iter()
                .fold(ci, |ci, id| ci.mut_arg(id.clone(), |a| a.hide(true)))
                .after_long_help(format!(
                    "{hidden} more flags (timeouts, retries, trials, the distractor curve and \
                     ablation, sandbox tuning, comment keys, resuming, incremental runs): \
                     toolgate ci --help-all"
                ))
        };
        ci.arg(
            Arg::new("help_all")
                .long("help-all")
                .action(ArgAction::HelpLong)
                .help("Print help with every flag, also the rarely used ones"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(cmd: &mut clap::Command) -> Vec<String> {
        let ci = cmd.find_subcommand_mut("ci").unwrap();
        ci.build();
        ci.get_arguments()
            .filter(|a| !a.is_hide_set() && !a.is_positional())
            .map(|a| a.get_id().to_string())
            .collect()
    }

    #[test]
    fn ci_help_shows_at_most_thirty_flags_and_help_all_shows_every_one() {
        let short = shown(&mut command(false));
        let all = shown(&mut command(true));
        assert!(short.len() <= 30, "{} flags: {short:?}", short.len());
        assert!(all.len() > 50, "{} flags", all.len());
        for id in CI_SHOWN {
            assert!(short.iter().any(|s| s == id), "`{id}` is not a ci flag");
        }
        assert!(short.iter().any(|s| s == "help_all"));
    }

    #[test]
    fn help_all_counts_only_before_the_servers_own_words() {
        assert!(wants_all(&["toolgate", "ci", "--help-all"]));
        assert!(!wants_all(&["toolgate", "ci", "--help"]));
        assert!(!wants_all(&["toolgate", "run", "--", "--help-all"]));
    }

    #[test]
    fn a_hidden_flag_still_parses() {
        use clap::FromArgMatches;
        let m = command(false)
            .try_get_matches_from(["toolgate", "ci", "--trials", "3", "--curve", "false"])
            .unwrap();
        let cli = Cli::from_arg_matches(&m).unwrap();
        let super::super::Command::Ci(ci) = cli.command else {
            panic!("not ci")
        };
        assert_eq!(ci.settings.trials, Some(3));
    }

    #[test]
    fn the_model_flags_list_every_provider_of_the_table() {
        let mut cmd = command(true);
        for sub in ["run", "ci"] {
            let sub = cmd.find_subcommand_mut(sub).unwrap();
            let help = sub.render_long_help().to_string();
            assert!(!help.contains(PROVIDERS_SLOT), "{help}");
            for p in crate::models::provider::PROVIDERS {
                assert!(help.contains(p.name), "`{}` missing from: {help}", p.name);
            }
        }
    }

    #[test]
    fn run_and_ci_spell_the_curve_and_ablation_switches_alike() {
        use clap::FromArgMatches;
        let parse = |args: &[&str]| {
            let m = command(true)
                .try_get_matches_from(args.iter().copied())
                .unwrap();
            Cli::from_arg_matches(&m).unwrap().command
        };
        for (words, want) in [
            (&["--curve"][..], Some(true)),
            (&["--curve=false"][..], Some(false)),
            (&[][..], None),
        ] {
            let run = parse(&[&["toolgate", "run", "s.json"][..], words].concat());
            let super::super::Command::Run(r) = run else {
                panic!("not run")
            };
            assert_eq!(r.curve.curve, want, "run {words:?}");
            let ci = parse(&[&["toolgate", "ci"][..], words].concat());
            let super::super::Command::Ci(c) = ci else {
                panic!("not ci")
            };
            assert_eq!(c.settings.curve, want, "ci {words:?}");
        }
        // `run --curve SERVER` keeps SERVER a server, not the switch's value.
        let super::super::Command::Run(r) = parse(&["toolgate", "run", "--ablation", "s.json"])
        else {
            panic!("not run")
        };
        assert_eq!(r.curve.ablation, Some(true));
        assert_eq!(r.server.server.as_deref(), Some("s.json"));
    }
}

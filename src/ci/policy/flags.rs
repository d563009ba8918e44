//! Gate settings given as flags or `TOOLGATE_*` variables (issue 42 point 3). In a pull
//! request they are folded into the pull request's settings before the comparison with the
//! base revision, so a looser value from the job's environment (a workflow edit, or an earlier
//! step that ran the pull request's code and wrote to `$GITHUB_ENV`) keeps the base's value
//! exactly as one in toolgate.toml would, and the settings section names where it came from.

use std::collections::BTreeMap;

use clap::CommandFactory;

use crate::cli::CiArgs;
use crate::config::Config;
use crate::record::settings::SettingsReview;

/// The pull request's settings with its flags and variables folded in, and where each folded
/// value came from (`ci.fail_under` → `variable TOOLGATE_FAIL_UNDER`).
pub(crate) struct Folded {
    pub config: Config,
    pub origins: BTreeMap<String, String>,
    /// The flags that set neither the verdict nor what is measured (where reports go, the
    /// comment's key and author, retries and timeouts): laid over the settings as usual.
    pub rest: crate::config::CiConfig,
    pub rest_connect: crate::config::ConnectConfig,
}

/// Flags that are not gate settings: besides the keys the comparison calls harmless, the
/// comment's switch, key and author (a verdict is the exit code; the comment only shows it).
const NOT_GATE: &[&str] = &["ci.comment", "ci.comment_id", "ci.comment_author"];

/// Where the value of the argument `id` of `toolgate ci` came from: the command line or its
/// variable.
fn origin(id: &str) -> String {
    let cmd = crate::cli::Cli::command();
    let arg = cmd.find_subcommand("ci").and_then(|c| {
        c.get_arguments()
            .find(|a| a.get_id().as_str() == id)
            .cloned()
    });
    let Some(arg) = arg else {
        return format!("flag --{}", id.replace('_', "-"));
    };
    let long = arg.get_long().map(|l| format!("--{l}"));
    let short = arg.get_short().map(|s| format!("-{s}"));
    let given = std::env::args().skip(1).any(|a| {
        long.as_ref()
            .is_some_and(|l| a == *l || a.starts_with(&format!("{l}=")))
            || short.as_ref().is_some_and(|s| a.starts_with(s.as_str()))
    });
    let env = arg
        .get_env()
        .map(|e| e.to_string_lossy().into_owned())
        .filter(|e| std::env::var_os(e).is_some_and(|v| !v.is_empty()));
    match (given, env, long) {
        (false, Some(env), _) => format!("variable {env}"),
        (_, _, Some(long)) => format!("flag {long}"),
        _ => format!("flag {id}"),
    }
}

fn empty(v: &serde_json::Value) -> bool {
    v.is_null() || v.as_array().is_some_and(|a| a.is_empty())
}

/// Folds `a`'s `[ci]` and `[connect]` flags, `--server` and `--lock` over `cfg`.
pub(crate) fn fold(cfg: &Config, a: &CiArgs) -> anyhow::Result<Folded> {
    let mut origins = BTreeMap::new();
    let mut value = serde_json::to_value(cfg)?;
    let mut rest = serde_json::Map::new();
    let mut rest_connect = serde_json::Map::new();
    for (section, flags) in [
        ("ci", serde_json::to_value(&a.settings)?),
        ("connect", serde_json::to_value(&a.connect)?),
    ] {
        let Some(flags) = flags.as_object() else {
            continue;
        };
        for (key, v) in flags {
            if empty(v) {
                continue;
            }
            let name = format!("{section}.{key}");
            if super::compare::HARMLESS.contains(&name.as_str())
                || NOT_GATE.contains(&name.as_str())
            {
                let into = if section == "ci" {
                    &mut rest
                } else {
                    &mut rest_connect
                };
                into.insert(key.clone(), v.clone());
                continue;
            }
            if let Some(slot) = value.get_mut(section).and_then(|s| s.as_object_mut()) {
                slot.insert(key.clone(), v.clone());
                origins.insert(name, origin(key));
            }
        }
    }
    let dir = cfg.dir.clone();
    let mut config: Config = serde_json::from_value(value)?;
    config.dir = dir;
    if let Some(server) = &a.server {
        config.server = Some(server.clone());
        origins.insert("server".into(), origin("server"));
    }
    if let Some(lock) = &a.lock {
        config.lock = Some(lock.clone());
        origins.insert("lock".into(), origin("lock"));
    }
    Ok(Folded {
        config,
        origins,
        rest: serde_json::from_value(serde_json::Value::Object(rest))?,
        rest_connect: serde_json::from_value(serde_json::Value::Object(rest_connect))?,
    })
}

/// Settings the job may give (as an action input, a flag or a variable) where the base
/// revision's settings file sets nothing: what to check and with what (the server, the task
/// file, the models, the base, the belt) and budgets (a run cut short by one is partial, never
/// a pass). Then the job's value applies and is named as the job's, not reviewed in a settings
/// file. Thresholds and switches are not here: a looser one than the base's (or its default)
/// never applies; nor is anything that reaches the server or a provider (credentials passed
/// through, sandbox, writes, headers, the provider's URL).
const JOB_MAY_SET: &[&str] = &[
    "server",
    "ci.mcp_config",
    "ci.models",
    "ci.tasks",
    "ci.base",
    "ci.belt",
    "ci.trials",
    "ci.split",
    "ci.seed",
    "ci.max_steps",
    "ci.max_calls",
    "ci.max_cost",
];

fn at<'a>(v: &'a serde_json::Value, key: &str) -> Option<&'a serde_json::Value> {
    key.split('.').try_fold(v, |v, k| v.get(k))
}

/// Copies into `base` the job's values (in `head`, given as flags or variables per `origins`)
/// of the keys in [`JOB_MAY_SET`] that `base` leaves unset; returns them with their origins.
pub(crate) fn inherit(
    base: &mut Config,
    head: &Config,
    origins: &BTreeMap<String, String>,
) -> anyhow::Result<Vec<(String, String)>> {
    let mut b = serde_json::to_value(&*base)?;
    let h = serde_json::to_value(head)?;
    let mut taken = Vec::new();
    for (key, from) in origins {
        if !JOB_MAY_SET.contains(&key.as_str()) || !at(&b, key).is_none_or(empty) {
            continue;
        }
        let Some(value) = at(&h, key).cloned() else {
            continue;
        };
        let (parent, leaf) = match key.rsplit_once('.') {
            Some((p, l)) => (at_mut(&mut b, p), l),
            None => (Some(&mut b), key.as_str()),
        };
        if let Some(obj) = parent.and_then(|p| p.as_object_mut()) {
            obj.insert(leaf.to_string(), value);
            taken.push((key.clone(), from.clone()));
        }
    }
    let dir = base.dir.clone();
    *base = serde_json::from_value(b)?;
    base.dir = dir;
    Ok(taken)
}

fn at_mut<'a>(v: &'a mut serde_json::Value, key: &str) -> Option<&'a mut serde_json::Value> {
    key.split('.').try_fold(v, |v, k| v.get_mut(k))
}

/// Says which settings the job gave where the base revision's settings set nothing.
pub(crate) fn note_inherited(review: &mut SettingsReview, taken: &[(String, String)]) {
    if taken.is_empty() {
        return;
    }
    let list: Vec<String> = taken.iter().map(|(k, f)| format!("{k} ({f})")).collect();
    review.notes.push(format!(
        "Given by this job where the base revision's settings set nothing, so applied as the job's own (not reviewed in a settings file; put them in toolgate.toml to have them reviewed): {}.",
        list.join(", ")
    ));
}

/// Names where each changed setting came from, and lists the settings given as flags or
/// variables that the base revision also has (so each is seen to have been checked).
pub(crate) fn annotate(
    review: &mut SettingsReview,
    origins: &BTreeMap<String, String>,
    inherited: &[(String, String)],
) {
    let mut same = Vec::new();
    for (setting, from) in origins {
        if inherited.iter().any(|(k, _)| k == setting) {
            continue;
        }
        match review.changes.iter_mut().find(|c| &c.setting == setting) {
            Some(change) => change.setting = format!("{setting} (from the {from})"),
            None => same.push(format!("{setting} ({from})")),
        }
    }
    if !same.is_empty() {
        review.notes.push(format!(
            "Given as flags or variables and equal to the base revision's settings: {}.",
            same.join(", ")
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::settings::{Applied, SettingChange};

    #[test]
    fn flags_fold_over_the_file_and_are_named() {
        let mut cfg = Config::default();
        cfg.ci.fail_under = Some(0.8);
        cfg.ci.trials = Some(3);
        let a = CiArgs {
            settings: crate::config::CiConfig {
                fail_under: Some(0.0),
                ..Default::default()
            },
            connect: crate::config::ConnectConfig {
                sandbox: Some(crate::sandbox::SandboxMode::Off),
                connect_timeout: Some(5.0),
                ..Default::default()
            },
            ..Default::default()
        };
        let f = fold(&cfg, &a).unwrap();
        assert_eq!(f.config.ci.fail_under, Some(0.0));
        assert_eq!(f.config.ci.trials, Some(3), "the file's value stays");
        assert_eq!(
            f.config.connect.sandbox,
            Some(crate::sandbox::SandboxMode::Off)
        );
        assert!(f.origins["ci.fail_under"].contains("--fail-under"));
        assert!(f.origins.contains_key("connect.sandbox"));
        assert!(!f.origins.contains_key("ci.trials"));
        assert_eq!(
            f.rest_connect.connect_timeout,
            Some(5.0),
            "not a gate setting"
        );
        assert!(!f.origins.contains_key("connect.connect_timeout"));

        let mut review = SettingsReview {
            changes: vec![SettingChange {
                setting: "ci.fail_under".into(),
                base: "0.8".into(),
                head: "0".into(),
                applied: Applied::Base,
            }],
            ..Default::default()
        };
        annotate(&mut review, &f.origins, &[]);
        assert!(
            review.changes[0]
                .setting
                .starts_with("ci.fail_under (from the flag")
        );
        assert!(
            review.notes[0].contains("connect.sandbox"),
            "{:?}",
            review.notes
        );
    }

    #[test]
    fn the_job_sets_only_what_to_check_where_the_base_sets_nothing() {
        let mut base = Config::default();
        base.ci.tasks = Some("reviewed.jsonl".into());
        let mut head = Config {
            server: Some("node dist/index.js".into()),
            ..Default::default()
        };
        head.ci.tasks = Some("easy.jsonl".into());
        head.ci.lock_check = Some(crate::gate::LockCheck::Off);
        head.connect.pass_env = vec!["GITHUB_TOKEN".into()];
        let origins: BTreeMap<String, String> =
            ["server", "ci.tasks", "ci.lock_check", "connect.pass_env"]
                .into_iter()
                .map(|k| (k.to_string(), "variable X".to_string()))
                .collect();
        let taken = inherit(&mut base, &head, &origins).unwrap();
        assert_eq!(taken, [("server".to_string(), "variable X".to_string())]);
        assert_eq!(base.server.as_deref(), Some("node dist/index.js"));
        // The base's own task file stays; a switch and a credential are never the job's.
        assert_eq!(
            base.ci.tasks.as_deref(),
            Some(std::path::Path::new("reviewed.jsonl"))
        );
        assert_eq!(base.ci.lock_check, None);
        assert!(base.connect.pass_env.is_empty());
        let mut review = SettingsReview::default();
        note_inherited(&mut review, &taken);
        annotate(&mut review, &origins, &taken);
        assert!(
            review.notes[0].contains("server (variable X)"),
            "{:?}",
            review.notes
        );
        assert!(!review.notes[1].contains("server"), "{:?}", review.notes);
    }
}

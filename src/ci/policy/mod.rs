//! A pull request cannot move its own goalposts. In a pull request, the gate settings of
//! toolgate.toml (thresholds, lock check, lint levels, models, the server, pass_env, the
//! sandbox, the task, base and lock paths) are read from the base revision too; where the pull
//! request's value would loosen the gate or change what it measures, the base's applies unless
//! a maintainer set the override label ([`OVERRIDE_LABEL`]), and every difference is named in
//! the comment's "Gate settings changed in this PR" section. The reviewed files themselves
//! (lock, baseline, tasks) are compared in [`files`].
//!
//! Flags and `TOOLGATE_*` variables come from the workflow file, which a pull request can edit
//! too: that file (and these) belong under CODEOWNERS (see README).

pub mod files;
pub mod git;

use crate::config::Config;
use crate::record::gate::{LintFailOn, LockCheck};
use crate::record::settings::{Applied, SettingChange};
pub use crate::record::settings::{OVERRIDE_LABEL, SettingsReview};

/// How a pull request's value compares with the base's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    Same,
    Stricter,
    /// Looser, or unordered and different.
    Looser,
}

fn shown<T: std::fmt::Debug>(v: &Option<T>) -> String {
    match v {
        None => "unset".into(),
        Some(x) => format!("{x:?}").trim_matches('"').to_string(),
    }
}

/// Higher is stricter; unset is the weakest.
fn higher<T: PartialOrd>(base: &Option<T>, head: &Option<T>) -> Order {
    match (base, head) {
        (a, b) if a == b => Order::Same,
        (None, Some(_)) => Order::Stricter,
        (Some(_), None) => Order::Looser,
        (Some(a), Some(b)) if b > a => Order::Stricter,
        _ => Order::Looser,
    }
}

/// Lower is stricter; unset is `default`.
fn lower(base: Option<f64>, head: Option<f64>, default: f64) -> Order {
    let (a, b) = (base.unwrap_or(default), head.unwrap_or(default));
    if a == b {
        Order::Same
    } else if b < a {
        Order::Stricter
    } else {
        Order::Looser
    }
}

/// `true` is stricter; unset is `default`.
fn truer(base: Option<bool>, head: Option<bool>, default: bool) -> Order {
    match (base.unwrap_or(default), head.unwrap_or(default)) {
        (a, b) if a == b => Order::Same,
        (false, true) => Order::Stricter,
        _ => Order::Looser,
    }
}

fn rank_lock(v: Option<LockCheck>) -> u8 {
    match v.unwrap_or_default() {
        LockCheck::Fail => 2,
        LockCheck::Warn => 1,
        LockCheck::Off => 0,
    }
}

fn rank_lint(v: Option<LintFailOn>) -> u8 {
    match v.unwrap_or_default() {
        LintFailOn::Warning => 2,
        LintFailOn::Error => 1,
        LintFailOn::Never => 0,
    }
}

fn ranked(a: u8, b: u8) -> Order {
    match b.cmp(&a) {
        std::cmp::Ordering::Equal => Order::Same,
        std::cmp::Ordering::Greater => Order::Stricter,
        std::cmp::Ordering::Less => Order::Looser,
    }
}

fn unordered<T: PartialEq>(a: &T, b: &T) -> Order {
    if a == b { Order::Same } else { Order::Looser }
}

/// Compares `head` (the pull request's toolgate.toml) with `base` (the base revision's) and
/// returns the settings the gate applies with every difference. `overridden`: the override
/// label is set, so the pull request's values apply (and are shown as overriding).
pub fn review_settings(
    base: &Config,
    head: &Config,
    overridden: bool,
) -> (Config, Vec<SettingChange>) {
    let mut eff = head.clone();
    let mut changes = Vec::new();
    macro_rules! field {
        ($name:expr, $($path:ident).+, $order:expr) => {{
            let order = $order;
            if order != Order::Same {
                let applied = match (order, overridden) {
                    (Order::Stricter, _) => Applied::Head,
                    (_, true) => Applied::Override,
                    _ => Applied::Base,
                };
                if applied == Applied::Base {
                    eff.$($path).+ = base.$($path).+.clone();
                }
                changes.push(SettingChange {
                    setting: $name.into(),
                    base: shown_any(&base.$($path).+),
                    head: shown_any(&head.$($path).+),
                    applied,
                });
            }
        }};
    }
    let (b, h) = (&base.ci, &head.ci);
    field!(
        "ci.fail_under",
        ci.fail_under,
        higher(&b.fail_under, &h.fail_under)
    );
    field!(
        "ci.min_tool_accuracy",
        ci.min_tool_accuracy,
        higher(&b.min_tool_accuracy, &h.min_tool_accuracy)
    );
    field!(
        "ci.fail_under_recall",
        ci.fail_under_recall,
        match (&b.fail_under_recall, &h.fail_under_recall) {
            (x, y) if x == y => Order::Same,
            (None, Some(_)) => Order::Stricter,
            (Some(x), Some(y)) if x.k == y.k && y.min >= x.min => Order::Stricter,
            _ => Order::Looser,
        }
    );
    field!(
        "ci.max_drop",
        ci.max_drop,
        lower(b.max_drop, h.max_drop, f64::INFINITY)
    );
    field!(
        "ci.max_error_rate",
        ci.max_error_rate,
        lower(b.max_error_rate, h.max_error_rate, 0.05)
    );
    field!("ci.alpha", ci.alpha, lower(b.alpha, h.alpha, 0.05).flip());
    field!(
        "ci.fail_on_regression",
        ci.fail_on_regression,
        truer(b.fail_on_regression, h.fail_on_regression, true)
    );
    field!(
        "ci.fail_on_tool_regression",
        ci.fail_on_tool_regression,
        truer(b.fail_on_tool_regression, h.fail_on_tool_regression, false)
    );
    field!(
        "ci.contract",
        ci.contract,
        truer(b.contract, h.contract, false)
    );
    field!(
        "ci.lock_check",
        ci.lock_check,
        ranked(rank_lock(b.lock_check), rank_lock(h.lock_check))
    );
    field!(
        "ci.lint_fail_on",
        ci.lint_fail_on,
        ranked(rank_lint(b.lint_fail_on), rank_lint(h.lint_fail_on))
    );
    field!("ci.models", ci.models, unordered(&b.models, &h.models));
    field!("ci.trials", ci.trials, unordered(&b.trials, &h.trials));
    field!("ci.split", ci.split, unordered(&b.split, &h.split));
    field!("ci.tasks", ci.tasks, unordered(&b.tasks, &h.tasks));
    field!("ci.base", ci.base, unordered(&b.base, &h.base));
    field!("ci.belt", ci.belt, unordered(&b.belt, &h.belt));
    field!(
        "ci.mcp_config",
        ci.mcp_config,
        unordered(&b.mcp_config, &h.mcp_config)
    );
    field!("server", server, unordered(&base.server, &head.server));
    field!("lock", lock, unordered(&base.lock, &head.lock));
    field!(
        "connect.pass_env",
        connect.pass_env,
        unordered(&base.connect.pass_env, &head.connect.pass_env)
    );
    field!(
        "connect.sandbox",
        connect.sandbox,
        match (
            base.connect.sandbox.unwrap_or_default(),
            head.connect.sandbox.unwrap_or_default()
        ) {
            (a, b) if a == b => Order::Same,
            (_, crate::sandbox::SandboxMode::Strict) => Order::Stricter,
            _ => Order::Looser,
        }
    );
    field!("lint", lint, unordered(&base.lint, &head.lint));
    (eff, changes)
}

impl Order {
    /// For a setting where a higher value is stricter but [`lower`] was used to read it.
    fn flip(self) -> Order {
        match self {
            Order::Stricter => Order::Looser,
            Order::Looser => Order::Stricter,
            Order::Same => Order::Same,
        }
    }
}

/// A value as the section shows it: `unset`, or compact JSON (TOML tables too).
fn shown_any<T: serde::Serialize + std::fmt::Debug>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::Null) => "unset".into(),
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => {
            let s = other.to_string();
            if s.chars().count() > 200 {
                format!("{}…", s.chars().take(200).collect::<String>())
            } else {
                s
            }
        }
        Err(_) => shown(&Some(v)),
    }
}

/// The base revision's settings and files, for a pull request.
pub struct Prepared {
    /// The settings the gate applies (the pull request's, with loosening values replaced).
    pub config: Config,
    pub review: SettingsReview,
    tree: Option<git::BaseTree>,
}

/// In a pull request on GitHub Actions: reads toolgate.toml on the base revision and compares
/// it with the pull request's. `config_path` is the file the pull request's settings came from
/// (default ./toolgate.toml). `None` outside pull requests.
pub fn prepare(
    gh: &crate::github::GithubEnv,
    head: &Config,
    config_path: Option<&std::path::Path>,
) -> Option<Prepared> {
    if !gh.actions {
        return None;
    }
    let pr = gh.pull_request().ok().flatten()?;
    let sha = pr.base_sha.clone()?;
    let overridden = pr.labels.iter().any(|l| l == OVERRIDE_LABEL);
    let mut review = SettingsReview {
        base_sha: sha.clone(),
        overridden,
        ..Default::default()
    };
    let tree = match git::BaseTree::open(&sha) {
        Ok(t) => t,
        Err(e) => {
            review.notes.push(format!(
                "The base revision could not be read ({e:#}): this pull request's own gate settings and files were used, unchecked."
            ));
            return Some(Prepared {
                config: head.clone(),
                review,
                tree: None,
            });
        }
    };
    let path = config_path.unwrap_or(std::path::Path::new(crate::config::DEFAULT_CONFIG));
    let base = match tree.read(path) {
        Ok(None) => Some(Config::default()),
        Ok(Some(bytes)) => match toml::from_str::<Config>(&String::from_utf8_lossy(&bytes)) {
            Ok(c) => Some(c),
            Err(e) => {
                review.notes.push(format!(
                    "{} on the base revision does not parse ({}): its settings could not be compared.",
                    path.display(),
                    e.message()
                ));
                None
            }
        },
        Err(e) => {
            review.notes.push(format!("{e:#}"));
            None
        }
    };
    let config = match base {
        Some(base) => {
            let (config, changes) = review_settings(&base, head, overridden);
            review.changes = changes;
            config
        }
        None => head.clone(),
    };
    Some(Prepared {
        config,
        review,
        tree: Some(tree),
    })
}

impl Prepared {
    /// Compares the reviewed files (lock, baseline, tasks) with the base revision's and points
    /// `s` at the ones the gate uses.
    pub fn settle_files(&mut self, s: &mut super::CiSettings) -> anyhow::Result<()> {
        let Some(tree) = &self.tree else {
            return Ok(());
        };
        let mut files = files::Files {
            tree,
            dir: s.out.join("base-revision"),
            overridden: self.review.overridden,
            changes: Vec::new(),
        };
        s.policy.lock_path = files.lock(&s.policy.lock_path)?;
        if let Some(b) = s.base.clone() {
            s.base = files.baseline(&b)?;
        }
        if let Some(t) = s.tasks.clone() {
            files.tasks(&t)?;
        }
        self.review.changes.extend(files.changes);
        Ok(())
    }
}

#[cfg(test)]
mod tests;

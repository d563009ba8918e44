//! Comparing a pull request's gate settings with the base revision's: which value is
//! stricter for each ordered setting, and every other key of `[ci]` and `[connect]` compared
//! as "changes what the gate measures".

use super::order::{
    Order, higher, lower, rank_lint, rank_lock, rank_new, rank_sandbox, ranked, truer, unordered,
};
use crate::config::Config;
use crate::record::settings::{Applied, SettingChange};

/// One comparison of the pull request's settings with the base's: the settings the gate
/// applies, and every difference.
struct Review<'a> {
    base: &'a Config,
    head: &'a Config,
    overridden: bool,
    eff: Config,
    changes: Vec<SettingChange>,
}

/// Compares one setting at `path` (in `Config`): a stricter head applies; else the base's value
/// does, unless the override label was set.
macro_rules! field {
    ($r:expr, $name:expr, $($path:ident).+, $order:expr) => {{
        let order = $order;
        if order != Order::Same {
            let applied = match (order, $r.overridden) {
                (Order::Stricter, _) => Applied::Head,
                (_, true) => Applied::Override,
                _ => Applied::Base,
            };
            if applied == Applied::Base {
                $r.eff.$($path).+ = $r.base.$($path).+.clone();
            }
            $r.changes.push(SettingChange {
                setting: $name.into(),
                base: shown_any(&$r.base.$($path).+),
                head: shown_any(&$r.head.$($path).+),
                applied,
            });
        }
    }};
}

/// Compares `head` (the pull request's toolgate.toml) with `base` (the base revision's) and
/// returns the settings the gate applies with every difference. `overridden`: the override
/// label is set, so the pull request's values apply (and are shown as overriding).
pub(crate) fn review_settings(
    base: &Config,
    head: &Config,
    overridden: bool,
) -> (Config, Vec<SettingChange>) {
    let mut r = Review {
        base,
        head,
        overridden,
        eff: head.clone(),
        changes: Vec::new(),
    };
    thresholds(&mut r);
    what_runs(&mut r);
    every_other_key(base, head, overridden, &mut r.eff, &mut r.changes);
    (r.eff, r.changes)
}

/// The gate's thresholds and switches, each with the direction that makes it stricter.
fn thresholds(r: &mut Review) {
    let (b, h) = (&r.base.ci, &r.head.ci);
    field!(
        r,
        "ci.fail_under",
        ci.fail_under,
        higher(&b.fail_under, &h.fail_under)
    );
    field!(
        r,
        "ci.min_tool_accuracy",
        ci.min_tool_accuracy,
        higher(&b.min_tool_accuracy, &h.min_tool_accuracy)
    );
    field!(
        r,
        "ci.fail_under_recall",
        ci.fail_under_recall,
        recall_floor(&b.fail_under_recall, &h.fail_under_recall)
    );
    field!(
        r,
        "ci.max_drop",
        ci.max_drop,
        lower(b.max_drop, h.max_drop, f64::INFINITY)
    );
    field!(
        r,
        "ci.max_error_rate",
        ci.max_error_rate,
        lower(b.max_error_rate, h.max_error_rate, 0.05)
    );
    // A larger alpha flags a regression sooner: higher is stricter (unset is 0.05).
    field!(
        r,
        "ci.alpha",
        ci.alpha,
        higher(&b.alpha.or(Some(0.05)), &h.alpha.or(Some(0.05)))
    );
    field!(
        r,
        "ci.fail_on_regression",
        ci.fail_on_regression,
        truer(b.fail_on_regression, h.fail_on_regression, true)
    );
    field!(
        r,
        "ci.fail_on_tool_regression",
        ci.fail_on_tool_regression,
        truer(b.fail_on_tool_regression, h.fail_on_tool_regression, false)
    );
    field!(
        r,
        "ci.contract",
        ci.contract,
        truer(b.contract, h.contract, false)
    );
    field!(
        r,
        "ci.lock_check",
        ci.lock_check,
        ranked(rank_lock(b.lock_check), rank_lock(h.lock_check))
    );
    field!(
        r,
        "ci.lint_fail_on",
        ci.lint_fail_on,
        ranked(rank_lint(b.lint_fail_on), rank_lint(h.lint_fail_on))
    );
    field!(
        r,
        "ci.fail_on_new",
        ci.fail_on_new,
        ranked(rank_new(b.fail_on_new), rank_new(h.fail_on_new))
    );
}

/// A recall floor is stricter when it appears, or rises at the same k; any other change (a
/// different k, a lower floor, none) is looser.
fn recall_floor(
    b: &Option<crate::record::gate::RecallFloor>,
    h: &Option<crate::record::gate::RecallFloor>,
) -> Order {
    match (b, h) {
        (x, y) if x == y => Order::Same,
        (None, Some(_)) => Order::Stricter,
        (Some(x), Some(y)) if x.k == y.k && y.min >= x.min => Order::Stricter,
        _ => Order::Looser,
    }
}

/// What is measured and how: models, trials, split, tasks, base, belt, server, lock, the
/// connection's passed variables and sandbox, and the lint settings.
fn what_runs(r: &mut Review) {
    let (b, h) = (&r.base.ci, &r.head.ci);
    field!(r, "ci.models", ci.models, unordered(&b.models, &h.models));
    field!(r, "ci.trials", ci.trials, unordered(&b.trials, &h.trials));
    field!(r, "ci.split", ci.split, unordered(&b.split, &h.split));
    field!(r, "ci.tasks", ci.tasks, unordered(&b.tasks, &h.tasks));
    field!(r, "ci.base", ci.base, unordered(&b.base, &h.base));
    field!(r, "ci.belt", ci.belt, unordered(&b.belt, &h.belt));
    field!(
        r,
        "ci.mcp_config",
        ci.mcp_config,
        unordered(&b.mcp_config, &h.mcp_config)
    );
    field!(
        r,
        "server",
        server,
        unordered(&r.base.server, &r.head.server)
    );
    field!(r, "lock", lock, unordered(&r.base.lock, &r.head.lock));
    field!(
        r,
        "connect.pass_env",
        connect.pass_env,
        unordered(&r.base.connect.pass_env, &r.head.connect.pass_env)
    );
    field!(
        r,
        "connect.sandbox",
        connect.sandbox,
        ranked(
            rank_sandbox(r.base.connect.sandbox),
            rank_sandbox(r.head.connect.sandbox)
        )
    );
    field!(r, "lint", lint, unordered(&r.base.lint, &r.head.lint));
}

/// Keys of `[ci]` and `[connect]` that change neither the verdict nor what is measured: where
/// reports go, how hard toolgate retries, how long it waits to connect. Every key not here and
/// not compared above (a new key too) is compared as "changes what the gate measures": the
/// base's value applies.
pub(super) const HARMLESS: &[&str] = &[
    "ci.out",
    "ci.badge",
    "ci.concurrency",
    "ci.retries",
    "ci.call_timeout",
    "connect.connect_timeout",
    "connect.request_timeout",
];

/// Keys compared one by one in [`review_settings`].
const COMPARED: &[&str] = &[
    "ci.fail_under",
    "ci.min_tool_accuracy",
    "ci.fail_under_recall",
    "ci.max_drop",
    "ci.max_error_rate",
    "ci.alpha",
    "ci.fail_on_regression",
    "ci.fail_on_tool_regression",
    "ci.contract",
    "ci.lock_check",
    "ci.lint_fail_on",
    "ci.fail_on_new",
    "ci.models",
    "ci.trials",
    "ci.split",
    "ci.tasks",
    "ci.base",
    "ci.belt",
    "ci.mcp_config",
    "connect.pass_env",
    "connect.sandbox",
];

/// Compares every remaining key of `[ci]` and `[connect]` (the provider's base_url, headers,
/// bearer_env, sandbox_uid, sandbox_write, allow_writes, seed, max_steps, timeout, max_pages,
/// comment settings, …): a difference keeps the base's value unless overridden.
fn every_other_key(
    base: &Config,
    head: &Config,
    overridden: bool,
    eff: &mut Config,
    changes: &mut Vec<SettingChange>,
) {
    let (Ok(b), Ok(h), Ok(mut e)) = (
        serde_json::to_value(base),
        serde_json::to_value(head),
        serde_json::to_value(&*eff),
    ) else {
        return;
    };
    let mut touched = false;
    for section in ["ci", "connect"] {
        let (Some(bs), Some(hs)) = (
            b.get(section).and_then(|v| v.as_object()),
            h.get(section).and_then(|v| v.as_object()),
        ) else {
            continue;
        };
        let keys: std::collections::BTreeSet<&String> = bs.keys().chain(hs.keys()).collect();
        for key in keys {
            let name = format!("{section}.{key}");
            if HARMLESS.contains(&name.as_str()) || COMPARED.contains(&name.as_str()) {
                continue;
            }
            let null = serde_json::Value::Null;
            let (bv, hv) = (bs.get(key).unwrap_or(&null), hs.get(key).unwrap_or(&null));
            let empty =
                |v: &serde_json::Value| v.is_null() || v.as_array().is_some_and(|a| a.is_empty());
            if bv == hv || (empty(bv) && empty(hv)) {
                continue;
            }
            let applied = if overridden {
                Applied::Override
            } else {
                if let Some(slot) = e.get_mut(section).and_then(|s| s.as_object_mut()) {
                    slot.insert(key.clone(), bv.clone());
                    touched = true;
                }
                Applied::Base
            };
            // Header values may be credentials: the section names the headers only.
            let show = |v: &serde_json::Value| {
                if key == "headers" {
                    let names: Vec<String> = v
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|h| h.as_str())
                        .map(|h| format!("{}: ***", h.split(':').next().unwrap_or("").trim()))
                        .collect();
                    shown_any(&names)
                } else {
                    shown_any(v)
                }
            };
            changes.push(SettingChange {
                setting: name,
                base: show(bv),
                head: show(hv),
                applied,
            });
        }
    }
    if touched {
        // Numbers are finite (Config::parse refuses others), so the round trip is lossless;
        // `dir` is not serialised and is kept. Should it fail, the base's settings apply
        // whole: never the pull request's unchecked ones.
        let dir = eff.dir.clone();
        *eff = serde_json::from_value::<Config>(e).unwrap_or_else(|_| base.clone());
        eff.dir = dir;
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
        Err(_) => format!("{v:?}"),
    }
}

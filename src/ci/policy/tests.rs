use super::*;
use crate::record::gate::{LintFailOn, LockCheck};

fn cfg(toml: &str) -> Config {
    toml::from_str(toml).unwrap()
}

fn applied(changes: &[SettingChange], setting: &str) -> Option<Applied> {
    changes
        .iter()
        .find(|c| c.setting == setting)
        .map(|c| c.applied)
}

#[test]
fn looser_values_keep_the_base_and_stricter_ones_apply() {
    let base = cfg(
        "server = \"python3 server.py\"\n[ci]\nfail_under = 0.8\nmax_drop = 0.05\nlock_check = \"fail\"\nmodels = [\"bm25\"]\n",
    );
    let head = cfg(
        "server = \"snapshot.json\"\n[ci]\nfail_under = 0.0\nmax_drop = 0.01\nlock_check = \"off\"\nfail_on_regression = false\nmodels = [\"replay:easy.jsonl\"]\nmin_tool_accuracy = 0.5\n[lint.rules.TG005]\nlevel = \"off\"\n",
    );
    let (eff, changes) = review_settings(&base, &head, false);
    assert_eq!(eff.ci.fail_under, Some(0.8));
    assert_eq!(eff.ci.max_drop, Some(0.01), "stricter: the PR's");
    assert_eq!(eff.ci.min_tool_accuracy, Some(0.5), "stricter: the PR's");
    assert_eq!(eff.ci.lock_check, Some(LockCheck::Fail));
    assert_eq!(eff.ci.fail_on_regression, None);
    assert_eq!(eff.ci.models, Some(vec!["bm25".to_string()]));
    assert_eq!(eff.server.as_deref(), Some("python3 server.py"));
    assert_eq!(eff.lint, base.lint);
    for (s, a) in [
        ("ci.fail_under", Applied::Base),
        ("ci.max_drop", Applied::Head),
        ("ci.min_tool_accuracy", Applied::Head),
        ("ci.lock_check", Applied::Base),
        ("ci.fail_on_regression", Applied::Base),
        ("ci.models", Applied::Base),
        ("server", Applied::Base),
        ("lint", Applied::Base),
    ] {
        assert_eq!(applied(&changes, s), Some(a), "{s}: {changes:#?}");
    }
    // Unchanged settings are not listed.
    assert!(applied(&changes, "ci.alpha").is_none());
}

#[test]
fn the_override_label_lets_the_pull_request_values_apply_and_says_so() {
    let base = cfg("[ci]\nfail_under = 0.8\n");
    let head = cfg("[ci]\nfail_under = 0.5\n");
    let (eff, changes) = review_settings(&base, &head, true);
    assert_eq!(eff.ci.fail_under, Some(0.5));
    assert_eq!(applied(&changes, "ci.fail_under"), Some(Applied::Override));
}

#[test]
fn a_new_toolgate_toml_is_compared_with_the_defaults() {
    let (eff, changes) = review_settings(
        &Config::default(),
        &cfg("[ci]\nlint_fail_on = \"never\"\n"),
        false,
    );
    assert_eq!(eff.ci.lint_fail_on, None);
    assert_eq!(applied(&changes, "ci.lint_fail_on"), Some(Applied::Base));
    let (eff, _) = review_settings(
        &Config::default(),
        &cfg("[ci]\nlint_fail_on = \"warning\"\n"),
        false,
    );
    assert_eq!(eff.ci.lint_fail_on, Some(LintFailOn::Warning));
}

#[test]
fn every_other_key_is_compared_and_keeps_the_base_value() {
    let base = cfg(
        "[ci]\nbase_url = \"https://api.openai.com/v1\"\nseed = 1\nout = \"a\"\n[connect]\nheaders = [\"X-Api-Key: base-secret\"]\n",
    );
    let head = cfg(
        "[ci]\nbase_url = \"https://evil.example/v1\"\nseed = 2\nallow_writes = true\nout = \"b\"\nmax_steps = 3\n[connect]\nsandbox_uid = 0\nsandbox_write = [\"/\"]\nbearer_env = \"GITHUB_TOKEN\"\nheaders = [\"X-Api-Key: pr-secret\"]\nmax_pages = 1\n",
    );
    let (eff, changes) = review_settings(&base, &head, false);
    assert_eq!(eff.ci.base_url, base.ci.base_url);
    assert_eq!(eff.ci.seed, Some(1));
    assert_eq!(eff.ci.allow_writes, None);
    assert_eq!(eff.ci.max_steps, None);
    assert_eq!(eff.connect.sandbox_uid, None);
    assert!(eff.connect.sandbox_write.is_empty());
    assert_eq!(eff.connect.bearer_env, None);
    assert_eq!(eff.connect.headers, base.connect.headers);
    assert_eq!(eff.connect.max_pages, None);
    for s in [
        "ci.base_url",
        "ci.seed",
        "ci.allow_writes",
        "ci.max_steps",
        "connect.sandbox_uid",
        "connect.sandbox_write",
        "connect.bearer_env",
        "connect.headers",
        "connect.max_pages",
    ] {
        assert_eq!(
            applied(&changes, s),
            Some(Applied::Base),
            "{s}: {changes:#?}"
        );
    }
    // Where reports go changes no verdict: the PR's value, not listed.
    assert_eq!(eff.ci.out.as_deref(), Some(std::path::Path::new("b")));
    assert!(applied(&changes, "ci.out").is_none());
    // Header values never reach the section.
    let shown = format!("{changes:?}");
    assert!(!shown.contains("secret"), "{shown}");
    // With the override, the PR's values apply and are named.
    let (eff, changes) = review_settings(&base, &head, true);
    assert_eq!(eff.ci.seed, Some(2));
    assert_eq!(applied(&changes, "ci.seed"), Some(Applied::Override));
}

#[test]
fn the_sandbox_and_alpha_are_ordered() {
    let off = cfg("[connect]\nsandbox = \"off\"\n");
    let standard = cfg("[connect]\nsandbox = \"standard\"\n");
    let strict = cfg("[connect]\nsandbox = \"strict\"\n");
    let (eff, _) = review_settings(&off, &standard, false);
    assert_eq!(
        eff.connect.sandbox, standard.connect.sandbox,
        "off → standard is stricter"
    );
    let (eff, _) = review_settings(&strict, &standard, false);
    assert_eq!(
        eff.connect.sandbox, strict.connect.sandbox,
        "strict → standard is looser"
    );
    let (eff, _) = review_settings(&Config::default(), &off, false);
    assert_eq!(
        eff.connect.sandbox, None,
        "unset (standard) → off is looser"
    );
    // A smaller alpha flags fewer regressions: looser.
    let (eff, _) = review_settings(&Config::default(), &cfg("[ci]\nalpha = 0.001\n"), false);
    assert_eq!(eff.ci.alpha, None);
    let (eff, _) = review_settings(&Config::default(), &cfg("[ci]\nalpha = 0.1\n"), false);
    assert_eq!(eff.ci.alpha, Some(0.1));
}

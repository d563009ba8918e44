//! The gate settings a pull request changed, as data: each setting's value on the base
//! revision and in the pull request, and which one the gate applied. `toolgate ci` fills it
//! in pull requests (src/ci/policy), the comment's "Gate settings changed in this PR" section
//! renders it.

use serde::{Deserialize, Serialize};

/// The label a maintainer puts on a pull request to let its looser gate settings apply.
pub(crate) const OVERRIDE_LABEL: &str = "toolgate-accept-settings";

/// The comparison of a pull request's gate settings with its base revision's.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct SettingsReview {
    /// The base revision the settings were read from.
    pub base_sha: String,
    /// The pull request carries [`OVERRIDE_LABEL`]: its own values apply, shown as such.
    pub overridden: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<SettingChange>,
    /// What could not be compared, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One setting (or reviewed file) that differs between the base revision and the pull request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct SettingChange {
    /// `ci.fail_under`, `server`, `toolgate.lock`, …
    pub setting: String,
    /// The base revision's value (`unset`, `absent` when the file did not exist).
    pub base: String,
    /// The pull request's value.
    pub head: String,
    pub applied: Applied,
}

/// Which value the gate used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Applied {
    /// The base revision's: the pull request's value would loosen the gate (or change what it
    /// measures) and no override label is set.
    Base,
    /// The pull request's: it is as strict or stricter, or it is a reviewed-file change the
    /// reviewer sees in the diff (named here so it is not missed).
    Head,
    /// The pull request's, because a maintainer set the override label.
    Override,
}

impl Applied {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Applied::Base => "base value kept",
            Applied::Head => "this PR's value applies",
            Applied::Override => "this PR's value applies (override label)",
        }
    }
}

/// The gate settings a baseline was judged under, recorded in it: the next pull request's
/// comparison is against numbers made under a known policy, and a reader sees which.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct AppliedPolicy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_under: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_tool_accuracy: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_drop: Option<f64>,
    pub lock_check: super::gate::LockCheck,
    pub lint_fail_on: super::gate::LintFailOn,
    pub fail_on_regression: bool,
    pub fail_on_tool_regression: bool,
    pub max_error_rate: f64,
    pub alpha: f64,
    pub models: Vec<String>,
    pub server: String,
    /// The base revision the settings were checked against (in a pull request).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_against: Option<String>,
}

//! What `ci` records beside its verdict: the gate settings it applied (kept in the baseline)
//! and what a reader should know about the contract tests that is not a failure.

use super::settings::CiSettings;
use crate::catalog::canonical::short_hash as short;
use crate::record::contract::ContractReport;

/// What a reader of the gate should know about the contract tests that is not a failure.
pub(super) fn contract_notices(c: &ContractReport, gated_sha256: &str) -> Vec<String> {
    let mut out = Vec::new();
    if c.summary.calls == 0 {
        out.push("The contract tests called no tool (none is marked readOnlyHint: true; --allow-writes calls the others): they tested nothing.".into());
    }
    if c.catalog_sha256 != gated_sha256 {
        out.push(format!(
            "The server listed different tools in the contract session (catalog {}…) than in the gated one ({}…): its listing is not stable.",
            short(&c.catalog_sha256),
            short(gated_sha256)
        ));
    }
    out
}

/// The gate settings of this run, as the baseline records them.
pub(super) fn applied_policy(
    s: &CiSettings,
    server: &str,
) -> crate::record::settings::AppliedPolicy {
    let p = &s.policy;
    crate::record::settings::AppliedPolicy {
        fail_under: p.fail_under,
        min_tool_accuracy: p.min_tool_accuracy,
        max_drop: p.max_drop,
        lock_check: p.lock_check,
        lint_fail_on: p.lint_fail_on,
        fail_on_regression: p.fail_on_regression,
        fail_on_tool_regression: p.fail_on_tool_regression,
        max_error_rate: p.max_error_rate,
        alpha: p.alpha,
        models: s
            .eval
            .models
            .iter()
            .map(|m| m.as_str().to_string())
            .collect(),
        server: server.to_string(),
        checked_against: s.settings_review.as_ref().map(|r| r.base_sha.clone()),
    }
}

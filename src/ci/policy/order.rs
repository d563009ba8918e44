//! Which of two values of a gate setting is stricter: higher or lower numbers, switches on,
//! ranked levels, and unordered values (any change is looser).

use crate::record::gate::{LintFailOn, LockCheck};

/// How a pull request's value compares with the base's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    Same,
    Stricter,
    /// Looser, or unordered and different.
    Looser,
}

/// Higher is stricter; unset is the weakest.
pub(super) fn higher<T: PartialOrd>(base: &Option<T>, head: &Option<T>) -> Order {
    match (base, head) {
        (a, b) if a == b => Order::Same,
        (None, Some(_)) => Order::Stricter,
        (Some(_), None) => Order::Looser,
        (Some(a), Some(b)) if b > a => Order::Stricter,
        _ => Order::Looser,
    }
}

/// Lower is stricter; unset is `default`.
pub(super) fn lower(base: Option<f64>, head: Option<f64>, default: f64) -> Order {
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
pub(super) fn truer(base: Option<bool>, head: Option<bool>, default: bool) -> Order {
    match (base.unwrap_or(default), head.unwrap_or(default)) {
        (a, b) if a == b => Order::Same,
        (false, true) => Order::Stricter,
        _ => Order::Looser,
    }
}

pub(super) fn rank_lock(v: Option<LockCheck>) -> u8 {
    match v.unwrap_or_default() {
        LockCheck::Fail => 2,
        LockCheck::Warn => 1,
        LockCheck::Off => 0,
    }
}

pub(super) fn rank_lint(v: Option<LintFailOn>) -> u8 {
    match v.unwrap_or_default() {
        LintFailOn::Warning => 2,
        LintFailOn::Error => 1,
        LintFailOn::Never => 0,
    }
}

/// `fail_on_new` unset is warning.
pub(super) fn rank_new(v: Option<LintFailOn>) -> u8 {
    rank_lint(Some(v.unwrap_or(LintFailOn::Warning)))
}

pub(super) fn ranked(a: u8, b: u8) -> Order {
    match b.cmp(&a) {
        std::cmp::Ordering::Equal => Order::Same,
        std::cmp::Ordering::Greater => Order::Stricter,
        std::cmp::Ordering::Less => Order::Looser,
    }
}

pub(super) fn unordered<T: PartialEq>(a: &T, b: &T) -> Order {
    if a == b { Order::Same } else { Order::Looser }
}

pub(super) fn rank_sandbox(v: Option<crate::sandbox::SandboxMode>) -> u8 {
    use crate::sandbox::SandboxMode;
    match v.unwrap_or_default() {
        SandboxMode::Strict => 2,
        SandboxMode::Standard => 1,
        SandboxMode::Off => 0,
    }
}

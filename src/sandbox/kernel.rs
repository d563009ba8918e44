//! What the running kernel allows, read from /proc: the highest capability number and whether
//! unprivileged user namespaces may be made.

/// The highest capability this kernel knows (40 when /proc does not say; at most 63).
pub(super) fn last_cap() -> u32 {
    std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(40)
        .min(63)
}

/// Whether user namespaces may be created at all (`max_user_namespaces` above 0).
pub(super) fn userns_possible() -> bool {
    std::fs::read_to_string("/proc/sys/user/max_user_namespaces")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .is_some_and(|n| n > 0)
}

//! Validated numbers from users, files and servers: a duration from seconds never panics
//! (`Duration::from_secs_f64` does on NaN, negative, infinite or huge values) and is bounded;
//! the bounds on what a catalog may cost (tools, pages); and the allocator's settings that keep
//! peak memory near what is live.

use std::time::Duration;

/// Most retries of one model request (each waits longer than the last).
pub(crate) const MAX_RETRIES: u32 = 20;

/// Most tools in one catalog toolgate checks (issue 42 point 6). A host shows a model far
/// fewer (Cursor 40, OpenAI 128 tools per request), and past this the work a server can cause
/// (listing, linting, a suite of three requests per tool) no longer ends within a CI job's
/// time; a larger listing stops with this limit named, as soon as a page passes it.
pub(crate) const MAX_TOOLS: usize = 20_000;

/// The error for a catalog past [`MAX_TOOLS`].
pub(crate) fn too_many_tools(listed: usize, whence: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{whence} lists {listed} tools or more: toolgate checks catalogs of at most {MAX_TOOLS} tools (a host shows a model far fewer: Cursor 40, OpenAI 128 per request); check a subset, e.g. one snapshot per toolset"
    )
}

/// The longest duration toolgate accepts anywhere (a timeout, a wait): one week.
pub(crate) const MAX_DURATION: Duration = Duration::from_secs(7 * 24 * 3600);

/// A duration from a number of seconds, or an error naming `what` (a flag, a variable, a
/// `toolgate.toml` key): NaN, negative and infinite values are refused, and so is anything
/// over a week (a value that large is a mistake, and would overflow elsewhere).
pub(crate) fn duration_from_secs(v: f64, what: &str) -> Result<Duration, String> {
    if v.is_nan() {
        return Err(format!("{what}: not a number (NaN); give seconds, e.g. 30"));
    }
    if v.is_infinite() {
        return Err(format!(
            "{what}: infinite; give a number of seconds up to one week (604800)"
        ));
    }
    if v < 0.0 {
        return Err(format!("{what}: {v} is negative; give a number of seconds"));
    }
    if v > MAX_DURATION.as_secs_f64() {
        return Err(format!(
            "{what}: {v} seconds is more than one week (604800); give a smaller number of seconds"
        ));
    }
    Duration::try_from_secs_f64(v).map_err(|e| format!("{what}: {v}: {e}"))
}

/// A wait a server asked for (`Retry-After`), capped at `cap`. Returns the wait and, when
/// the value was unusable or cut, a note saying so.
pub(crate) fn capped_wait(v: f64, cap: Duration, what: &str) -> (Duration, Option<String>) {
    match duration_from_secs(v, what) {
        Ok(d) if d <= cap => (d, None),
        Ok(_) => (
            cap,
            Some(format!(
                "{what}: {v}s is longer than toolgate waits; waited {}s",
                cap.as_secs_f64()
            )),
        ),
        Err(e) if v > 0.0 => (cap, Some(format!("{e}; waited {}s", cap.as_secs_f64()))),
        Err(e) => (
            Duration::ZERO,
            Some(format!("{e}; retried without waiting")),
        ),
    }
}

/// A rate between 0 and 1 from `flag`.
pub(crate) fn rate(flag: &str, v: Option<f64>) -> anyhow::Result<Option<f64>> {
    if let Some(x) = v
        && !(0.0..=1.0).contains(&x)
    {
        anyhow::bail!("{flag} takes a rate between 0 and 1 (e.g. 0.8), not {x}");
    }
    Ok(v)
}

/// Keeps peak memory near what is live (issue 42 point 6). toolgate's threads are mostly an
/// async runtime waiting on servers and providers, and glibc gave each its own malloc arena,
/// each keeping the blocks freed in it: one arena is enough. Call first thing in `main`,
/// before any thread starts.
pub(crate) fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets glibc malloc's parameters; no other thread exists yet.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Hands memory freed by a finished stage back to the system (glibc keeps it for reuse), so
/// the next stage's peak does not stack on the last one's: called between `ci`'s stages
/// (lint, evaluation, each ablation arm), not in hot loops.
pub(crate) fn trim_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory; it touches no live allocation.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_values_are_errors_not_panics() {
        for v in [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -1.0,
            1.8e19,
            1e300,
            604800.5,
        ] {
            let e = duration_from_secs(v, "--timeout").unwrap_err();
            assert!(e.starts_with("--timeout"), "{e}");
        }
        assert_eq!(duration_from_secs(0.0, "x").unwrap(), Duration::ZERO);
        assert_eq!(
            duration_from_secs(1.5, "x").unwrap(),
            Duration::from_millis(1500)
        );
        assert_eq!(duration_from_secs(604800.0, "x").unwrap(), MAX_DURATION);
    }

    #[test]
    fn waits_are_capped_with_a_note() {
        let cap = Duration::from_secs(120);
        assert_eq!(
            capped_wait(2.0, cap, "Retry-After"),
            (Duration::from_secs(2), None)
        );
        let (d, note) = capped_wait(1e30, cap, "Retry-After");
        assert_eq!(d, cap);
        assert!(note.unwrap().contains("Retry-After"));
        let (d, note) = capped_wait(f64::NAN, cap, "Retry-After");
        assert_eq!(d, Duration::ZERO);
        assert!(note.unwrap().contains("NaN"));
        let (d, _) = capped_wait(500.0, cap, "Retry-After");
        assert_eq!(d, cap);
    }
}

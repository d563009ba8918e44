//! Tests of `retry`.

use super::*;

#[test]
fn retry_after_reads_seconds_and_dates() {
    let cap = Duration::from_secs(120);
    let mut h = reqwest::header::HeaderMap::new();
    h.insert(reqwest::header::RETRY_AFTER, "2".parse().unwrap());
    assert_eq!(retry_after(&h, cap), (Some(Duration::from_secs(2)), None));
    h.insert(
        reqwest::header::RETRY_AFTER,
        "Sun, 06 Nov 1994 08:49:37 GMT".parse().unwrap(),
    );
    assert_eq!(retry_after(&h, cap), (Some(Duration::ZERO), None));
}

#[test]
fn hostile_retry_after_values_are_capped_or_ignored_with_a_note() {
    let cap = Duration::from_secs(120);
    for (v, want) in [
        ("NaN", None),
        ("nan", None),
        ("-5", None),
        ("-inf", None),
        ("banana", None),
        ("inf", Some(cap)),
        ("1e400", Some(cap)),
        ("1.8e19", Some(cap)),
        ("99999999999999999999", Some(cap)),
        ("Fri, 31 Dec 9999 23:59:59 GMT", Some(cap)),
    ] {
        let mut h = reqwest::header::HeaderMap::new();
        h.insert(reqwest::header::RETRY_AFTER, v.parse().unwrap());
        let (wait, note) = retry_after(&h, cap);
        assert_eq!(wait, want, "{v}");
        assert!(note.is_some(), "{v}: no note");
    }
}

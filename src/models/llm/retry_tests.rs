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
    // The obsolete forms an HTTP-date may still take (RFC 9110 5.6.7).
    for old in ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
        h.insert(reqwest::header::RETRY_AFTER, old.parse().unwrap());
        assert_eq!(retry_after(&h, cap), (Some(Duration::ZERO), None), "{old}");
    }
    // A date a minute ahead is about a minute's wait.
    let soon = httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(60));
    h.insert(reqwest::header::RETRY_AFTER, soon.parse().unwrap());
    let wait = retry_after(&h, cap).0.unwrap();
    assert!(
        wait > Duration::from_secs(55) && wait <= Duration::from_secs(60),
        "{wait:?}"
    );
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

use super::*;

#[test]
fn strips_provider_keys_but_not_server_keys() {
    assert!(is_stripped("OPENAI_API_KEY", &[]));
    assert!(is_stripped("GITHUB_TOKEN", &[]));
    assert!(!is_stripped("GITHUB_TOKEN", &["GITHUB_TOKEN".into()]));
    assert!(!is_stripped("BRAVE_API_KEY", &[]));
    assert!(!is_stripped("PATH", &[]));
    assert!(is_stripped("INPUT_GITHUB-TOKEN", &[]));
    assert!(is_stripped("TOOLGATE_HEADERS", &[]));
}

#[test]
fn every_provider_key_and_runner_file_is_stripped() {
    for p in crate::models::provider::PROVIDERS {
        assert!(is_stripped(p.key_env, &[]), "{} reaches servers", p.key_env);
    }
    assert!(is_stripped("OPENAI_COMPAT_API_KEY", &[]));
    assert!(is_stripped("LLAMACPP_API_KEY", &[]));
    for v in [
        "GITHUB_ENV",
        "GITHUB_PATH",
        "GITHUB_OUTPUT",
        "GITHUB_STEP_SUMMARY",
        "GITHUB_EVENT_PATH",
        "ACTIONS_CACHE_URL",
        "ACTIONS_RESULTS_URL",
    ] {
        assert!(is_stripped(v, &[]), "{v} reaches servers");
    }
    assert!(!is_stripped("GITHUB_WORKSPACE", &[]));
}

#[test]
fn masking_hides_secret_looking_values_and_extras() {
    let text = "boom: header=hdr-value-123 key=sk-live-abcdef short=abc";
    let out = mask_values(
        text,
        vec![
            "hdr-value-123".into(),
            "sk-live-abcdef".into(),
            "abc".into(),
        ],
    );
    assert_eq!(out, "boom: header=*** key=*** short=abc");
    // Longest first: a value that contains another is masked whole.
    let out = mask_values(
        "x=secret-long-value",
        vec!["secret".into(), "secret-long-value".into()],
    );
    assert_eq!(out, "x=***");
    assert!(looks_secret("MY_PASSWORD") && looks_secret("x_auth_header"));
    assert!(!looks_secret("PATH"));
    assert!(!looks_secret("GIT_AUTHOR_EMAIL") && looks_secret("GIT_AUTH_TOKEN"));
}

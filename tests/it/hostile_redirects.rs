//! Issue 11, point 4: a server (MCP or LLM provider) that redirects to another origin must not
//! receive the credentials: toolgate refuses the redirect and says so. Two local servers on
//! 127.0.0.1 with different ports are different origins.

use crate::common::toolgate;
use toolgate::testing::catalog::Catalog;
use toolgate::testing::models::{ModelOptions, build_llm};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn redirecting_pair() -> (MockServer, MockServer) {
    let a = MockServer::start().await;
    let b = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_string("{}"))
        .mount(&b)
        .await;
    let target = format!("{}/steal", b.uri());
    Mock::given(any())
        .respond_with(ResponseTemplate::new(307).insert_header("location", target.as_str()))
        .mount(&a)
        .await;
    (a, b)
}

#[tokio::test]
async fn mcp_header_is_not_forwarded_across_origins() {
    let (a, b) = redirecting_pair().await;
    let url = format!("{}/mcp", a.uri());
    let out = tokio::task::spawn_blocking(move || {
        toolgate()
            .args([
                "inspect",
                &url,
                "--header",
                "x-api-key: hdr-secret-4242",
                "--connect-timeout",
                "10",
            ])
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone()
    })
    .await
    .unwrap();
    let err = String::from_utf8_lossy(&out);
    assert!(
        err.contains("another origin"),
        "the refusal is explained: {err}"
    );
    assert!(!err.contains("hdr-secret-4242"), "{err}");
    let seen = b.received_requests().await.unwrap();
    assert!(
        seen.is_empty(),
        "the other origin got {} request(s), headers: {:?}",
        seen.len(),
        seen.first().map(|r| r.headers.clone())
    );
    assert!(!a.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn provider_key_is_not_forwarded_across_origins() {
    let (a, b) = redirecting_pair().await;
    for spec in ["anthropic:claude-test", "openai-compat:model-test"] {
        let opts = ModelOptions {
            base_url: Some(a.uri()),
            api_key: Some("sk-provider-secret-77".into()),
            ..Default::default()
        };
        let model = build_llm(spec, &Catalog::default(), &opts).unwrap();
        let e = model.complete("system", "hello", 0).await.unwrap_err();
        assert!(e.contains("another origin"), "{spec}: {e}");
        assert!(!e.contains("sk-provider-secret-77"), "{e}");
    }
    assert!(b.received_requests().await.unwrap().is_empty());
    // Refused at once, not retried: one request per model.
    assert_eq!(a.received_requests().await.unwrap().len(), 2);
}

//! Issue 11, point 11: a provider's `Retry-After: NaN` (or 1e30) used to panic in
//! `Duration::from_secs_f64`; now an unusable value falls back to the backoff and a huge one
//! is capped, each with a note.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use toolgate::testing::catalog::Catalog;
use toolgate::testing::models::llm::LlmOptions;
use toolgate::testing::models::{Model, ModelOptions, build_llm};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// The first request of each pair is a 429 with the hostile Retry-After, the next succeeds.
struct Flaky {
    retry_after: &'static str,
    n: Arc<AtomicUsize>,
}

impl Respond for Flaky {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        if self.n.fetch_add(1, Ordering::SeqCst).is_multiple_of(2) {
            return ResponseTemplate::new(429).insert_header("retry-after", self.retry_after);
        }
        ResponseTemplate::new(200).set_body_json(json!({"id": "x", "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hello"}}]}))
    }
}

#[tokio::test]
async fn hostile_retry_after_neither_panics_nor_stalls() {
    for value in ["NaN", "-1", "1e30", "inf", "18446744073709551616"] {
        let server = MockServer::start().await;
        Mock::given(wiremock::matchers::any())
            .respond_with(Flaky {
                retry_after: value,
                n: Arc::default(),
            })
            .mount(&server)
            .await;
        let opts = ModelOptions {
            base_url: Some(server.uri()),
            llm: LlmOptions {
                backoff: Duration::from_millis(10),
                max_wait: Duration::from_millis(300),
                ..Default::default()
            },
            ..Default::default()
        };
        let model = build_llm("openai-compat:m", &Catalog::default(), &opts).unwrap();
        let started = Instant::now();
        let text = model.complete("s", "u", 0).await;
        assert_eq!(text.as_deref(), Ok("hello"), "Retry-After {value}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{value}: {:?}",
            started.elapsed()
        );
        let notes = model.notes();
        assert!(
            notes.iter().any(|n| n.contains("Retry-After")),
            "Retry-After {value}: no note in {notes:?}"
        );
    }
}

/// llama-server's 500 for model output that did not parse as a tool call is the same on every
/// try at temperature 0: it is reported once, not retried.
#[tokio::test]
async fn an_unparsable_model_output_is_not_retried() {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(500).set_body_json(json!({"error": {"code": 500,
            "message": "The model produced output that does not match the expected peg-native format",
            "type": "server_error"}})))
        .mount(&server)
        .await;
    let opts = ModelOptions {
        base_url: Some(server.uri()),
        llm: LlmOptions {
            backoff: Duration::from_millis(10),
            ..Default::default()
        },
        ..Default::default()
    };
    let model = build_llm("openai-compat:m", &Catalog::default(), &opts).unwrap();
    let r = model.complete("s", "u", 0).await;
    let err = format!("{:?}", r.unwrap_err());
    assert!(err.contains("does not match the expected"), "{err}");
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        1,
        "no retry"
    );
}

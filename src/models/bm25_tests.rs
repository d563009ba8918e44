//! Tests of `bm25`.

use super::*;
use serde_json::json;

fn catalog() -> Catalog {
    let tools = [
        json!({"name": "get_weather", "description": "Current weather and forecast for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}}),
        json!({"name": "send_email", "description": "Send an email message to a recipient.", "inputSchema": {"type": "object", "properties": {"to": {"type": "string", "description": "Recipient email address"}}}}),
        json!({"name": "book_room", "description": "Reserve a meeting room.", "inputSchema": {"type": "object"}}),
    ];
    Catalog {
        tools: tools
            .into_iter()
            .map(|t| Tool::from_value(t, "t").unwrap())
            .collect(),
        ..Default::default()
    }
}

#[test]
fn ranks_the_matching_tool_first_and_abstains_on_unrelated_requests() {
    let m = Bm25::new(&catalog(), 1.0);
    assert_eq!(
        m.choose("What's the weather forecast in Lisbon?")
            .tool
            .as_deref(),
        Some("get_weather")
    );
    assert_eq!(
        m.choose("email the recipient a message").tool.as_deref(),
        Some("send_email")
    );
    assert_eq!(m.choose("tell me a joke about penguins").tool, None);
}

/// mcp-server-fetch's only tool: with plain BM25 its IDF is ~0.29 and a fixed threshold
/// never calls it; the background prior keeps one distinctive word worth ~2–3.
#[test]
fn a_one_tool_catalog_is_still_called() {
    let fetch = json!({"name": "fetch", "description": "Fetches a URL from the internet and optionally extracts its contents as markdown.", "inputSchema": {"type": "object", "properties": {"url": {"type": "string", "description": "URL to fetch"}, "raw": {"type": "boolean", "description": "Get the actual HTML content of the requested page, without simplification."}}}});
    let c = Catalog {
        tools: vec![Tool::from_value(fetch, "t").unwrap()],
        ..Default::default()
    };
    let m = Bm25::from_spec("", &c).unwrap();
    assert_eq!(m.spec(), "bm25:3");
    assert_eq!(
        m.choose("Fetch https://example.com/docs and give me the contents")
            .tool
            .as_deref(),
        Some("fetch")
    );
    assert_eq!(m.choose("Tell me a joke about penguins").tool, None);
}

/// The sparse best agrees with a full scan over every tool, scores and ties included.
#[test]
fn sparse_best_equals_the_dense_scan() {
    let m = Bm25::new(&catalog(), 0.0);
    for request in [
        "",
        "zzz",
        "weather",
        "email the recipient a message about the weather in a meeting room",
        "room room city name city",
    ] {
        let dense = m
            .names
            .iter()
            .map(String::as_str)
            .zip(m.scores(request))
            .min_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        assert_eq!(m.best(request), dense, "{request}");
    }
    let empty = Bm25::new(&Catalog::default(), 0.0);
    assert_eq!(empty.best("weather"), None);
}

#[test]
fn ties_break_by_name_and_spec_parses() {
    let m = Bm25::new(&catalog(), 0.0);
    let ranked = m.rank("zzz");
    assert_eq!(
        ranked.iter().map(|r| r.0).collect::<Vec<_>>(),
        vec!["book_room", "get_weather", "send_email"]
    );
    assert_eq!(
        Bm25::from_spec("2.5", &catalog()).unwrap().spec(),
        "bm25:2.5"
    );
    assert!(Bm25::from_spec("x", &catalog()).is_err());
    assert!(Bm25::from_spec("-1", &catalog()).is_err());
}

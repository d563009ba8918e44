//! What an LLM run will cost, said before it starts: calls (tasks × trials, plus the two calls
//! of the description canary), prompt tokens counted with a real tokenizer over the request
//! bodies toolgate will send (system prompt, the catalog's tools in the provider's wire shape,
//! each request), an allowance for the replies, and dollars from a price table for models whose
//! list price is known (a model run on this machine costs nothing; an unknown one gets tokens
//! only). `--max-cost` turns the per-call estimate into a call budget, honoured like
//! `--max-calls`: the run stops paying there and is marked partial.

pub(crate) use crate::record::run::Estimate;

use super::provider::Wire;
use super::spec::ModelSpec;
use crate::catalog::Catalog;

/// Reply tokens allowed per call: a tool call (name and arguments) or a short answer.
pub(crate) const COMPLETION_PER_CALL: u64 = 40;
/// Calls the description canary makes per model.
pub(crate) const CANARY_CALLS: u64 = 2;

/// List prices in US dollars per million tokens (input, output), by model-name prefix; the
/// longest prefix that matches wins (`gpt-4o-mini` before `gpt-4o`).
const PRICES: &[(&str, f64, f64)] = &[
    ("gpt-5-nano", 0.05, 0.40),
    ("gpt-5-mini", 0.25, 2.00),
    ("gpt-5", 1.25, 10.00),
    ("gpt-4.1-nano", 0.10, 0.40),
    ("gpt-4.1-mini", 0.40, 1.60),
    ("gpt-4.1", 2.00, 8.00),
    ("gpt-4o-mini", 0.15, 0.60),
    ("gpt-4o", 2.50, 10.00),
    ("o4-mini", 1.10, 4.40),
    ("o3-mini", 1.10, 4.40),
    ("o3", 2.00, 8.00),
    ("claude-3-5-haiku", 0.80, 4.00),
    ("claude-3-haiku", 0.25, 1.25),
    ("claude-haiku-4", 1.00, 5.00),
    ("claude-3-5-sonnet", 3.00, 15.00),
    ("claude-3-7-sonnet", 3.00, 15.00),
    ("claude-sonnet-4", 3.00, 15.00),
    ("claude-opus-4", 15.00, 75.00),
];

/// Providers that run on this machine or the user's own hardware: no per-token price.
const OWN_HARDWARE: &[&str] = &["ollama", "vllm", "llamacpp", "lmstudio", "local"];

/// Dollars per million tokens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Price {
    pub input: f64,
    pub output: f64,
}

/// The price of `spec`'s model, when known.
pub(crate) fn price(spec: &ModelSpec) -> Option<Price> {
    if OWN_HARDWARE.contains(&spec.head()) {
        return Some(Price {
            input: 0.0,
            output: 0.0,
        });
    }
    // OpenRouter names models `vendor/model`.
    let name = spec
        .rest()
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    PRICES
        .iter()
        .filter(|(prefix, _, _)| name.starts_with(prefix))
        .max_by_key(|(prefix, _, _)| prefix.len())
        .map(|&(_, input, output)| Price { input, output })
}

fn tokens(text: &str) -> u64 {
    crate::tokens::count(text).0 as u64
}

/// The estimate for `spec` over `requests` (one call each per trial) on `catalog`.
pub(crate) fn estimate(
    spec: &ModelSpec,
    catalog: &Catalog,
    requests: &[&str],
    trials: u32,
) -> Estimate {
    let wire = spec.provider().map_or(Wire::OpenAi, |p| p.wire);
    let tools = super::wire::tools(wire, catalog);
    // The body without its request, counted once; each request adds its own (JSON-escaped).
    let empty = super::wire::body(wire, spec.rest(), &tools, "", &[], true, None);
    let base = tokens(&empty.to_string());
    let per_request: u64 = requests
        .iter()
        .map(|r| {
            let quoted = serde_json::to_string(r).unwrap_or_default();
            tokens(quoted.trim_matches('"'))
        })
        .sum();
    let trials = u64::from(trials.max(1));
    let calls = requests.len() as u64 * trials;
    // The canary: two short requests over a two-tool catalog.
    let canary = CANARY_CALLS * 200;
    let prompt_tokens = (base * requests.len() as u64 + per_request) * trials + canary;
    let calls = calls + CANARY_CALLS;
    let completion_tokens = calls * COMPLETION_PER_CALL;
    let usd = price(spec).map(|p| {
        (prompt_tokens as f64 * p.input + completion_tokens as f64 * p.output) / 1_000_000.0
    });
    Estimate {
        calls,
        prompt_tokens,
        completion_tokens,
        usd,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> ModelSpec {
        s.parse().unwrap()
    }

    #[test]
    fn the_longest_prefix_prices_a_model_and_own_hardware_is_free() {
        assert_eq!(
            price(&spec("openai:gpt-4o-mini-2024-07-18")).unwrap().input,
            0.15
        );
        assert_eq!(price(&spec("openai:gpt-4o")).unwrap().input, 2.50);
        assert_eq!(
            price(&spec("openrouter:anthropic/claude-sonnet-4"))
                .unwrap()
                .output,
            15.0
        );
        assert_eq!(price(&spec("ollama:qwen2.5:7b")).unwrap().input, 0.0);
        assert!(price(&spec("openai-compat:my-model")).is_none());
    }

    #[test]
    fn tokens_grow_with_the_catalog_and_the_requests_and_dollars_follow_the_price() {
        let cat: Catalog = crate::catalog::snapshot::parse(
            &serde_json::json!({"tools": [
                {"name": "get_weather", "description": "Current conditions and forecast for a city.",
                 "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]})
            .to_string(),
            "t",
        )
        .unwrap();
        let reqs = ["weather in Lisbon", "will it rain in Porto tomorrow?"];
        let e = estimate(&spec("openai:gpt-4o-mini"), &cat, &reqs, 3);
        assert_eq!(e.calls, 2 * 3 + CANARY_CALLS);
        let one = estimate(&spec("openai:gpt-4o-mini"), &cat, &reqs[..1], 1);
        assert!(e.prompt_tokens > 5 * (one.prompt_tokens - CANARY_CALLS * 200));
        let usd = e.usd.unwrap();
        let want = (e.prompt_tokens as f64 * 0.15 + e.completion_tokens as f64 * 0.60) / 1e6;
        assert!((usd - want).abs() < 1e-12);
        assert!(
            estimate(&spec("openai-compat:m"), &cat, &reqs, 1)
                .usd
                .is_none()
        );
        // $1 at this price per call buys this many calls.
        let calls = e.calls_for(1.0).unwrap();
        assert_eq!(calls, (1.0 / (usd / e.calls as f64)).floor() as u64);
        assert!(e.sentence("openai:gpt-4o-mini").contains("≈ $"));
    }
}

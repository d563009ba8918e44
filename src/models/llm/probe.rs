//! The description probe: does this endpoint pass tool descriptions on to the model at all?
//! Shown by behaviour — a canary ([`Canary`]) — never by the `usage` an endpoint reports
//! (a constant usage once gave a false alarm, a missing one gave silence).

use serde_json::{Value, json};

use super::LlmModel;
use crate::models::provider::Wire;
use crate::models::{Canary, DescriptionProbe, wire};

/// The canary's two tools (neutral names, one parameter alike) and its request, which only
/// the first description fits.
const CANARY_NAMES: [&str; 2] = ["tool_k7", "tool_q2"];
const CANARY_DESCRIPTIONS: [&str; 2] = [
    "Converts a temperature from degrees Celsius to degrees Fahrenheit.",
    "Looks up the opening hours of a public library branch.",
];
const CANARY_REQUEST: &str = "What is 21 degrees Celsius in Fahrenheit? Use a tool.";

fn canary_tools(wire: Wire, swapped: bool) -> Vec<Value> {
    let schema = json!({"type": "object", "properties": {"input": {"type": "string", "description": "The input."}}, "required": ["input"]});
    (0..2)
        .map(|i| {
            let desc = CANARY_DESCRIPTIONS[if swapped { 1 - i } else { i }];
            match wire {
                Wire::OpenAi => json!({"type": "function", "function": {"name": CANARY_NAMES[i], "description": desc, "parameters": schema}}),
                Wire::Anthropic => json!({"name": CANARY_NAMES[i], "description": desc, "input_schema": schema}),
            }
        })
        .collect()
}

/// The verdict of the two answers (what was called as written, then swapped).
pub(crate) fn verdict(as_written: Option<&str>, swapped: Option<&str>) -> Canary {
    match (as_written, swapped) {
        (Some(a), Some(b)) if a == CANARY_NAMES[0] && b == CANARY_NAMES[1] => Canary::Follows,
        (Some(a), Some(b)) if a == b && CANARY_NAMES.contains(&a) => Canary::Ignores,
        _ => Canary::Inconclusive,
    }
}

impl LlmModel {
    /// Asks the canary request twice (descriptions as written, then swapped) and reads what
    /// was called. `known`: the prompt tokens one real request cost, kept for the record.
    pub(super) async fn probe(
        &self,
        _request: &str,
        known: Option<u64>,
    ) -> Option<DescriptionProbe> {
        let wire = self.endpoint.provider.wire;
        let ask = |swapped: bool| async move {
            let tools = canary_tools(wire, swapped);
            let make = |t: bool| {
                wire::body(
                    wire,
                    &self.model,
                    &tools,
                    CANARY_REQUEST,
                    &[],
                    t,
                    self.opts.seed,
                )
            };
            let reply = self.exchange_with(&make, 0, false).await.ok()?;
            reply.calls.first().map(|c| c.name.clone())
        };
        let a = ask(false).await;
        let b = ask(true).await;
        let canary = verdict(a.as_deref(), b.as_deref());
        Some(DescriptionProbe {
            reach: canary == Canary::Follows,
            canary,
            picked: [a, b]
                .into_iter()
                .map(|c| {
                    c.unwrap_or_else(|| "(no call)".into())
                        .chars()
                        .take(80)
                        .collect()
                })
                .collect(),
            prompt_tokens: known,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_canary_reads_behaviour() {
        let [k, q] = CANARY_NAMES;
        assert_eq!(verdict(Some(k), Some(q)), Canary::Follows);
        assert_eq!(verdict(Some(k), Some(k)), Canary::Ignores);
        assert_eq!(verdict(Some(q), Some(q)), Canary::Ignores);
        assert_eq!(verdict(None, Some(q)), Canary::Inconclusive);
        assert_eq!(
            verdict(Some(q), Some(k)),
            Canary::Inconclusive,
            "wrong both times"
        );
        assert_eq!(
            verdict(Some("book_room"), Some("book_room")),
            Canary::Inconclusive
        );
        // The two tools differ in nothing but their descriptions.
        let t = canary_tools(Wire::OpenAi, false);
        assert_eq!(
            t[0]["function"]["parameters"],
            t[1]["function"]["parameters"]
        );
        let s = canary_tools(Wire::Anthropic, true);
        assert_eq!(s[0]["description"], CANARY_DESCRIPTIONS[1]);
    }
}

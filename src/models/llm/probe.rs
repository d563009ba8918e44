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

/// What serves tool descriptions to the model on the runtime a spec names (`llamacpp:…`):
/// advice for a failed or unchecked probe that never trades descriptions for no tools at all.
pub(crate) fn advice(spec: &str) -> &'static str {
    match crate::record::model::parse(spec).name {
        "ollama" => {
            "on Ollama, use a model whose template supports tools (its page lists the `tools` capability, e.g. llama3.1, qwen2.5 or qwen3): its template renders every tool's description; a custom Modelfile TEMPLATE must render `.Tools`"
        }
        "llamacpp" | "local" => {
            "llama-server: start it with --jinja and a model whose own chat template renders tools (Qwen 2.5/3, Llama 3.1+, Mistral, Hermes); a template with no tool section (Gemma 3, seen here) leaves the tools out of the prompt entirely, so pass --chat-template-file with a tool-aware template. llama-cpp-python: its chatml-function-calling format leaves descriptions out: serve the GGUF with llama-server instead"
        }
        "lmstudio" => {
            "in LM Studio, load a model marked for tool use: its prompt lists each tool with its description"
        }
        "vllm" => {
            "on vLLM, serve with --enable-auto-tool-choice, the model's --tool-call-parser and a chat template that renders tools (the model's own, or one of vLLM's examples/tool_chat_template_*.jinja)"
        }
        "openai" | "openrouter" | "anthropic" => {
            "a hosted endpoint should show descriptions: check that no proxy in between rewrites the tool list"
        }
        _ => {
            "a local runtime must render each tool's description into the prompt: llama.cpp's llama-server with --jinja and a model whose chat template renders tools; on Ollama, a model with the `tools` capability; not llama-cpp-python's chatml-function-calling format, which leaves descriptions out"
        }
    }
}

impl LlmModel {
    /// Asks the canary request twice at once (descriptions as written, and swapped) and reads
    /// what was called. `known`: the prompt tokens one real request cost, kept for the record.
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
            match self.exchange_with(&make, 0, false).await {
                Ok(reply) => Ok(reply.calls.first().map(|c| c.name.clone())),
                Err(e) => Err(e.message),
            }
        };
        // Both at once: the canary goes out beside the run's first tasks and adds no wait.
        let (a, b) = tokio::join!(ask(false), ask(true));
        let called = |r: &Result<Option<String>, String>| r.as_ref().ok().cloned().flatten();
        let canary = verdict(called(&a).as_deref(), called(&b).as_deref());
        let shown = |r: &Result<Option<String>, String>| -> String {
            match r {
                Ok(Some(c)) => c.chars().take(80).collect(),
                Ok(None) => "(no call)".into(),
                Err(_) => "(error)".into(),
            }
        };
        let picked = vec![shown(&a), shown(&b)];
        let why = match (canary, a.as_ref().err().or(b.as_ref().err())) {
            (Canary::Follows, _) => None,
            (_, Some(e)) => Some(format!(
                "the canary request failed: {}",
                crate::text::clip(e, 300)
            )),
            (Canary::Ignores, None) => Some(format!(
                "two tools that differ only in their descriptions, asked the same request with the descriptions swapped, got the same call both times (`{}`)",
                picked[0]
            )),
            (Canary::Inconclusive, None) => Some(format!(
                "the canary got `{}` and `{}` (as written, then swapped) instead of the described tool both times",
                picked[0], picked[1]
            )),
        };
        Some(DescriptionProbe {
            outcome: canary.into(),
            why,
            reach: canary == Canary::Follows,
            canary,
            picked,
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

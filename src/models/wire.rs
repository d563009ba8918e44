//! The two wire formats: request bodies (the same system prompt and the tools in each API's
//! native shape) and reply parsing into tool calls and text. Pure functions, so the exact
//! bytes each adapter sends are tested.

use serde_json::{Map, Value, json};

use super::provider::Wire;
use crate::catalog::Catalog;

/// The system prompt every model gets.
pub const SYSTEM_PROMPT: &str = "You are an assistant that can use tools. When one of the available tools serves the user's request, call it with arguments taken from the request. When no tool fits, answer directly without calling a tool.";

/// A conversation turn beyond the first user message (for multi-step runs).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Turn {
    /// One assistant reply and every call it made: parallel calls stay one turn, as the
    /// model sent them (never replayed as turns one after the other).
    Calls(Vec<TurnCall>),
    /// The (synthetic) results of one reply's calls, in its order.
    Results(Vec<CallResult>),
}

/// One call of an assistant turn: `name` with `arguments`, call id `id`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TurnCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

/// The result of call `id`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CallResult {
    pub id: String,
    pub content: String,
}

/// Tools as the wire format wants them.
pub(crate) fn tools(wire: Wire, catalog: &Catalog) -> Vec<Value> {
    catalog
        .tools
        .iter()
        .map(|t| {
            let schema = t.input_schema().cloned().unwrap_or_else(|| json!({"type": "object", "properties": {}}));
            let desc = t.description().unwrap_or("");
            match wire {
                Wire::OpenAi => json!({"type": "function", "function": {"name": t.name(), "description": desc, "parameters": schema}}),
                Wire::Anthropic => json!({"name": t.name(), "description": desc, "input_schema": schema}),
            }
        })
        .collect()
}

/// The request body for one decision.
pub(crate) fn body(
    wire: Wire,
    model: &str,
    tools: &[Value],
    request: &str,
    turns: &[Turn],
    temperature: bool,
    seed: Option<u64>,
) -> Value {
    match wire {
        Wire::OpenAi => {
            let mut messages = vec![
                json!({"role": "system", "content": SYSTEM_PROMPT}),
                json!({"role": "user", "content": request}),
            ];
            for t in turns {
                match t {
                    // One assistant message with every call; one `tool` message per result.
                    Turn::Calls(calls) => messages.push(json!({"role": "assistant", "content": "", "tool_calls": calls.iter().map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments.to_string()}})).collect::<Vec<_>>()})),
                    Turn::Results(results) => messages.extend(results.iter().map(|r| json!({"role": "tool", "tool_call_id": r.id, "content": r.content}))),
                }
            }
            // A bounded reply: a local one-slot server generating without a limit holds its
            // only slot for minutes, and every retry queues behind it.
            let mut b = json!({"model": model, "max_tokens": MAX_REPLY_TOKENS, "messages": messages, "tools": tools, "tool_choice": "auto"});
            if temperature {
                b["temperature"] = json!(0);
            }
            if let Some(s) = seed {
                b["seed"] = json!(s);
            }
            b
        }
        Wire::Anthropic => {
            let mut messages = vec![json!({"role": "user", "content": request})];
            for t in turns {
                // One assistant message with a tool_use block per call; every result in the
                // one user message that follows (the Messages API requires it).
                messages.push(match t {
                    Turn::Calls(calls) => json!({"role": "assistant", "content": calls.iter().map(|c| json!({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments})).collect::<Vec<_>>()}),
                    Turn::Results(results) => json!({"role": "user", "content": results.iter().map(|r| json!({"type": "tool_result", "tool_use_id": r.id, "content": r.content})).collect::<Vec<_>>()}),
                });
            }
            let mut b = json!({"model": model, "max_tokens": MAX_REPLY_TOKENS, "system": SYSTEM_PROMPT, "messages": messages, "tools": tools, "tool_choice": {"type": "auto"}});
            if temperature {
                b["temperature"] = json!(0);
            }
            b
        }
    }
}

/// The reply length every request is bounded to (tool call, writer, judge, fixer, probe).
pub(crate) const MAX_REPLY_TOKENS: u32 = 1024;

/// `body` with OpenAI's `max_completion_tokens` in place of `max_tokens`, for models that
/// refuse the older name (OpenAI's reasoning models).
pub(crate) fn with_completion_tokens(mut body: Value) -> Value {
    if let Some(o) = body.as_object_mut()
        && let Some(v) = o.remove("max_tokens")
    {
        o.insert("max_completion_tokens".into(), v);
    }
    body
}

/// A plain prompt with no tools (the task writer and its judge).
pub(crate) fn text_body(
    wire: Wire,
    model: &str,
    system: &str,
    user: &str,
    temperature: bool,
) -> Value {
    let mut b = match wire {
        Wire::OpenAi => {
            json!({"model": model, "max_tokens": MAX_REPLY_TOKENS, "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}]})
        }
        Wire::Anthropic => {
            json!({"model": model, "max_tokens": MAX_REPLY_TOKENS, "system": system, "messages": [{"role": "user", "content": user}]})
        }
    };
    if temperature {
        b["temperature"] = json!(0);
    }
    b
}

/// One tool call in a reply.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Call {
    pub id: String,
    pub name: String,
    /// The arguments object, or why it is unusable (malformed JSON, not an object).
    pub arguments: Result<Map<String, Value>, String>,
}

/// What a reply said.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Reply {
    pub calls: Vec<Call>,
    pub text: Option<String>,
    /// The model id (and fingerprint) the provider reports.
    pub served_by: Option<String>,
    /// (prompt, completion) tokens, when the reply reports `usage`.
    pub usage: Option<(u64, u64)>,
    /// Read from the response cache (or shared with an identical request in flight), not sent.
    pub cached: bool,
    /// How long the provider took to answer, retries included, from when the request was
    /// sent (time queued behind `--concurrency` excluded); zero when not sent.
    pub elapsed: std::time::Duration,
}

/// `usage` of a reply: OpenAI's prompt/completion tokens or Anthropic's input/output tokens.
fn usage(v: &Value) -> Option<(u64, u64)> {
    let u = v.get("usage")?;
    let n = |k: &str| u.get(k).and_then(Value::as_u64);
    match (n("prompt_tokens"), n("completion_tokens")) {
        (Some(p), c) => Some((p, c.unwrap_or(0))),
        _ => Some((n("input_tokens")?, n("output_tokens").unwrap_or(0))),
    }
}

fn args_from(v: &Value) -> Result<Map<String, Value>, String> {
    match v {
        Value::Object(m) => Ok(m.clone()),
        Value::String(s) => {
            match serde_json::from_str::<Value>(if s.trim().is_empty() { "{}" } else { s }) {
                Ok(Value::Object(m)) => Ok(m),
                Ok(other) => Err(format!(
                    "tool arguments are not a JSON object: {}",
                    crate::catalog::kind(&other)
                )),
                Err(e) => Err(format!(
                    "malformed tool-call arguments JSON ({e}): {}",
                    s.chars().take(120).collect::<String>()
                )),
            }
        }
        Value::Null => Ok(Map::new()),
        other => Err(format!(
            "tool arguments are not a JSON object: {}",
            crate::catalog::kind(other)
        )),
    }
}

/// Parses a provider reply. `Err` when the reply is not the wire format at all.
pub(crate) fn parse(wire: Wire, v: &Value) -> Result<Reply, String> {
    let model = v.get("model").and_then(Value::as_str);
    match wire {
        Wire::OpenAi => {
            let msg = v
                .pointer("/choices/0/message")
                .ok_or("the reply has no choices[0].message")?;
            let calls = msg
                .get("tool_calls")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .enumerate()
                        .map(|(i, c)| Call {
                            id: c
                                .get("id")
                                .and_then(Value::as_str)
                                .map(str::to_string)
                                .unwrap_or_else(|| format!("call_{i}")),
                            name: c
                                .pointer("/function/name")
                                .and_then(Value::as_str)
                                .unwrap_or("")
                                .to_string(),
                            arguments: args_from(
                                c.pointer("/function/arguments").unwrap_or(&Value::Null),
                            ),
                        })
                        .collect()
                })
                .unwrap_or_default();
            let text = msg
                .get("content")
                .and_then(Value::as_str)
                .filter(|t| !t.trim().is_empty())
                .map(str::to_string);
            let fp = v.get("system_fingerprint").and_then(Value::as_str);
            let served_by = model.map(|m| match fp {
                Some(f) => format!("{m} ({f})"),
                None => m.to_string(),
            });
            Ok(Reply {
                calls,
                text,
                served_by,
                usage: usage(v),
                ..Default::default()
            })
        }
        Wire::Anthropic => {
            let content = v
                .get("content")
                .and_then(Value::as_array)
                .ok_or("the reply has no content array")?;
            let mut reply = Reply {
                served_by: model.map(str::to_string),
                usage: usage(v),
                ..Default::default()
            };
            let mut texts = Vec::new();
            for (i, block) in content.iter().enumerate() {
                match block.get("type").and_then(Value::as_str) {
                    Some("tool_use") => reply.calls.push(Call {
                        id: block
                            .get("id")
                            .and_then(Value::as_str)
                            .map(str::to_string)
                            .unwrap_or_else(|| format!("toolu_{i}")),
                        name: block
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                        arguments: args_from(block.get("input").unwrap_or(&Value::Null)),
                    }),
                    Some("text") => {
                        if let Some(t) = block.get("text").and_then(Value::as_str) {
                            texts.push(t.to_string());
                        }
                    }
                    _ => {}
                }
            }
            reply.text = Some(texts.join("\n")).filter(|t| !t.trim().is_empty());
            Ok(reply)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_openai_tool_calls_and_bad_arguments() {
        let v = json!({"model": "gpt-x", "system_fingerprint": "fp_1", "choices": [{"message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "book_room", "arguments": "{\"room\": \"Vega\"}"}},
                           {"id": "c2", "type": "function", "function": {"name": "x", "arguments": "{room: Vega"}}]}}]});
        let r = parse(Wire::OpenAi, &v).unwrap();
        assert_eq!(r.served_by.as_deref(), Some("gpt-x (fp_1)"));
        assert_eq!(r.calls[0].arguments.as_ref().unwrap()["room"], "Vega");
        assert!(
            r.calls[1]
                .arguments
                .as_ref()
                .unwrap_err()
                .contains("malformed")
        );
        let v = json!({"choices": [{"message": {"content": "I can't help with that.", "tool_calls": [{"function": {"name": "y", "arguments": "[1]"}}]}}]});
        let r = parse(Wire::OpenAi, &v).unwrap();
        assert!(
            r.calls[0]
                .arguments
                .as_ref()
                .unwrap_err()
                .contains("not a JSON object")
        );
        assert_eq!(r.text.as_deref(), Some("I can't help with that."));
        assert!(parse(Wire::OpenAi, &json!({"error": "x"})).is_err());
    }

    #[test]
    fn parses_anthropic_tool_use_and_text() {
        let v = json!({"model": "claude-x", "content": [{"type": "text", "text": "Booking it."}, {"type": "tool_use", "id": "t1", "name": "book_room", "input": {"room": "Vega"}}]});
        let r = parse(Wire::Anthropic, &v).unwrap();
        assert_eq!(r.calls[0].name, "book_room");
        assert_eq!(r.text.as_deref(), Some("Booking it."));
    }

    /// Issue 41 point 7: a reply with two calls goes back as one assistant turn with both,
    /// then both results (OpenAI: one `tool` message each; Anthropic: one user message), and a
    /// one-call turn keeps the exact shape it had (cached replies stay valid).
    #[test]
    fn parallel_calls_are_one_turn_on_both_wires() {
        let call = |id: &str, name: &str| TurnCall {
            id: id.into(),
            name: name.into(),
            arguments: json!({"room": "Vega"}),
        };
        let result = |id: &str| CallResult {
            id: id.into(),
            content: "ok".into(),
        };
        let turns = [
            Turn::Calls(vec![call("c1", "look"), call("c2", "book")]),
            Turn::Results(vec![result("c1"), result("c2")]),
        ];
        let b = body(Wire::OpenAi, "m", &[], "r", &turns, true, None);
        let m = b["messages"].as_array().unwrap();
        assert_eq!(m.len(), 5);
        assert_eq!(m[2]["tool_calls"].as_array().unwrap().len(), 2);
        assert_eq!(
            (m[3]["tool_call_id"].as_str(), m[4]["tool_call_id"].as_str()),
            (Some("c1"), Some("c2"))
        );
        let b = body(Wire::Anthropic, "m", &[], "r", &turns, true, None);
        let m = b["messages"].as_array().unwrap();
        assert_eq!(m.len(), 3, "{b}");
        assert_eq!(m[1]["content"][1]["id"], "c2");
        assert_eq!(m[2]["content"][1]["tool_use_id"], "c2");
        // One call: the shape of earlier toolgates, byte for byte.
        let one = [
            Turn::Calls(vec![call("c1", "book")]),
            Turn::Results(vec![result("c1")]),
        ];
        let b = body(Wire::OpenAi, "m", &[], "r", &one, true, None);
        assert_eq!(
            b["messages"][2],
            json!({"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "book", "arguments": "{\"room\":\"Vega\"}"}}]})
        );
        assert_eq!(
            b["messages"][3],
            json!({"role": "tool", "tool_call_id": "c1", "content": "ok"})
        );
        let b = body(Wire::Anthropic, "m", &[], "r", &one, true, None);
        assert_eq!(
            b["messages"][1],
            json!({"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "book", "input": {"room": "Vega"}}]})
        );
        assert_eq!(
            b["messages"][2],
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "ok"}]})
        );
    }
}

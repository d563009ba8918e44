//! The decision for a task: the multi-step loop (each call answered with a synthetic result)
//! and turning a reply into a `Decision`.

use serde_json::Value;

use super::LlmModel;
use crate::models::wire::{self, Reply};
use crate::models::{BoxFuture, Decision, DescriptionProbe, Model, Step};
use crate::tasks::Task;

impl Model for LlmModel {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn deterministic(&self) -> bool {
        false
    }

    fn notes(&self) -> Vec<String> {
        self.notes.lock().map(|n| n.clone()).unwrap_or_default()
    }

    fn stopped(&self) -> Option<String> {
        LlmModel::stopped(self)
    }

    fn descriptions_reach<'a>(
        &'a self,
        request: &'a str,
        prompt_tokens: Option<u64>,
    ) -> BoxFuture<'a, Option<DescriptionProbe>> {
        Box::pin(self.probe(request, prompt_tokens))
    }

    fn decide<'a>(&'a self, task: &'a Task, trial: u32) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            let max = self.opts.max_steps.max(1);
            let mut turns = Vec::new();
            let mut steps = Vec::new();
            let mut first: Option<Decision> = None;
            let (mut prompt, mut completion, mut all_cached, mut usage_known) = (0, 0, true, false);
            // Time the provider took (queueing behind --concurrency excluded).
            let mut elapsed = std::time::Duration::ZERO;
            for step in 0..max {
                let reply = match self.turn(&task.request, &turns, trial).await {
                    Ok(r) => r,
                    Err(e) if first.is_none() => {
                        return Decision {
                            error: Some(e.message),
                            error_kind: Some(e.kind),
                            ..Default::default()
                        };
                    }
                    Err(e) => {
                        steps.push(Step {
                            tool: "(error)".into(),
                            arguments: None,
                            error: Some(e.message),
                            turn: Some(step),
                        });
                        break;
                    }
                };
                let calls = reply.calls.clone();
                all_cached &= reply.cached;
                elapsed += reply.elapsed;
                if let Some((p, c)) = reply.usage {
                    usage_known = true;
                    prompt += p;
                    completion += c;
                }
                if first.is_none() {
                    first = Some(reply_to_decision(reply));
                }
                if calls.is_empty() {
                    break;
                }
                // Every call of the reply is recorded (parallel calls are scored too), all with
                // this reply's step number: calls made together are one step. The reply goes
                // back as one assistant turn, and every result before the next reply.
                let mut stop = step + 1 == max;
                let (mut sent, mut results) = (Vec::new(), Vec::new());
                for call in calls {
                    let args = call.arguments.clone();
                    steps.push(Step {
                        tool: call.name.clone(),
                        arguments: args.clone().ok(),
                        error: args.clone().err(),
                        turn: Some(step),
                    });
                    stop |= args.is_err();
                    let content = self
                        .results
                        .get(&call.name)
                        .cloned()
                        .unwrap_or_else(|| format!("error: unknown tool `{}`", call.name));
                    results.push(wire::CallResult {
                        id: call.id.clone(),
                        content,
                    });
                    sent.push(wire::TurnCall {
                        id: call.id,
                        name: call.name,
                        arguments: Value::Object(args.unwrap_or_default()),
                    });
                }
                if stop {
                    break;
                }
                turns.push(wire::Turn::Calls(sent));
                turns.push(wire::Turn::Results(results));
            }
            let mut d = first.unwrap_or_default();
            if max > 1 {
                d.steps = steps;
            }
            d.cached = all_cached;
            // At least 1 ms for a reply that was sent, so the runner does not put its own
            // clock (which counts queueing) in its place.
            if !all_cached {
                d.latency_ms = (elapsed.as_millis() as u64).max(1);
            }
            if usage_known {
                d.prompt_tokens = Some(prompt);
                d.completion_tokens = Some(completion);
            }
            masked(d)
        })
    }
}

/// The decision with every credential the reply echoed (toolgate's own keys, token shapes)
/// masked in what the model wrote: its text, its error, its argument values and a tool name it
/// made up from a key, so a provider that repeats the key does not put it in predictions.jsonl,
/// the reports or the comment. Only toolgate's own credentials and long credential-named
/// values count: a `POSTGRES_PASSWORD=postgres` beside the job must not turn `postgres_query`
/// into `***_query` (and change the score).
fn masked(mut d: Decision) -> Decision {
    mask_decision(&mut d, &crate::secrets::own_values());
    d
}

fn mask_decision(d: &mut Decision, known: &[String]) {
    use crate::catalog::mask::{mask_text, mask_value};
    let text = |t: &mut Option<String>| {
        if let Some(s) = t.as_mut() {
            let (m, n) = mask_text(s, known);
            if n > 0 {
                *s = m;
            }
        }
    };
    let args = |a: &mut Option<serde_json::Map<String, Value>>| {
        if let Some(map) = a.take() {
            let mut v = Value::Object(map);
            mask_value(&mut v, known);
            if let Value::Object(m) = v {
                *a = Some(m);
            }
        }
    };
    text(&mut d.text);
    text(&mut d.error);
    // A tool name carries a credential only when the model invented it from one: only
    // toolgate's own keys and long credential values count here, never a weak value that a
    // real tool name could contain.
    text(&mut d.tool);
    args(&mut d.arguments);
    for s in d.steps.iter_mut().chain(d.parallel_calls.iter_mut()) {
        let mut name = Some(std::mem::take(&mut s.tool));
        text(&mut name);
        s.tool = name.unwrap_or_default();
        text(&mut s.error);
        args(&mut s.arguments);
    }
}

/// What a tool "returns" in a multi-step run: a sample of its outputSchema, else a generic
/// success. The server is never called.
pub(super) fn synthetic_result(tool: &crate::catalog::Tool) -> String {
    tool.output_schema()
        .and_then(|schema| {
            let stand_in = crate::catalog::Tool::from_value(
                serde_json::json!({"name": tool.name(), "inputSchema": schema}),
                "outputSchema",
            )
            .ok()?;
            crate::tasks::sampler::sample_args(&stand_in, 0, 0).ok()
        })
        .map(|m| Value::Object(m).to_string())
        .unwrap_or_else(|| r#"{"ok": true, "result": "done"}"#.to_string())
}

/// The first call of a reply as a decision (or no call, with the text kept).
pub(crate) fn reply_to_decision(reply: Reply) -> Decision {
    // Calls after the first in one reply (parallel tool calls) are kept, never dropped.
    let parallel: Vec<Step> = reply
        .calls
        .iter()
        .skip(1)
        .map(|c| Step {
            tool: c.name.clone(),
            arguments: c.arguments.clone().ok(),
            error: c.arguments.clone().err(),
            turn: None,
        })
        .collect();
    let mut d = reply_first_call(reply);
    d.parallel_calls = parallel;
    d
}

fn reply_first_call(reply: Reply) -> Decision {
    let served_by = reply.served_by.clone();
    match reply.calls.into_iter().next() {
        None => Decision {
            tool: None,
            text: reply.text,
            served_by,
            ..Default::default()
        },
        Some(call) => match call.arguments {
            Ok(args) => Decision {
                tool: Some(call.name),
                arguments: Some(args),
                text: reply.text,
                served_by,
                ..Default::default()
            },
            Err(e) => Decision {
                tool: Some(call.name),
                error: Some(e),
                error_kind: Some(crate::models::ErrorKind::Malformed),
                text: reply.text,
                served_by,
                ..Default::default()
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_is_masked_in_its_text_arguments_and_invented_names_only() {
        let key = "q9Zr7vLk2pX8mW4tB6nY".to_string();
        let mut d = Decision {
            tool: Some("postgres_query".into()),
            arguments: serde_json::from_value(serde_json::json!({
                "sql": format!("select '{key}'"), "db": "postgres"
            }))
            .unwrap(),
            text: Some(format!("your key is {key}")),
            steps: vec![Step {
                tool: "postgres_query".into(),
                arguments: None,
                error: Some(format!("bad {key}")),
                turn: Some(0),
            }],
            ..Default::default()
        };
        // "postgres" (a weak password beside the job) is not among the values masked.
        mask_decision(&mut d, std::slice::from_ref(&key));
        assert_eq!(d.tool.as_deref(), Some("postgres_query"));
        // A tool name the model invented from the key is masked.
        let mut invented = Decision {
            tool: Some(format!("call_{key}")),
            ..Default::default()
        };
        mask_decision(&mut invented, std::slice::from_ref(&key));
        assert_eq!(invented.tool.as_deref(), Some("call_***"));
        assert_eq!(d.steps[0].tool, "postgres_query");
        let args = serde_json::to_string(&d.arguments).unwrap();
        assert!(!args.contains(&key) && args.contains("postgres"), "{args}");
        assert!(!d.text.unwrap().contains(&key));
        assert!(!d.steps[0].error.as_ref().unwrap().contains(&key));
    }

    #[test]
    fn short_credential_named_variables_are_not_masking_values() {
        // SAFETY: a test-only variable no other test reads.
        unsafe { std::env::set_var("TG_TEST_DB_PASSWORD", "postgres") };
        assert!(!crate::secrets::own_values().iter().any(|v| v == "postgres"));
    }
}

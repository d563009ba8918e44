//! The verdict on one contract call, from how the server answered.
//!
//! Schema-invalid arguments should come back as a tool result with `isError: true` and a text
//! that says what was wrong: that is what a model reads and corrects itself from (MCP
//! 2025-11-25: input validation errors are tool execution errors, not protocol errors; older
//! revisions allowed a JSON-RPC error, so there it is a warning). A result without `isError`
//! means the server ran on arguments its own schema forbids.
//!
//! Valid sampled arguments should come back as a result; a tool that declares an
//! `outputSchema` must return `structuredContent` that conforms to it. An `isError` result is a
//! warning only: sampled arguments may name things that do not exist.

use serde_json::Value;

use crate::catalog::Tool;
use crate::catalog::connect::Called;
use crate::record::contract::{Answer, ProbeKind, Verdict};

/// The longest piece of server text kept in a verdict's detail.
const SHOWN: usize = 300;

/// Grades `called` for a probe of `kind` on `tool`; `protocol` is the revision the server
/// answered with. `mask` masks server text before it is kept.
pub(crate) fn grade(
    tool: &Tool,
    kind: ProbeKind,
    called: &Called,
    protocol: Option<&str>,
    within_ms: u64,
    mask: &dyn Fn(&str) -> String,
) -> (Answer, Verdict, String) {
    let shown = |t: &str| -> String {
        let m = mask(t);
        let one_line: String = m.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut s: String = one_line.chars().take(SHOWN).collect();
        if one_line.chars().count() > SHOWN {
            s.push('…');
        }
        s
    };
    match called {
        Called::Timeout => (
            Answer::Timeout,
            Verdict::Fail,
            format!(
                "no answer within {:.1}s (--call-timeout)",
                within_ms as f64 / 1000.0
            ),
        ),
        Called::Failed(why) => (
            Answer::Failed,
            Verdict::Fail,
            format!("the call failed: {}", shown(why)),
        ),
        Called::RpcError { code, message } if kind.invalid() => {
            let modern = protocol.is_some_and(|p| p >= "2025-11-25");
            let detail = format!(
                "a JSON-RPC error ({code}: {}) instead of an isError result{}",
                shown(message),
                if modern {
                    ": since MCP 2025-11-25 input validation errors are tool execution errors, which the model sees and can correct itself from"
                } else {
                    " (allowed by the protocol revision the server speaks; 2025-11-25 asks for isError)"
                }
            );
            (Answer::ProtocolError, Verdict::Warn, detail)
        }
        Called::RpcError { code, message } => (
            Answer::ProtocolError,
            Verdict::Fail,
            format!(
                "a JSON-RPC error ({code}: {}) for arguments its own inputSchema accepts",
                shown(message)
            ),
        ),
        Called::Result(result) => {
            let is_error = result.get("isError").and_then(Value::as_bool) == Some(true);
            let text = result_text(result);
            match (kind.invalid(), is_error) {
                (true, true) if text.trim().is_empty() => (
                    Answer::IsError,
                    Verdict::Fail,
                    "isError without any text: the model cannot tell what was wrong".into(),
                ),
                (true, true) => (
                    Answer::IsError,
                    Verdict::Pass,
                    format!("isError: «{}»", shown(&text)),
                ),
                (true, false) => (
                    Answer::Result,
                    Verdict::Fail,
                    "accepted arguments its inputSchema forbids (a result without isError): the server does not validate its input".into(),
                ),
                (false, true) => (
                    Answer::IsError,
                    Verdict::Warn,
                    format!(
                        "isError for schema-valid arguments (sampled values may name things that do not exist): «{}»",
                        shown(&text)
                    ),
                ),
                (false, false) => {
                    let (verdict, detail) = output_check(tool, result);
                    (Answer::Result, verdict, detail)
                }
            }
        }
    }
}

/// The text blocks of a result's `content`, joined.
fn result_text(result: &Value) -> String {
    result
        .get("content")
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// `structuredContent` against the tool's `outputSchema`.
fn output_check(tool: &Tool, result: &Value) -> (Verdict, String) {
    let structured = result.get("structuredContent");
    let Some(schema) = tool.output_schema() else {
        return match structured {
            Some(_) => (
                Verdict::Pass,
                "a result; structuredContent without an outputSchema (not checked)".into(),
            ),
            None => (Verdict::Pass, "a result (no outputSchema to check)".into()),
        };
    };
    let Some(structured) = structured else {
        return (
            Verdict::Fail,
            "declares an outputSchema but returned no structuredContent".into(),
        );
    };
    let validator = match jsonschema::validator_for(schema) {
        Ok(v) => v,
        Err(e) => {
            return (
                Verdict::Fail,
                format!("its outputSchema does not compile: {e}"),
            );
        }
    };
    let errors: Vec<String> = validator
        .iter_errors(structured)
        .take(3)
        .map(|e| {
            let at = e.instance_path().to_string();
            let msg: String = e.to_string().chars().take(160).collect();
            format!("at `{}`: {msg}", if at.is_empty() { "/" } else { &at })
        })
        .collect();
    if errors.is_empty() {
        (
            Verdict::Pass,
            "structuredContent conforms to the outputSchema".into(),
        )
    } else {
        (
            Verdict::Fail,
            format!(
                "structuredContent does not conform to the outputSchema: {}",
                errors.join("; ")
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(out: Option<Value>) -> Tool {
        let mut t = json!({"name": "t", "inputSchema": {"type": "object"}});
        if let Some(o) = out {
            t["outputSchema"] = o;
        }
        Tool::from_value(t, "t").unwrap()
    }

    fn g(t: &Tool, kind: ProbeKind, c: Called, protocol: &str) -> (Answer, Verdict, String) {
        grade(t, kind, &c, Some(protocol), 10_000, &|s| {
            s.replace("SECRET", "***")
        })
    }

    fn result(v: Value) -> Called {
        Called::Result(v)
    }

    #[test]
    fn invalid_arguments_want_a_readable_is_error() {
        let t = tool(None);
        let k = ProbeKind::WrongType;
        let ok = g(
            &t,
            k,
            result(
                json!({"isError": true, "content": [{"type": "text", "text": "q must be a string SECRET"}]}),
            ),
            "2025-11-25",
        );
        assert_eq!((ok.0, ok.1), (Answer::IsError, Verdict::Pass));
        assert!(ok.2.contains("q must be a string ***"), "{}", ok.2);
        let mute = g(
            &t,
            k,
            result(json!({"isError": true, "content": []})),
            "2025-11-25",
        );
        assert_eq!(mute.1, Verdict::Fail);
        let ran = g(
            &t,
            k,
            result(json!({"content": [{"type": "text", "text": "done"}]})),
            "2025-11-25",
        );
        assert_eq!((ran.0, ran.1), (Answer::Result, Verdict::Fail));
        let rpc = Called::RpcError {
            code: -32602,
            message: "Invalid params".into(),
        };
        let modern = g(&t, k, rpc.clone(), "2025-11-25");
        assert_eq!((modern.0, modern.1), (Answer::ProtocolError, Verdict::Warn));
        assert!(modern.2.contains("since MCP 2025-11-25"));
        let old = g(&t, k, rpc, "2025-06-18");
        assert!(
            old.2.contains("allowed by the protocol revision"),
            "{}",
            old.2
        );
        assert_eq!(g(&t, k, Called::Timeout, "2025-11-25").1, Verdict::Fail);
    }

    #[test]
    fn valid_arguments_want_structured_content_that_conforms() {
        let out =
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        let t = tool(Some(out));
        let k = ProbeKind::ValidSample;
        let good = g(
            &t,
            k,
            result(json!({"content": [], "structuredContent": {"n": 1}})),
            "2025-11-25",
        );
        assert_eq!(good.1, Verdict::Pass);
        let bad = g(
            &t,
            k,
            result(json!({"content": [], "structuredContent": {"n": "one"}})),
            "2025-11-25",
        );
        assert_eq!(bad.1, Verdict::Fail);
        assert!(bad.2.contains("at `/n`"), "{}", bad.2);
        let none = g(
            &t,
            k,
            result(json!({"content": [{"type": "text", "text": "1"}]})),
            "2025-11-25",
        );
        assert_eq!(none.1, Verdict::Fail);
        let not_found = g(
            &t,
            k,
            result(
                json!({"isError": true, "content": [{"type": "text", "text": "no such entity"}]}),
            ),
            "2025-11-25",
        );
        assert_eq!(not_found.1, Verdict::Warn);
        let rejected = g(
            &t,
            k,
            Called::RpcError {
                code: -32602,
                message: "bad".into(),
            },
            "2025-11-25",
        );
        assert_eq!(rejected.1, Verdict::Fail);
        let plain = g(&tool(None), k, result(json!({"content": []})), "2025-11-25");
        assert_eq!(plain.1, Verdict::Pass);
    }

    #[test]
    fn long_server_text_is_cut() {
        let t = tool(None);
        let long = "x".repeat(5000);
        let r = g(
            &t,
            ProbeKind::WrongType,
            result(json!({"isError": true, "content": [{"type": "text", "text": long}]})),
            "2025-11-25",
        );
        assert!(r.2.chars().count() < 400);
    }
}

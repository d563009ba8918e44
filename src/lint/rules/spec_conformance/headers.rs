//! TG031's 2026-07-28 `x-mcp-header` checks (SEP-2243): where a declaration may sit, what its
//! name may be, and which parameters should never be mirrored into a header.

use serde_json::Value;

use crate::lint::{Context, Finding, Rule, Severity};

/// An HTTP field-name token (RFC 9110): what an `x-mcp-header` name must be.
fn http_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

/// Parameter names that hold secrets or personal data, which 2026-07-28 says SHOULD NOT be
/// mirrored into headers (intermediaries see them).
fn sensitive(name: &str) -> bool {
    let words = crate::text::name_words(name);
    words.iter().any(|w| {
        [
            "password",
            "passwd",
            "secret",
            "token",
            "apikey",
            "key",
            "credential",
            "credentials",
            "ssn",
            "email",
            "phone",
            "cookie",
            "authorization",
        ]
        .contains(&w.as_str())
    })
}

/// Every `x-mcp-header` in `schema` and whether it is declared where 2026-07-28 allows it: on
/// a property reached from the root through `properties` alone. (pointer, header value,
/// property name, property schema, reachable).
fn header_declarations<'v>(
    schema: &'v Value,
    at: &str,
    reachable: bool,
    name: &str,
    depth: usize,
    out: &mut Vec<(String, &'v Value, String, &'v Value, bool)>,
) {
    if depth > 32 || out.len() > 256 {
        return;
    }
    match schema {
        Value::Object(map) => {
            if let Some(h) = map.get("x-mcp-header") {
                out.push((
                    at.to_string(),
                    h,
                    name.to_string(),
                    schema,
                    reachable && depth > 0,
                ));
            }
            for (k, v) in map {
                let child = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                if k == "properties"
                    && let Value::Object(props) = v
                {
                    for (pn, ps) in props {
                        let p_at = format!("{child}/{}", pn.replace('~', "~0").replace('/', "~1"));
                        header_declarations(ps, &p_at, reachable, pn, depth + 1, out);
                    }
                } else if k != "x-mcp-header" && (v.is_object() || v.is_array()) {
                    header_declarations(v, &child, false, name, depth + 1, out);
                }
            }
        }
        Value::Array(items) => {
            for (k, v) in items.iter().enumerate().take(256) {
                header_declarations(v, &format!("{at}/{k}"), false, name, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// 2026-07-28 `x-mcp-header` (SEP-2243): a client MUST drop a tool whose declarations break
/// the rules (a token name, unique without regard to case, on a string, integer or boolean
/// property reached through `properties`); a sensitive parameter SHOULD NOT be mirrored.
pub(super) fn header_findings(
    rule: &Rule,
    cx: &Context,
    i: usize,
    tool: &crate::catalog::Tool,
    out: &mut Vec<Finding>,
) {
    let Some(schema) = tool.input_schema() else {
        return;
    };
    let mut decls = Vec::new();
    header_declarations(schema, "/inputSchema", true, "", 0, &mut decls);
    let mut seen: std::collections::HashMap<String, String> = Default::default();
    for (at, header, prop, prop_schema, reachable) in decls {
        let problem = match header.as_str() {
            None => Some("its value is not a string".to_string()),
            Some(h) if !http_token(h) => Some(format!(
                "`{}` is not an HTTP header-name token",
                h.chars().take(40).collect::<String>().escape_debug()
            )),
            Some(h) => match seen.insert(h.to_ascii_lowercase(), prop.clone()) {
                Some(other) => Some(format!(
                    "`{h}` is also declared on `{other}` (names are compared without case)"
                )),
                None if !reachable => Some(
                    "it is not on a property reached from the root through `properties` (not inside an array, a combinator or `$defs`)".into(),
                ),
                None => {
                    let ty = prop_schema.get("type").and_then(Value::as_str);
                    (!matches!(ty, Some("string" | "integer" | "boolean"))).then(|| {
                        format!(
                            "`{prop}` is {}, not a string, integer or boolean",
                            ty.map_or("untyped".to_string(), |t| format!("of type {t}"))
                        )
                    })
                }
            },
        };
        if let Some(why) = problem {
            let mut f = cx.finding(
                rule,
                Some(i),
                &format!("{at}/x-mcp-header"),
                format!(
                    "`x-mcp-header` on `{prop}`: {why}; a 2026-07-28 client MUST drop the whole tool (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http)"
                ),
                "Declare `x-mcp-header` only on top-level string, integer or boolean properties, with a unique token name.",
            );
            f.severity = Severity::Error;
            out.push(f);
        } else if sensitive(&prop) {
            out.push(cx.finding(
                rule,
                Some(i),
                &format!("{at}/x-mcp-header"),
                format!(
                    "`x-mcp-header` mirrors `{prop}` into an `Mcp-Param-*` header, where every intermediary sees it; 2026-07-28 says sensitive parameters SHOULD NOT be marked (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http)"
                ),
                "Remove `x-mcp-header` from parameters that carry secrets or personal data.",
            ));
        }
    }
}

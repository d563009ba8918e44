//! Credentials in server text: a server (by mistake, or to exfiltrate one it was handed) can put
//! a token in a description, a schema default or its instructions. Every string of the catalog
//! is masked when the catalog is loaded, before a lock, baseline, report, comment or provider
//! sees it: the values of toolgate's own credentials and of what the user handed this server
//! (headers, bearer token, `--pass-env` values), and strings shaped like well-known tokens.
//! Tool names are left alone (they identify the tool; a name is never a credential's shape).

use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

use super::Catalog;

/// What a masked value becomes.
pub const MASK: &str = "***";

/// Token formats whose shape alone says "credential": provider and forge keys, cloud access
/// keys, Slack tokens, JWTs and PEM private keys.
fn token_shapes() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"\bsk-(?:ant-|proj-|or-v1-)?[A-Za-z0-9_\-]{20,}",
            r"|\bgh[pousr]_[A-Za-z0-9]{30,}",
            r"|\bgithub_pat_[A-Za-z0-9_]{22,}",
            r"|\bglpat-[A-Za-z0-9_\-]{20,}",
            r"|\bxox[abprs]-[A-Za-z0-9\-]{10,}",
            r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
            r"|\bAIza[0-9A-Za-z_\-]{35}",
            r"|\bhf_[A-Za-z0-9]{30,}",
            r"|\beyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}",
            r"|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)",
        ))
        .expect("token shapes")
    })
}

/// Masks `text`: each of `known` (6 characters or longer), then every token shape. Returns
/// the text and how many values were masked.
pub fn mask_text(text: &str, known: &[String]) -> (String, usize) {
    let mut count = 0;
    let mut out = text.to_string();
    let mut values: Vec<&String> = known.iter().filter(|v| v.trim().len() >= 6).collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    for v in values {
        let n = out.matches(v.as_str()).count();
        if n > 0 {
            count += n;
            out = out.replace(v.as_str(), MASK);
        }
    }
    let shapes = token_shapes();
    let n = shapes.find_iter(&out).count();
    if n > 0 {
        count += n;
        out = shapes.replace_all(&out, MASK).into_owned();
    }
    (out, count)
}

/// Masks every string (and object key) inside `v`; returns how many values were masked.
pub fn mask_value(v: &mut Value, known: &[String]) -> usize {
    match v {
        Value::String(s) => {
            let (m, n) = mask_text(s, known);
            if n > 0 {
                *s = m;
            }
            n
        }
        Value::Array(items) => items.iter_mut().map(|i| mask_value(i, known)).sum(),
        Value::Object(map) => {
            let mut n = 0;
            let keys: Vec<String> = map.keys().cloned().collect();
            for k in keys {
                let (mk, kn) = mask_text(&k, known);
                if kn > 0
                    && let Some(inner) = map.shift_remove(&k)
                {
                    map.insert(mk.clone(), inner);
                }
                n += kn;
                if let Some(inner) = map.get_mut(if kn > 0 { &mk } else { &k }) {
                    n += mask_value(inner, known);
                }
            }
            n
        }
        _ => 0,
    }
}

/// `catalog`, masked with toolgate's credentials and those `opts` hands its server.
pub fn masked(mut catalog: Catalog, opts: &super::ConnectOptions) -> Catalog {
    let known = crate::secrets::known_values(&super::connect::secret_extras(opts));
    mask_catalog(&mut catalog, &known);
    catalog
}

/// Masks the catalog in place (every tool field but the name, the instructions, the server's
/// name and version) and adds a note naming the tools that carried a credential.
pub fn mask_catalog(catalog: &mut Catalog, known: &[String]) {
    let mut tools = Vec::new();
    let mut total = 0;
    for tool in &mut catalog.tools {
        let name = tool.name().to_string();
        let mut n = 0;
        for (k, v) in tool.raw.iter_mut() {
            if k != "name" {
                n += mask_value(v, known);
            }
        }
        if n > 0 {
            total += n;
            tools.push(name);
        }
    }
    let mut others = 0;
    for field in [
        &mut catalog.instructions,
        &mut catalog.server.name,
        &mut catalog.server.version,
    ]
    .into_iter()
    .flatten()
    {
        let (m, n) = mask_text(field, known);
        if n > 0 {
            *field = m;
            others += n;
        }
    }
    if total + others > 0 {
        let place = if tools.is_empty() {
            "the server's instructions or info".to_string()
        } else {
            format!(
                "the definitions of {}",
                tools
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        catalog.notes.push(format!(
            "{} credential-looking value(s) in {place} were masked as {MASK} before anything \
             was written or sent: every model that reads these tools would read the credential; \
             remove it from the server",
            total + others
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Tool;
    use serde_json::json;

    #[test]
    fn token_shapes_are_masked_and_ordinary_text_is_not() {
        for secret in [
            "sk-proj-abcdefghijklmnopqrstuvwx",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "github_pat_11ABCDEFG0123456789_abcdefghij",
            "AKIAIOSFODNN7EXAMPLE",
            "xoxb-1234567890-abcdefghij",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ] {
            let (m, n) = mask_text(&format!("use {secret} here"), &[]);
            assert_eq!((m.as_str(), n), ("use *** here", 1), "{secret}");
        }
        for plain in ["sk-learn models", "the task-id", "AKIA", "ask-me-anything"] {
            assert_eq!(mask_text(plain, &[]), (plain.to_string(), 0), "{plain}");
        }
    }

    #[test]
    fn known_values_are_masked_longest_first() {
        let known = vec![
            "abcdef-secret".to_string(),
            "abcdef".to_string(),
            "xy".into(),
        ];
        let (m, n) = mask_text("k=abcdef-secret and abcdef, xy", &known);
        assert_eq!(m, "k=*** and ***, xy");
        assert_eq!(n, 2);
    }

    #[test]
    fn every_string_of_a_tool_but_its_name_is_masked_and_noted() {
        let key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        let tool = Tool::from_value(
            json!({"name": "leak", "description": format!("token {key}"),
                   "inputSchema": {"type": "object", "properties": {key: {"default": key}}}}),
            "t",
        )
        .unwrap();
        let mut c = Catalog {
            tools: vec![tool],
            instructions: Some("server-given-credential please".into()),
            ..Default::default()
        };
        mask_catalog(&mut c, &["server-given-credential".into()]);
        let text = serde_json::to_string(&c.tools[0].raw).unwrap();
        assert!(!text.contains(key), "{text}");
        assert_eq!(c.tools[0].name(), "leak");
        assert_eq!(c.instructions.as_deref(), Some("*** please"));
        assert!(
            c.notes[0].contains("4 credential-looking") && c.notes[0].contains("`leak`"),
            "{:?}",
            c.notes
        );
    }
}

//! Credentials in server text: a server (by mistake, or to exfiltrate one it was handed) can put
//! a token in a description, a schema default or its instructions. toolgate never rewrites what
//! the server sent: the catalog that is hashed, pinned, linted and evaluated is byte for byte the
//! server's, whatever the environment holds. When it carries a credential, a note names the
//! tools (never the value), and everything a person or a log reads is masked where it is shown
//! ([`crate::secrets::shown`]). Model replies are masked with [`mask_value`] before they are
//! recorded.

use serde_json::Value;

use super::Catalog;
pub(crate) use crate::secrets::shown::MASK;

/// Masks `text` with `known` and every token shape (see [`crate::secrets::shown::mask_with`]).
pub(crate) fn mask_text(text: &str, known: &[String]) -> (String, usize) {
    crate::secrets::shown::mask_with(text, known)
}

/// Masks every string (and object key) inside `v`; returns how many values were masked.
pub(crate) fn mask_value(v: &mut Value, known: &[String]) -> usize {
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

/// How many secret-shaped values `v`'s strings and keys hold (nothing is changed).
fn count_value(v: &Value, known: &[String]) -> usize {
    match v {
        Value::String(s) => mask_text(s, known).1,
        Value::Array(items) => items.iter().map(|i| count_value(i, known)).sum(),
        Value::Object(map) => map
            .iter()
            .map(|(k, inner)| mask_text(k, known).1 + count_value(inner, known))
            .sum(),
        _ => 0,
    }
}

/// `catalog`, unchanged, with a note when it carries a credential toolgate knows of (its own,
/// or one `opts` hands the server) or one shaped like a well-known token. The user-handed
/// values are remembered, so every later line toolgate shows masks them.
pub(crate) fn checked(mut catalog: Catalog, opts: &super::ConnectOptions) -> Catalog {
    let extras = super::connect::secret_extras(opts);
    crate::secrets::shown::register(&extras);
    let known = crate::secrets::known_values(&extras);
    note_credentials(&mut catalog, &known);
    catalog
}

/// Adds a note naming the tools whose definitions carry a credential (every tool field but the
/// name, then the instructions, the server's name and version); changes nothing else.
pub(crate) fn note_credentials(catalog: &mut Catalog, known: &[String]) {
    let mut tools = Vec::new();
    let mut total = 0;
    for tool in &catalog.tools {
        let n: usize = tool
            .raw
            .iter()
            .filter(|(k, _)| k.as_str() != "name")
            .map(|(_, v)| count_value(v, known))
            .sum();
        if n > 0 {
            total += n;
            tools.push(tool.name().to_string());
        }
    }
    let others: usize = [
        &catalog.instructions,
        &catalog.server.name,
        &catalog.server.version,
    ]
    .into_iter()
    .flatten()
    .map(|f| mask_text(f, known).1)
    .sum();
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
            "{} credential-looking value(s) in {place}: every model that reads these tools \
             reads the credential, and the lock and snapshot keep it as sent (toolgate shows \
             it as {MASK}); remove it from the server",
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
    fn a_credential_in_a_definition_is_noted_and_never_rewritten() {
        let key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        let raw = json!({"name": "leak", "description": format!("token {key} for the database"),
               "inputSchema": {"type": "object", "properties": {key: {"default": key}}}});
        let tool = Tool::from_value(raw.clone(), "t").unwrap();
        let mut c = Catalog {
            tools: vec![tool],
            instructions: Some("server-given-credential-42 please".into()),
            ..Default::default()
        };
        note_credentials(&mut c, &["server-given-credential-42".into()]);
        assert_eq!(serde_json::Value::Object(c.tools[0].raw.clone()), raw);
        assert_eq!(
            c.instructions.as_deref(),
            Some("server-given-credential-42 please")
        );
        assert!(
            c.notes[0].contains("4 credential-looking") && c.notes[0].contains("`leak`"),
            "{:?}",
            c.notes
        );
        assert!(!c.notes[0].contains(key));
    }
}

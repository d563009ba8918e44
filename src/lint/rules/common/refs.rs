//! Local `$ref` resolution: JSON pointers (percent- and `~`-escapes), `$anchor`s and the
//! root's own `$id`; remote references are never followed.

use serde_json::Value;

use super::schema::subschemas;

/// The fragment (without `#`) a `$ref` names inside `root`, or `None` when the reference
/// points outside the document (remote URL, relative file). A reference that spells out the
/// root's own `$id` counts as local.
pub(crate) fn local_fragment(root: &Value, reference: &str) -> Option<String> {
    if let Some(frag) = reference.strip_prefix('#') {
        return Some(frag.to_string());
    }
    let id = root
        .get("$id")
        .and_then(Value::as_str)?
        .trim_end_matches('#');
    if id.is_empty() {
        return None;
    }
    let rest = reference.strip_prefix(id)?;
    if rest.is_empty() {
        Some(String::new())
    } else {
        rest.strip_prefix('#').map(str::to_string)
    }
}

/// Resolves a `$ref` fragment (text after `#`) within `root`: empty = root, `/a/b` = JSON
/// pointer (percent- and `~`-escapes handled), anything else = a `$anchor` (or draft-07
/// `$id: "#name"`). Returns the target's JSON pointer (relative to `root`) and value.
pub(crate) fn resolve_fragment<'a>(root: &'a Value, fragment: &str) -> Option<(String, &'a Value)> {
    let decoded = percent_decode(fragment)?;
    if decoded.is_empty() {
        return Some((String::new(), root));
    }
    if let Some(rest) = decoded.strip_prefix('/') {
        let mut cur = root;
        for token in rest.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            cur = match cur {
                Value::Object(m) => m.get(&token)?,
                Value::Array(a) => a.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        return Some((decoded, cur));
    }
    let hash_id = format!("#{decoded}");
    subschemas(root, "").into_iter().find(|(_, node)| {
        let is = |k: &str, want: &str| node.get(k).and_then(Value::as_str) == Some(want);
        is("$anchor", &decoded) || is("$dynamicAnchor", &decoded) || is("$id", &hash_id)
    })
}

/// Resolves a local `$ref` string (`#...`) within `root`; `None` when remote or dangling.
pub(crate) fn resolve_ref<'a>(root: &'a Value, reference: &str) -> Option<(String, &'a Value)> {
    resolve_fragment(root, &local_fragment(root, reference)?)
}

fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

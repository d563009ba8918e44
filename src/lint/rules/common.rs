//! Helpers shared by the lint rules (not a rule): schema walking, local `$ref` resolution,
//! destructive-verb detection, free-text parameter detection and message formatting.

use serde_json::{Map, Value};

use crate::catalog::Tool;
use crate::catalog::jsonpos::escape;
use crate::lint::text;

/// Deeper schemas than this are not walked (hostile input; serde_json caps nesting anyway).
const MAX_DEPTH: usize = 96;

/// Keywords whose value is a single subschema.
const SCHEMA_KEYS: &[&str] = &[
    "additionalProperties",
    "items",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];

/// Keywords whose value is an array of subschemas (`items` in its old tuple form).
const SCHEMA_ARRAY_KEYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Keywords whose value maps names to subschemas.
const SCHEMA_MAP_KEYS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// `base` + `/` + the RFC 6901-escaped `token`.
pub(crate) fn join(base: &str, token: &str) -> String {
    format!("{base}/{}", escape(token))
}

/// Every object subschema of `schema` (itself included), with its JSON pointer (`base` for
/// `schema` itself), in document order. Walks the schema keywords only (`properties`,
/// `items`, `anyOf`, `$defs`, …), so a property *named* `$ref` or `description` is never
/// mistaken for a keyword. Boolean schemas are skipped.
pub(crate) fn subschemas<'a>(schema: &'a Value, base: &str) -> Vec<(String, &'a Value)> {
    let mut out = Vec::new();
    walk(schema, base.to_string(), 0, &mut out);
    out
}

fn walk<'a>(v: &'a Value, ptr: String, depth: usize, out: &mut Vec<(String, &'a Value)>) {
    let Some(map) = v.as_object() else { return };
    if depth > MAX_DEPTH {
        return;
    }
    out.push((ptr.clone(), v));
    for (key, child) in map {
        let k = key.as_str();
        if SCHEMA_MAP_KEYS.contains(&k) {
            if let Some(m) = child.as_object() {
                let at = join(&ptr, k);
                for (name, sub) in m {
                    walk(sub, join(&at, name), depth + 1, out);
                }
            }
        } else if SCHEMA_ARRAY_KEYS.contains(&k)
            && let Some(arr) = child.as_array()
        {
            for (i, sub) in arr.iter().enumerate() {
                walk(sub, format!("{}/{i}", join(&ptr, k)), depth + 1, out);
            }
        } else if SCHEMA_KEYS.contains(&k) {
            walk(child, join(&ptr, k), depth + 1, out);
        }
    }
}

/// One property declared under some `properties` keyword of a schema.
pub(crate) struct Property<'a> {
    /// Pointer to the property's schema, e.g. `/inputSchema/properties/notes`.
    pub pointer: String,
    pub name: &'a str,
    pub schema: &'a Value,
    /// Declared directly under the root schema's `properties` (an argument of the tool).
    pub top_level: bool,
}

/// Every property of `schema` at any depth (nested objects, array items, `$defs`, branches).
pub(crate) fn properties<'a>(schema: &'a Value, base: &str) -> Vec<Property<'a>> {
    let mut out = Vec::new();
    for (ptr, node) in subschemas(schema, base) {
        let Some(props) = node.get("properties").and_then(Value::as_object) else {
            continue;
        };
        let top_level = ptr == base;
        let at = join(&ptr, "properties");
        for (name, sub) in props {
            out.push(Property {
                pointer: join(&at, name),
                name: name.as_str(),
                schema: sub,
                top_level,
            });
        }
    }
    out
}

/// True when the schema carries a non-empty `description` string.
pub(crate) fn has_description(schema: &Value) -> bool {
    schema
        .get("description")
        .and_then(Value::as_str)
        .is_some_and(|d| !d.trim().is_empty())
}

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

/// Verbs that make a tool destructive (or irreversible) when it leads with them.
pub(crate) const DESTRUCTIVE_VERBS: &[&str] = &[
    "delete",
    "remove",
    "drop",
    "destroy",
    "purge",
    "erase",
    "wipe",
    "truncate",
    "refund",
    "cancel",
    "revoke",
    "terminate",
    "kill",
    "reset",
    "overwrite",
    "uninstall",
    "unlink",
    "rm",
    "del",
    "void",
    "expunge",
    "shred",
    "evict",
    "ban",
    "deactivate",
    "disable",
    "unsubscribe",
    "clear",
];

/// Adverbs skipped before the leading verb of a description ("Permanently deletes …").
const LEADING_ADVERBS: &[&str] = &[
    "permanently",
    "irreversibly",
    "completely",
    "forcibly",
    "force",
    "hard",
    "soft",
    "recursively",
    "immediately",
    "bulk",
    "batch",
    "instantly",
];

/// The destructive verb a tool leads with: any word of its name (exact), or the first word of
/// its description (imperative, third person or stemmed form). `None` when it sounds harmless.
pub(crate) fn destructive_verb(tool: &Tool) -> Option<&'static str> {
    for w in text::name_words(tool.name()) {
        if let Some(v) = DESTRUCTIVE_VERBS.iter().copied().find(|v| *v == w) {
            return Some(v);
        }
    }
    let words = text::words(tool.description().unwrap_or(""));
    let first = words
        .iter()
        .find(|w| !LEADING_ADVERBS.contains(&w.as_str()))?;
    verb_form(first)
}

fn verb_form(word: &str) -> Option<&'static str> {
    let stemmed = text::stem(word);
    DESTRUCTIVE_VERBS.iter().copied().find(|v| {
        word == *v
            || word.strip_suffix('s') == Some(*v)
            || word.strip_suffix("es") == Some(*v)
            || (stemmed == *v && !word.ends_with("ed"))
    })
}

/// True when a parameter schema accepts arbitrary text or data the model makes up: a string
/// with no `enum`/`const`/`format`/`pattern`, no type at all, or an object with no declared
/// properties that is not closed.
pub(crate) fn is_free_text(schema: &Value) -> bool {
    let Some(m) = schema.as_object() else {
        return schema == &Value::Bool(true);
    };
    if ["enum", "const", "format", "pattern"]
        .iter()
        .any(|k| m.contains_key(*k))
    {
        return false;
    }
    let open_object = || !has_declared_properties(m);
    match m.get("type") {
        None => ![
            "properties",
            "items",
            "anyOf",
            "oneOf",
            "allOf",
            "$ref",
            "not",
        ]
        .iter()
        .any(|k| m.contains_key(*k)),
        Some(Value::String(t)) => t == "string" || (t == "object" && open_object()),
        Some(Value::Array(ts)) => {
            ts.iter().any(|t| t == "string") || (ts.iter().any(|t| t == "object") && open_object())
        }
        _ => false,
    }
}

fn has_declared_properties(m: &Map<String, Value>) -> bool {
    m.get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty())
        || m.get("additionalProperties") == Some(&Value::Bool(false))
}

/// The JSON type name(s) a schema declares, e.g. `string` or `string|null`.
pub(crate) fn declared_type(schema: &Value) -> Option<String> {
    match schema.get("type")? {
        Value::String(t) => Some(t.clone()),
        Value::Array(ts) => Some(
            ts.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("|"),
        ),
        _ => None,
    }
}

/// Every text of a tool a model reads as prose, with its JSON pointer: the title, the
/// description, and each `title`/`description` inside `inputSchema` and `outputSchema`.
pub(crate) fn tool_texts(tool: &Tool) -> Vec<(String, &str)> {
    let mut texts: Vec<(String, &str)> = Vec::new();
    if let Some(t) = tool.title() {
        texts.push(("/title".into(), t));
    }
    if let Some(d) = tool.description() {
        texts.push(("/description".into(), d));
    }
    for key in ["inputSchema", "outputSchema"] {
        let Some(schema) = tool.raw.get(key) else {
            continue;
        };
        for (ptr, node) in subschemas(schema, &format!("/{key}")) {
            for field in ["title", "description"] {
                if let Some(s) = node.get(field).and_then(Value::as_str) {
                    texts.push((format!("{ptr}/{field}"), s));
                }
            }
        }
    }
    texts
}

/// A tool name as a message shows it: invisible and control characters escaped (`\u{200b}`).
pub(crate) fn shown_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_control() || super::hidden_unicode::is_hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Two different tool names as a message shows them side by side: when they differ only in
/// non-ASCII characters (`search` / `sеarch` with a Cyrillic `е`), those are escaped too, so
/// the reader sees where they differ.
pub(crate) fn shown_pair(a: &str, b: &str) -> (String, String) {
    let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let confusable = a != b
        && ca.len() == cb.len()
        && ca
            .iter()
            .zip(&cb)
            .all(|(x, y)| x == y || !x.is_ascii() || !y.is_ascii());
    let show = |name: &str| {
        if !confusable {
            return shown_name(name);
        }
        name.chars()
            .map(|c| {
                if c.is_ascii() && !c.is_ascii_control() {
                    c.to_string()
                } else {
                    format!("\\u{{{:x}}}", c as u32)
                }
            })
            .collect()
    };
    (show(a), show(b))
}

/// `text` on one line (whitespace collapsed), cut to `max` characters with `…`.
pub(crate) fn quote(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut cut: String = one_line.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `a`, `b` and `c` → "`a`, `b`, `c`".
pub(crate) fn ticked<S: AsRef<str>>(names: &[S]) -> String {
    names
        .iter()
        .map(|n| format!("`{}`", n.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `12345` → `12,345`.
pub(crate) fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `s` when `n` is not 1.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Runs one rule over a catalog made of `tools` (test helper).
#[cfg(test)]
pub(crate) fn lint_tools(rule: &crate::lint::Rule, tools: Vec<Value>) -> Vec<crate::lint::Finding> {
    let cat = crate::catalog::Catalog {
        tools: tools
            .into_iter()
            .enumerate()
            .map(|(i, v)| Tool::from_value(v, &format!("tools[{i}]")).unwrap())
            .collect(),
        ..Default::default()
    };
    lint_catalog(rule, &cat)
}

/// Runs one rule over `cat` with default settings (test helper).
#[cfg(test)]
pub(crate) fn lint_catalog(
    rule: &crate::lint::Rule,
    cat: &crate::catalog::Catalog,
) -> Vec<crate::lint::Finding> {
    let settings = crate::lint::LintSettings::default();
    let cx = crate::lint::Context::new(cat, &settings);
    let mut out = Vec::new();
    (rule.check)(&cx, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn walks_nested_schemas_with_pointers() {
        let s = json!({"type": "object", "properties": {
            "a/b": {"type": "array", "items": {"type": "object", "properties": {"c": {}}}},
            "d": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/x"}]}},
            "$defs": {"x": {"type": "null"}}});
        let ptrs: Vec<String> = subschemas(&s, "/inputSchema")
            .into_iter()
            .map(|p| p.0)
            .collect();
        assert!(ptrs.contains(&"/inputSchema/properties/a~1b/items/properties/c".to_string()));
        assert!(ptrs.contains(&"/inputSchema/properties/d/anyOf/1".to_string()));
        assert!(ptrs.contains(&"/inputSchema/$defs/x".to_string()));
        let props = properties(&s, "/inputSchema");
        assert_eq!(props.iter().filter(|p| p.top_level).count(), 2);
        assert_eq!(props.len(), 3);
        assert_eq!(
            resolve_ref(&s, "#/$defs/x").map(|r| r.0),
            Some("/$defs/x".to_string())
        );
        assert!(resolve_ref(&s, "#/$defs/y").is_none());
        assert!(resolve_ref(&s, "other.json#/x").is_none());
    }

    #[test]
    fn detects_destructive_verbs() {
        let t = |v| Tool::from_value(v, "t").unwrap();
        let named = t(json!({"name": "delete_user"}));
        assert_eq!(destructive_verb(&named), Some("delete"));
        let described = t(json!({"name": "users", "description": "Permanently removes a user."}));
        assert_eq!(destructive_verb(&described), Some("remove"));
        let harmless = t(json!({"name": "list_deleted", "description": "Lists deleted users."}));
        assert_eq!(destructive_verb(&harmless), None);
        assert_eq!(thousands(1234567), "1,234,567");
    }
}

//! The JSON Schema subsets hosts' model APIs accept (OpenAI strict mode, Gemini function
//! declarations) and what keeps a tool's input schema out of them (TG030, host-limits).

/// Which JSON Schema subset a host's model API accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SchemaSubset {
    /// OpenAI function calling with `strict: true` (Structured Outputs).
    OpenAiStrict,
    /// Gemini function declarations (`parameters`: a subset of OpenAPI 3.0's schema).
    Gemini,
}

/// Keywords OpenAI's strict mode does not accept anywhere in a schema.
pub(crate) const OPENAI_STRICT_UNSUPPORTED: &[&str] = &[
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
    "if",
    "then",
    "else",
    "not",
    "dependentRequired",
    "dependentSchemas",
    "allOf",
    "oneOf",
];

/// Keywords a Gemini function declaration's `parameters` does not accept.
pub(crate) const GEMINI_UNSUPPORTED: &[&str] = &[
    "$ref",
    "$defs",
    "definitions",
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
    "oneOf",
    "allOf",
    "not",
    "const",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "$schema",
];

/// What keeps `schema` out of `subset`: each problem with its JSON pointer, at most `max`.
pub(crate) fn schema_problems(
    subset: SchemaSubset,
    schema: &serde_json::Value,
    max: usize,
) -> Vec<String> {
    let mut out = Vec::new();
    if subset == SchemaSubset::OpenAiStrict {
        if schema.get("type").and_then(|t| t.as_str()) != Some("object") {
            out.push("the root is not `\"type\": \"object\"`".to_string());
        }
        if schema.get("anyOf").is_some() {
            out.push("the root is an `anyOf`".to_string());
        }
    }
    walk(subset, schema, "", 0, &mut out, max);
    out.truncate(max);
    out
}

fn walk(
    subset: SchemaSubset,
    v: &serde_json::Value,
    at: &str,
    depth: usize,
    out: &mut Vec<String>,
    max: usize,
) {
    if out.len() >= max || depth > 64 {
        return;
    }
    let Some(m) = v.as_object() else {
        if let Some(a) = v.as_array() {
            for (i, x) in a.iter().enumerate() {
                walk(subset, x, &format!("{at}/{i}"), depth + 1, out, max);
            }
        }
        return;
    };
    let bad = match subset {
        SchemaSubset::OpenAiStrict => OPENAI_STRICT_UNSUPPORTED,
        SchemaSubset::Gemini => GEMINI_UNSUPPORTED,
    };
    for k in m.keys().filter(|k| bad.contains(&k.as_str())) {
        // `additionalProperties: false` is what strict mode asks for; Gemini rejects any.
        out.push(format!(
            "`{k}` at `{}`",
            if at.is_empty() { "/" } else { at }
        ));
    }
    let is_object =
        m.get("type").and_then(|t| t.as_str()) == Some("object") || m.contains_key("properties");
    match subset {
        SchemaSubset::OpenAiStrict if is_object => {
            if m.get("additionalProperties") != Some(&serde_json::Value::Bool(false)) {
                out.push(format!(
                    "an object without `\"additionalProperties\": false` at `{}`",
                    if at.is_empty() { "/" } else { at }
                ));
            }
            if let Some(props) = m.get("properties").and_then(|p| p.as_object()) {
                let required: Vec<&str> = m
                    .get("required")
                    .and_then(|r| r.as_array())
                    .map(|r| r.iter().filter_map(|x| x.as_str()).collect())
                    .unwrap_or_default();
                let optional: Vec<&str> = props
                    .keys()
                    .map(String::as_str)
                    .filter(|k| !required.contains(k))
                    .collect();
                if !optional.is_empty() {
                    out.push(format!(
                        "optional properties {} at `{}` (strict mode requires every property; make optional ones nullable)",
                        optional
                            .iter()
                            .take(5)
                            .map(|p| format!("`{p}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        if at.is_empty() { "/" } else { at }
                    ));
                }
            }
        }
        SchemaSubset::Gemini if m.get("type").is_some_and(|t| t.is_array()) => {
            out.push(format!(
                "a list of types at `{}` (use one type and `nullable`)",
                if at.is_empty() { "/" } else { at }
            ));
        }
        _ => {}
    }
    if depth >= 10 && subset == SchemaSubset::OpenAiStrict && is_object {
        out.push(format!("nesting deeper than 10 levels at `{at}`"));
        return;
    }
    for (k, x) in m {
        // Values of these keywords are not schemas.
        if matches!(
            k.as_str(),
            "enum" | "const" | "default" | "examples" | "required"
        ) {
            continue;
        }
        let next = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
        walk(subset, x, &next, depth + 1, out, max);
    }
}

//! Unit tests for the sampler: determinism, keywords honoured, unsampleable schemas explained.

use super::*;

fn tool(schema: Value) -> Tool {
    Tool::from_value(json!({"name": "t", "inputSchema": schema}), "t").unwrap()
}

#[test]
fn same_seed_same_bytes_other_seed_other_values() {
    let t = tool(
        json!({"type": "object", "properties": {"assignee": {"type": "string"}, "due_date": {"type": "string", "format": "date"}, "points": {"type": "integer", "minimum": 1, "maximum": 13}}, "required": ["assignee", "due_date", "points"]}),
    );
    let a = serde_json::to_string(&sample_args(&t, 7, 0).unwrap()).unwrap();
    let b = serde_json::to_string(&sample_args(&t, 7, 0).unwrap()).unwrap();
    assert_eq!(a, b);
    let others: Vec<String> = (1..6)
        .map(|s| serde_json::to_string(&sample_args(&t, s, 0).unwrap()).unwrap())
        .collect();
    assert!(others.iter().any(|o| o != &a));
}

#[test]
fn honours_refs_combinators_patterns_and_bounds() {
    let t = tool(json!({
        "type": "object",
        "$defs": {"code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"}},
        "properties": {
            "ticket": {"$ref": "#/$defs/code"},
            "when": {"anyOf": [{"type": "null"}, {"type": "string", "format": "date-time"}]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 2, "maxItems": 3, "uniqueItems": true},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
            "mode": {"const": "fast"},
            "both": {"allOf": [{"type": "object", "properties": {"x": {"type": "integer", "multipleOf": 5}}, "required": ["x"]}, {"properties": {"y": {"type": "boolean"}}, "required": ["y"]}]}
        },
        "required": ["ticket", "when", "tags", "ratio", "mode", "both"]
    }));
    let code = regex::Regex::new("^[A-Z]{3}-[0-9]{4}$").unwrap();
    for seed in 0..20 {
        let v = sample_args(&t, seed, 0).unwrap();
        assert!(code.is_match(v["ticket"].as_str().unwrap()));
        assert_eq!(v["mode"], "fast");
        assert!(v["both"]["x"].as_i64().unwrap() % 5 == 0);
    }
}

#[test]
fn unsampleable_schemas_say_why() {
    let e = sample_args(
        &tool(json!({"type": "object", "properties": {"x": false}, "required": ["x"]})),
        1,
        0,
    )
    .unwrap_err();
    assert!(e.contains("`false`"), "{e}");
    let e = sample_args(&tool(json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}, "required": ["n"], "$defs": {"n": {"$ref": "#/$defs/n"}}})), 1, 0).unwrap_err();
    assert!(e.contains("deeper than"), "{e}");
    let e = sample_args(&tool(json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 1}}, "required": ["n"]})), 1, 0).unwrap_err();
    assert!(e.contains("empty numeric range"), "{e}");
}

/// Issue 40: the `else` branch is sampled, nullable fields are sometimes null, and a `time`
/// value is valid with format assertion on.
#[test]
fn else_branches_nulls_and_times_are_sampled_validly() {
    let t = tool(json!({
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": ["card", "bank"]},
            "at": {"type": "string", "format": "time"},
            "note": {"type": ["string", "null"]},
            "ref": {"anyOf": [{"type": "null"}, {"type": "string"}]}
        },
        "required": ["kind", "at", "note", "ref"],
        "if": {"properties": {"kind": {"const": "card"}}},
        "then": {"properties": {"card": {"type": "string", "pattern": "^[0-9]{4}$"}}, "required": ["card"]},
        "else": {"properties": {"iban": {"type": "string", "pattern": "^DE[0-9]{4}$"}}, "required": ["iban"]}
    }));
    let schema = t.input_schema().unwrap().clone();
    let strict = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let (mut els, mut thens, mut null_note, mut null_ref) = (0, 0, 0, 0);
    for seed in 0..40 {
        let v = Value::Object(sample_args(&t, seed, 0).unwrap());
        assert!(strict.is_valid(&v), "{v}");
        if v.get("iban").is_some() {
            els += 1;
        }
        if v.get("card").is_some() {
            thens += 1;
        }
        null_note += usize::from(v["note"].is_null());
        null_ref += usize::from(v["ref"].is_null());
    }
    assert!(els > 0 && thens > 0, "else {els}, then {thens}");
    assert!(null_note > 0 && null_note < 40, "{null_note}");
    assert!(null_ref > 0 && null_ref < 40, "{null_ref}");
}

//! Host profiles' unit tests: sources cited, exposed names, schema subsets.

use super::*;
use serde_json::json;

#[test]
fn every_profile_cites_its_limits_and_ids_are_unique() {
    for h in HOSTS {
        assert!(h.exposed.source.starts_with("https://"), "{}", h.id);
        for s in [
            h.max_name.map(|l| l.source),
            h.max_tools.map(|l| l.source),
            h.schema.map(|l| l.source),
            h.defer_tokens.map(|l| l.source),
            h.name_chars.map(|l| l.source),
        ]
        .into_iter()
        .flatten()
        {
            assert!(s.starts_with("https://"), "{}: {s}", h.id);
        }
        assert_eq!(HOSTS.iter().filter(|o| o.id == h.id).count(), 1);
    }
    assert_eq!(
        host("Claude-Code").unwrap().exposed_name("notes", "add"),
        "mcp__notes__add"
    );
}

#[test]
fn strict_mode_wants_closed_objects_with_every_property_required() {
    let ok = json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}},
        "required": ["a"], "additionalProperties": false});
    assert!(schema_problems(SchemaSubset::OpenAiStrict, &ok, 10).is_empty());
    let bad = json!({"type": "object", "properties": {"a": {"type": "string"},
        "b": {"type": "object", "properties": {}, "oneOf": []}}, "required": ["a"]});
    let p = schema_problems(SchemaSubset::OpenAiStrict, &bad, 10).join("; ");
    assert!(
        p.contains("additionalProperties")
            && p.contains("`b`")
            && p.contains("`oneOf` at `/properties/b`"),
        "{p}"
    );
}

#[test]
fn gemini_rejects_refs_and_type_lists() {
    let bad = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/x"},
        "b": {"type": ["string", "null"]}}, "$defs": {"x": {"type": "string"}},
        "additionalProperties": false});
    let p = schema_problems(SchemaSubset::Gemini, &bad, 10).join("; ");
    assert!(
        p.contains("`$ref`") && p.contains("`$defs`") && p.contains("list of types"),
        "{p}"
    );
    let ok = json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}});
    assert!(schema_problems(SchemaSubset::Gemini, &ok, 10).is_empty());
}

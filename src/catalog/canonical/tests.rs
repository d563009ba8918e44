use super::*;
use serde_json::json;

fn tool(v: Value) -> Tool {
    Tool::from_value(v, "t").unwrap()
}

fn json_value() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((".{0,6}", inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    /// The streamed canonical text is byte for byte the sorted copy's, and the streamed
    /// hash (with a top-level key left out) is the hash of that text without the key.
    #[test]
    fn streaming_matches_the_sorted_copy(v in json_value()) {
        let expected = serde_json::to_string(&sorted(&v)).unwrap();
        proptest::prop_assert_eq!(to_canonical_string(&v), expected.clone());
        let mut without = v.clone();
        if let Some(m) = without.as_object_mut() {
            m.shift_remove("a");
        }
        proptest::prop_assert_eq!(
            canonical_sha256(&v, Some("a")),
            sha256_hex(&serde_json::to_string(&sorted(&without)).unwrap())
        );
    }
}

#[test]
fn key_order_and_ignored_fields_do_not_change_the_hash() {
    let a = tool(
        json!({"name": "x", "description": "d", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}),
    );
    let b = tool(
        json!({"inputSchema": {"properties": {"a": {"type": "string"}}, "type": "object"}, "description": "d", "name": "x", "_meta": {"k": 1}, "execution": {"taskSupport": "optional"}}),
    );
    assert_eq!(tool_hash(&a), tool_hash(&b));
}

#[test]
fn any_model_visible_change_changes_the_hash() {
    let a = tool(json!({"name": "x", "description": "d"}));
    let b = tool(json!({"name": "x", "description": "d "}));
    let c = tool(json!({"name": "x", "description": "d", "annotations": {"readOnlyHint": true}}));
    assert_ne!(tool_hash(&a), tool_hash(&b));
    assert_ne!(tool_hash(&a), tool_hash(&c));
}

#[test]
fn catalog_hash_ignores_tool_order_but_not_instructions() {
    let t1 = tool(json!({"name": "a"}));
    let t2 = tool(json!({"name": "b"}));
    let c1 = Catalog {
        tools: vec![t1.clone(), t2.clone()],
        ..Default::default()
    };
    let c2 = Catalog {
        tools: vec![t2, t1],
        ..Default::default()
    };
    assert_eq!(catalog_hash(&c1), catalog_hash(&c2));
    let c3 = Catalog {
        instructions: Some("hi".into()),
        ..c2
    };
    assert_ne!(catalog_hash(&c1), catalog_hash(&c3));
}

/// The direct writer gives the same text (so the same hashes) as canonicalising a copy.
#[test]
fn direct_canonical_text_equals_the_copied_form() {
    let defs = [
        json!({"name": "x", "description": "é \u{1F600} \"q\" \n", "zzz": 1, "_meta": {"a": 1},
            "inputSchema": {"type": "object", "required": ["b", "a", "c"], "properties": {
                "o": {"type": "object", "required": ["z", "y"], "properties": {"required": {"enum": ["b", "a"]}}},
                "n": {"type": "number", "minimum": 1.5, "maximum": 1e300, "default": -0.0},
                "m": {"anyOf": [{"required": ["q", "p"]}, {"required": [1, "a"]}]}}},
            "outputSchema": {"required": ["k", "j"]},
            "annotations": {"readOnlyHint": true, "title": null}, "title": "T"}),
        json!({"name": "y"}),
        json!({}),
    ];
    for d in &defs {
        let m = d.as_object().unwrap();
        for version in [1, 2] {
            assert_eq!(
                definition_text(m, version),
                to_canonical_string(&canonical_definition(m, version))
            );
        }
    }
    // The catalog hash as it was computed before (a canonical copy of everything).
    let refs: Vec<&Map<String, Value>> = defs.iter().map(|d| d.as_object().unwrap()).collect();
    for instructions in [None, Some("be \"nice\"")] {
        let mut views: Vec<Value> = refs.iter().map(|d| canonical_definition(d, 2)).collect();
        let key = |v: &Value| {
            let n = v
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            (n, to_canonical_string(v))
        };
        views.sort_by_key(key);
        let whole = json!({"instructions": instructions, "tools": views});
        assert_eq!(
            catalog_hash_of(instructions, &refs, 2),
            sha256_hex(&to_canonical_string(&whole))
        );
    }
}

#[test]
fn required_is_a_set_in_version_2_only() {
    let a = tool(
        json!({"name": "x", "inputSchema": {"type": "object", "required": ["b", "a"],
        "properties": {"o": {"type": "object", "required": ["z", "y"]}}}}),
    );
    let b = tool(
        json!({"name": "x", "inputSchema": {"type": "object", "required": ["a", "b"],
        "properties": {"o": {"type": "object", "required": ["y", "z"]}}}}),
    );
    assert_eq!(tool_hash(&a), tool_hash(&b));
    assert_ne!(definition_hash(&a.raw, 1), definition_hash(&b.raw, 1));
    // A property *named* `required` is not a list of names and is left alone.
    let c = tool(
        json!({"name": "x", "inputSchema": {"properties": {"required": {"enum": ["b", "a"]}}}}),
    );
    assert_eq!(
        model_view(&c)["inputSchema"]["properties"]["required"]["enum"],
        json!(["b", "a"])
    );
}

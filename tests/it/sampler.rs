//! The sampler's contract: every sample validates against its schema (checked here with the
//! jsonschema crate, independently of the sampler's own check), over real public catalogs and
//! over generated schemas; unsampleable tools are reported with a reason, never dropped.

use proptest::prelude::*;
use serde_json::{Value, json};
use toolgate::testing::catalog::{Tool, snapshot};
use toolgate::testing::tasks::sampler::sample_args;

fn catalogs() -> Vec<std::path::PathBuf> {
    let mut out = vec![
        "fixtures/catalogs/memory.json".into(),
        "fixtures/example/before.json".into(),
        "fixtures/example/after.json".into(),
    ];
    for dir in ["../shared/catalogs", "fixtures/lint"] {
        if let Ok(rd) = std::fs::read_dir(dir) {
            let mut files: Vec<_> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect();
            files.sort();
            out.extend(files);
        }
    }
    out
}

#[test]
fn every_sample_of_every_real_tool_validates() {
    let mut sampled = 0;
    let mut unsampleable = Vec::new();
    for path in catalogs() {
        let Ok(cat) = snapshot::read(&path) else {
            continue;
        };
        for tool in &cat.tools {
            let Some(schema) = tool.input_schema() else {
                continue;
            };
            let Ok(validator) = jsonschema::validator_for(schema) else {
                // A schema that does not compile cannot be sampled; the sampler must say so.
                assert!(
                    sample_args(tool, 0, 0).is_err(),
                    "{}: {} sampled an invalid schema",
                    path.display(),
                    tool.name()
                );
                unsampleable.push(tool.name().to_string());
                continue;
            };
            for seed in 0..25 {
                match sample_args(tool, seed, 0) {
                    Ok(args) => {
                        let v = Value::Object(args);
                        let errors: Vec<String> =
                            validator.iter_errors(&v).map(|e| e.to_string()).collect();
                        assert!(
                            errors.is_empty(),
                            "{} {} seed {seed}: {v} is invalid: {errors:?}",
                            path.display(),
                            tool.name()
                        );
                        sampled += 1;
                    }
                    Err(reason) => {
                        assert!(!reason.is_empty());
                        unsampleable.push(format!("{}: {reason}", tool.name()));
                        break;
                    }
                }
            }
        }
    }
    assert!(sampled > 500, "only {sampled} samples checked");
    eprintln!("{sampled} samples validated; unsampleable: {unsampleable:#?}");
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "string", "format": "date"})),
        Just(json!({"type": "string", "format": "date-time"})),
        Just(json!({"type": "string", "format": "email"})),
        Just(json!({"type": "string", "format": "uuid"})),
        Just(json!({"type": "string", "format": "ipv4"})),
        Just(json!({"type": "string", "format": "uri"})),
        Just(json!({"type": "string", "format": "hostname"})),
        Just(json!({"type": "string", "pattern": "^[a-z]{2,5}-[0-9]{1,3}$"})),
        Just(json!({"type": "string", "minLength": 12, "maxLength": 20})),
        Just(json!({"type": "string", "maxLength": 3})),
        Just(json!({"type": ["string", "null"]})),
        Just(json!({"type": "boolean"})),
        Just(json!({"type": "null"})),
        (-50i64..50, 0i64..40)
            .prop_map(|(lo, w)| json!({"type": "integer", "minimum": lo, "maximum": lo + w})),
        (1i64..10).prop_map(
            |m| json!({"type": "integer", "multipleOf": m, "minimum": 0, "maximum": 100})
        ),
        (-5.0f64..5.0)
            .prop_map(|lo| json!({"type": "number", "exclusiveMinimum": lo, "maximum": lo + 3.0})),
        prop::collection::vec("[a-z]{1,6}", 1..4).prop_map(|v| json!({"enum": v})),
        Just(json!({"const": 42})),
        Just(
            json!({"anyOf": [{"type": "integer", "minimum": 3}, {"type": "string", "format": "email"}]})
        ),
        Just(json!({"oneOf": [{"type": "boolean"}, {"type": "string", "pattern": "^x+$"}]})),
        // Issue 11 point 10: hostile ranges and shapes the sampler must handle.
        Just(json!({"type": "integer", "minimum": -1e30, "maximum": 1e30})),
        Just(json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX})),
        Just(json!({"type": "number", "minimum": -1e308, "maximum": 1e308})),
        Just(json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1})),
        Just(json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1e-9})),
        Just(json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 2})),
        Just(
            json!({"type": "object", "patternProperties": {"^x_[a-z]{2}$": {"type": "integer"}}, "minProperties": 2, "additionalProperties": false})
        ),
        Just(
            json!({"type": "object", "properties": {"kind": {"enum": ["a", "b"]}}, "required": ["kind"],
            "if": {"properties": {"kind": {"const": "a"}}}, "then": {"properties": {"n": {"type": "integer"}}, "required": ["n"]},
            "else": {"properties": {"s": {"type": "string"}}, "required": ["s"]}})
        ),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            (prop::collection::btree_map("[a-z][a-zA-Z_]{0,10}", inner.clone(), 0..5), any::<u8>()).prop_map(|(props, mask)| {
                let required: Vec<&String> = props.keys().enumerate().filter(|(i, _)| mask & (1 << (i % 8)) != 0).map(|(_, k)| k).collect();
                json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
            }),
            (inner.clone(), 0u64..3, 0u64..3).prop_map(|(items, min, extra)| json!({"type": "array", "items": items, "minItems": min, "maxItems": min + extra})),
            (inner.clone(), inner).prop_map(|(a, b)| json!({"allOf": [{"type": "object", "properties": {"a": a}, "required": ["a"]}, {"properties": {"b": b}}]})),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn generated_schemas_sample_validly(body in schema(), seed in 0u64..1000) {
        let root = json!({"type": "object", "properties": {"arg": body, "$defs_user": {"$ref": "#/$defs/name"}, "anchored": {"$ref": "#code"}}, "required": ["arg", "anchored"], "$defs": {"name": {"type": "string", "minLength": 2}, "c": {"$anchor": "code", "type": "string", "pattern": "^[A-Z]{3}$"}}});
        let tool = Tool::from_value(json!({"name": "generated", "inputSchema": root}), "t").unwrap();
        let validator = jsonschema::validator_for(tool.input_schema().unwrap()).unwrap();
        match sample_args(&tool, seed, 0) {
            Ok(args) => {
                let v = Value::Object(args);
                let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
                prop_assert!(errors.is_empty(), "{} invalid: {:?}", v, errors);
            }
            // Every generated schema is satisfiable by construction: failing to sample it is a bug.
            Err(reason) => prop_assert!(false, "could not sample a satisfiable schema: {}", reason),
        }
        let again = sample_args(&tool, seed, 0);
        prop_assert_eq!(format!("{:?}", sample_args(&tool, seed, 0)), format!("{:?}", again));
    }
}

/// Issue 11 point 10: hostile bounds neither panic nor hang; each either samples validly or
/// says why not, quickly.
#[test]
fn hostile_bounds_neither_panic_nor_hang() {
    let cases = [
        json!({"type": "integer", "minimum": -1e30, "maximum": 1e30}),
        json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX}),
        json!({"type": "integer", "minimum": 1e30}),
        json!({"type": "integer", "maximum": -1e30}),
        json!({"type": "integer", "minimum": 0, "maximum": 1e19, "multipleOf": 1e18}),
        json!({"type": "integer", "minimum": i64::MAX, "multipleOf": 7}),
        json!({"type": "number", "minimum": -1.7e308, "maximum": 1.7e308}),
        json!({"type": "string", "minLength": 1_000_000u64}),
        json!({"type": "string", "minLength": 4_294_967_296u64}),
        json!({"type": "string", "minLength": 1e300}),
        json!({"type": "string", "minLength": 99_999, "maxLength": 100_000}),
        json!({"type": "array", "minItems": 1_000_000_000u64}),
        json!({"type": "array", "minItems": 900, "items": {"type": "array", "minItems": 900}}),
        json!({"type": "object", "minProperties": 1e12}),
        json!({"type": "object", "minProperties": 3, "additionalProperties": false}),
        json!({"type": "array", "minItems": 10, "items": {"type": "boolean"}, "uniqueItems": true}),
    ];
    for (i, case) in cases.iter().enumerate() {
        let root = json!({"type": "object", "properties": {"x": case}, "required": ["x"]});
        let tool = Tool::from_value(json!({"name": "hostile", "inputSchema": root}), "t").unwrap();
        let validator = jsonschema::validator_for(tool.input_schema().unwrap()).unwrap();
        let started = std::time::Instant::now();
        match sample_args(&tool, i as u64, 0) {
            Ok(args) => {
                let v = Value::Object(args);
                assert!(validator.is_valid(&v), "case {i} {case}: invalid sample");
            }
            Err(reason) => assert!(!reason.is_empty(), "case {i}"),
        }
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_secs(3),
            "case {i} {case} took {took:?}"
        );
    }
}

/// Ranges wider than i64 still give valid integers (narrowed to ±2^53, not refused).
#[test]
fn wide_integer_ranges_sample_validly() {
    for schema in [
        json!({"type": "integer", "minimum": -1e30, "maximum": 1e30}),
        json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX}),
        json!({"type": "integer"}),
    ] {
        let root = json!({"type": "object", "properties": {"n": schema}, "required": ["n"]});
        let tool = Tool::from_value(json!({"name": "wide", "inputSchema": root}), "t").unwrap();
        for seed in 0..20 {
            let v = sample_args(&tool, seed, 0).unwrap();
            assert!(v["n"].is_i64(), "{v:?}");
        }
    }
}

/// What the sampler could not sample before: exclusive bounds in (0, 1), patternProperties
/// with minProperties, if/then, and a `$ref` to an `$anchor`.
#[test]
fn samples_open_ranges_pattern_properties_conditionals_and_anchors() {
    let root = json!({
        "type": "object",
        "$defs": {"iso": {"$anchor": "country", "type": "string", "pattern": "^[A-Z]{2}$"}},
        "properties": {
            "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "labels": {"type": "object", "patternProperties": {"^lbl_[a-z]{3}$": {"type": "string"}}, "minProperties": 2, "additionalProperties": false},
            "shipping": {"type": "object", "properties": {"method": {"enum": ["post", "courier"]}}, "required": ["method"],
                "if": {"properties": {"method": {"const": "courier"}}, "required": ["method"]},
                "then": {"properties": {"phone": {"type": "string", "pattern": "^[0-9]{6}$"}}, "required": ["phone"]}},
            "country": {"$ref": "#country"}
        },
        "required": ["ratio", "labels", "shipping", "country"]
    });
    let tool = Tool::from_value(json!({"name": "t", "inputSchema": root}), "t").unwrap();
    let validator = jsonschema::validator_for(tool.input_schema().unwrap()).unwrap();
    for seed in 0..30 {
        let v = Value::Object(
            sample_args(&tool, seed, 0).unwrap_or_else(|e| panic!("seed {seed}: {e}")),
        );
        assert!(validator.is_valid(&v), "seed {seed}: {v}");
        let r = v["ratio"].as_f64().unwrap();
        assert!(r > 0.0 && r < 1.0, "{r}");
        assert!(v["labels"].as_object().unwrap().len() >= 2);
        assert_eq!(v["country"].as_str().unwrap().len(), 2);
    }
    // Draft 4 writes exclusive bounds as booleans.
    let old = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
        "properties": {"p": {"type": "number", "minimum": 0, "maximum": 1, "exclusiveMinimum": true, "exclusiveMaximum": true},
                       "k": {"type": "integer", "minimum": 0, "maximum": 2, "exclusiveMinimum": true, "exclusiveMaximum": true}},
        "required": ["p", "k"]});
    let tool = Tool::from_value(json!({"name": "t", "inputSchema": old}), "t").unwrap();
    let validator = jsonschema::validator_for(tool.input_schema().unwrap()).unwrap();
    for seed in 0..30 {
        let v = Value::Object(sample_args(&tool, seed, 0).unwrap());
        assert!(validator.is_valid(&v), "seed {seed}: {v}");
        assert_eq!(v["k"], 1);
    }
}

/// The hostile schemas through `toolgate generate`: it finishes quickly, never panics (exit
/// 101), and writes tasks for the tools it can sample.
#[test]
fn generate_survives_hostile_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("hostile.json");
    let tools = json!({"tools": [
        {"name": "wide_range", "description": "Counts things in a huge range of values.",
         "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": -1e30, "maximum": 1e30}}, "required": ["n"]}},
        {"name": "full_range", "description": "Stores a signed 64-bit number for later.",
         "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX}}, "required": ["n"]}},
        {"name": "long_text", "description": "Saves a very long piece of text somewhere.",
         "inputSchema": {"type": "object", "properties": {"t": {"type": "string", "minLength": 4_294_967_296u64}}, "required": ["t"]}},
        {"name": "many_items", "description": "Takes a billion items in one list at once.",
         "inputSchema": {"type": "object", "properties": {"xs": {"type": "array", "minItems": 1_000_000_000u64}}, "required": ["xs"]}},
        {"name": "mega_text", "description": "Writes a million characters into the log.",
         "inputSchema": {"type": "object", "properties": {"t": {"type": "string", "minLength": 1_000_000u64}}, "required": ["t"]}}
    ]});
    std::fs::write(&snap, tools.to_string()).unwrap();
    let out = dir.path().join("tasks.jsonl");
    let started = std::time::Instant::now();
    let o = assert_cmd::Command::cargo_bin("toolgate")
        .unwrap()
        .args([
            "generate",
            snap.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(101), "panicked: {err}");
    assert!(o.status.code().is_some(), "killed by the timeout: {err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    if o.status.success() {
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("wide_range"), "{text}");
    }
}

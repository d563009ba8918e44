//! The sampler's contract: every sample validates against its schema (checked here with the
//! jsonschema crate, independently of the sampler's own check), over real public catalogs and
//! over generated schemas; unsampleable tools are reported with a reason, never dropped.

use proptest::prelude::*;
use serde_json::{Value, json};
use toolgate::catalog::{Tool, snapshot};
use toolgate::tasks::sampler::sample_args;

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
        let root = json!({"type": "object", "properties": {"arg": body, "$defs_user": {"$ref": "#/$defs/name"}}, "required": ["arg"], "$defs": {"name": {"type": "string", "minLength": 2}}});
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

//! Schema-invalid argument sets for a tool: a required argument left out, an argument of the
//! wrong JSON type, an argument the schema forbids. Each is built from a valid sample (so only
//! the one thing is wrong) and confirmed invalid by the jsonschema crate before it is sent; a
//! schema that accepts every object yields none.

use serde_json::{Map, Value, json};

use crate::catalog::Tool;
use crate::record::contract::ProbeKind;

/// The invalid argument sets for `tool`, at most one of each kind, each confirmed invalid.
/// `valid` is a schema-valid sample to start from (an empty object when there is none).
pub(crate) fn invalid_args(
    tool: &Tool,
    valid: Option<&Map<String, Value>>,
) -> Vec<(ProbeKind, Map<String, Value>)> {
    let schema = tool
        .input_schema()
        .cloned()
        .unwrap_or_else(|| json!({"type": "object"}));
    let Ok(validator) = jsonschema::validator_for(&schema) else {
        return Vec::new();
    };
    let base = valid.cloned().unwrap_or_default();
    let mut out = Vec::new();
    let mut keep = |kind: ProbeKind, args: Map<String, Value>| {
        if !validator.is_valid(&Value::Object(args.clone())) {
            out.push((kind, args));
            true
        } else {
            false
        }
    };
    // A required argument left out (the first one that makes the object invalid).
    for name in tool.required() {
        let mut args = base.clone();
        args.shift_remove(name);
        if keep(ProbeKind::MissingRequired, args) {
            break;
        }
    }
    // An argument of the wrong type: the first declared property a value of another type
    // breaks.
    for (name, prop) in tool.params() {
        let Some(wrong) = wrong_value(prop) else {
            continue;
        };
        let mut args = base.clone();
        args.insert(name.to_string(), wrong);
        if keep(ProbeKind::WrongType, args) {
            break;
        }
    }
    // An argument nobody declared, when the schema forbids extra ones.
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        let mut name = String::from("toolgate_unknown_argument");
        while base.contains_key(&name) || tool.params().iter().any(|(n, _)| *n == name) {
            name.push('_');
        }
        let mut args = base.clone();
        args.insert(name, json!("x"));
        keep(ProbeKind::UnknownArgument, args);
    }
    out
}

/// A value whose JSON type the property's `type` does not allow, if it declares one.
fn wrong_value(prop: &Value) -> Option<Value> {
    let types: Vec<&str> = match prop.get("type")? {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    let allows = |t: &str| types.contains(&t) || (t == "integer" && types.contains(&"number"));
    [
        ("integer", json!(12345)),
        ("string", json!("not a valid value")),
        ("boolean", json!(true)),
        ("object", json!({"unexpected": true})),
        ("array", json!(["unexpected"])),
        ("null", Value::Null),
    ]
    .into_iter()
    .find(|(t, _)| !allows(t))
    .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(schema: Value) -> Tool {
        Tool::from_value(json!({"name": "t", "inputSchema": schema}), "t").unwrap()
    }

    fn kinds(v: &[(ProbeKind, Map<String, Value>)]) -> Vec<ProbeKind> {
        v.iter().map(|(k, _)| *k).collect()
    }

    #[test]
    fn each_kind_is_built_from_the_valid_sample_and_confirmed_invalid() {
        let t = tool(json!({
            "type": "object",
            "properties": {"q": {"type": "string"}, "n": {"type": "integer"}},
            "required": ["q"],
            "additionalProperties": false
        }));
        let valid: Map<String, Value> = json!({"q": "cats", "n": 2}).as_object().cloned().unwrap();
        let got = invalid_args(&t, Some(&valid));
        assert_eq!(
            kinds(&got),
            vec![
                ProbeKind::MissingRequired,
                ProbeKind::WrongType,
                ProbeKind::UnknownArgument
            ]
        );
        assert_eq!(Value::Object(got[0].1.clone()), json!({"n": 2}));
        assert_eq!(Value::Object(got[1].1.clone()), json!({"q": 12345, "n": 2}));
        assert_eq!(got[2].1["toolgate_unknown_argument"], json!("x"));
    }

    #[test]
    fn a_schema_that_accepts_anything_yields_nothing() {
        assert!(invalid_args(&tool(json!({"type": "object"})), None).is_empty());
        // Every type allowed: no wrong value exists.
        let t = tool(json!({"type": "object", "properties": {"x": {}}}));
        assert!(invalid_args(&t, None).is_empty());
    }

    #[test]
    fn a_number_property_takes_a_string_and_a_string_list_takes_an_integer() {
        assert_eq!(
            wrong_value(&json!({"type": "number"})),
            Some(json!("not a valid value"))
        );
        assert_eq!(
            wrong_value(&json!({"type": ["string", "null"]})),
            Some(json!(12345))
        );
        assert_eq!(wrong_value(&json!({"enum": [1]})), None);
    }
}

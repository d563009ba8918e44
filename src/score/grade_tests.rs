use super::*;
use crate::score::values::{parse_instant, values_match};
use serde_json::json;

#[test]
fn dates_compare_as_instants() {
    assert!(values_match(
        &json!("2026-05-08T12:00:00Z"),
        &json!("2026-05-08T14:00:00+02:00"),
        "start",
        None
    ));
    assert!(values_match(
        &json!("2026-05-08T12:00Z"),
        &json!("2026-05-08 12:00:00"),
        "start",
        None
    ));
    assert!(!values_match(
        &json!("2026-05-08T12:00:00Z"),
        &json!("2026-05-08T13:00:00Z"),
        "start",
        None
    ));
    assert!(values_match(
        &json!("2026-05-08"),
        &json!("2026-05-08"),
        "date",
        None
    ));
    assert!(!values_match(
        &json!("2026-05-08"),
        &json!("2026-05-09"),
        "date",
        None
    ));
    assert_eq!(parse_instant("1970-01-02").unwrap().0, 86_400);
    assert!(
        !values_match(
            &json!("2026-05-08T12:00:00Z"),
            &json!("2026-05-08T12:00:30Z"),
            "start",
            None
        ),
        "timestamps compare to the second"
    );
}

#[test]
fn text_is_forgiving_identifiers_are_not() {
    assert!(values_match(
        &json!("Lunch with Dana"),
        &json!("  lunch   WITH dana "),
        "title",
        None
    ));
    assert!(values_match(
        &json!("dentist"),
        &json!("Dentist appointment at 9"),
        "title",
        None
    ));
    assert!(!values_match(
        &json!("evt_7H2K9"),
        &json!("evt_7h2k9"),
        "event_id",
        None
    ));
    assert!(values_match(
        &json!("Ana.Souza@example.com"),
        &json!("ana.souza@example.com"),
        "to",
        None
    ));
    assert!(!values_match(
        &json!("ana@example.com"),
        &json!("ana@example.org"),
        "to",
        None
    ));
    let schema = json!({"type": "string", "enum": ["email", "sms"]});
    assert!(values_match(
        &json!("sms"),
        &json!("SMS"),
        "channel",
        Some(&schema)
    ));
    assert!(!values_match(
        &json!("sms"),
        &json!("sms or email"),
        "channel",
        Some(&schema)
    ));
}

#[test]
fn short_values_compare_whole_and_unknown_keys_are_named() {
    assert!(!values_match(
        &json!("paid"),
        &json!("unpaid"),
        "status",
        None
    ));
    assert!(!values_match(&json!("Ann"), &json!("Joanne"), "name", None));
    assert!(!values_match(
        &json!("paid"),
        &json!("unpaid"),
        "notes",
        None
    ));
    assert!(values_match(&json!("Ann"), &json!("ann"), "name", None));
    let schema = json!({"type": "object", "properties": {"room": {"type": "string"}}});
    let args = json!({"room": "Vega", "floor": 3})
        .as_object()
        .unwrap()
        .clone();
    assert_eq!(unknown_keys(&args, Some(&schema)).len(), 1);
    let open = json!({"type": "object", "properties": {}, "additionalProperties": true});
    assert!(unknown_keys(&args, Some(&open)).is_empty());
}

#[test]
fn lists_in_any_order_nested_objects_and_numbers() {
    assert!(values_match(
        &json!(["a@x.io", "b@x.io"]),
        &json!(["b@x.io", "a@x.io"]),
        "attendees",
        None
    ));
    assert!(!values_match(
        &json!(["a@x.io"]),
        &json!(["a@x.io", "b@x.io"]),
        "attendees",
        None
    ));
    assert!(values_match(
        &json!({"city": "Lisbon", "n": 2}),
        &json!({"city": "lisbon", "n": 2.0, "x": 1}),
        "loc",
        None
    ));
    assert!(values_match(
        &json!(30),
        &json!("30"),
        "duration_minutes",
        None
    ));
    let want = json!({"room": "Vega"}).as_object().unwrap().clone();
    let got = json!({"room": "Orion"}).as_object().unwrap().clone();
    assert_eq!(compare_args(&want, &got, None).len(), 1);
}

#[test]
fn every_call_of_a_reply_is_scored_and_writes_after_the_right_call_fail() {
    use crate::models::Step;
    let catalog = Catalog {
        tools: [
            json!({"name": "book", "annotations": {"readOnlyHint": false}}),
            json!({"name": "look", "annotations": {"readOnlyHint": true}}),
            json!({"name": "wipe", "annotations": {"destructiveHint": true}}),
            json!({"name": "bare"}),
        ]
        .into_iter()
        .map(|v| crate::catalog::Tool::from_value(v, "t").unwrap())
        .collect(),
        ..Default::default()
    };
    let task: Task =
        serde_json::from_value(json!({"id": "t", "request": "book it", "kind": "direct",
        "expected": {"tool": "book", "arguments": {"at": "9:00"}}}))
        .unwrap();
    let call = |tool: &str| Step {
        tool: tool.into(),
        arguments: Some(json!({"at": "09:00"}).as_object().unwrap().clone()),
        error: None,
        turn: None,
    };
    let parallel = |first: &str, rest: &[&str]| Decision {
        tool: Some(first.into()),
        arguments: call(first).arguments,
        parallel_calls: rest.iter().map(|t| call(t)).collect(),
        ..Default::default()
    };
    let outcome = |d: &Decision| grade(&task, d, &catalog, &mut ArgChecker::new(&catalog));
    let g = outcome(&parallel("look", &["book"]));
    assert_eq!(g.outcome, Outcome::Correct, "{g:?}");
    assert_eq!(
        g.args_correct,
        Some(true),
        "the serving call's arguments are graded"
    );
    let g = outcome(&parallel("book", &["wipe"]));
    assert_eq!(
        (g.outcome, g.unasked.as_deref()),
        (Outcome::UnaskedWrite, Some("wipe"))
    );
    assert!(g.notes[0].contains("beside"), "{g:?}");
    let g = outcome(&parallel("book", &["bare"]));
    assert_eq!(g.outcome, Outcome::UnannotatedCall);
    // A write after the right call, in a multi-step run, fails the same way.
    let steps = Decision {
        tool: Some("book".into()),
        steps: vec![call("book"), call("wipe")],
        ..Default::default()
    };
    let g = outcome(&steps);
    assert_eq!(g.outcome, Outcome::UnaskedWrite);
    assert!(g.notes[0].contains("after"), "{g:?}");
    // The wrong tool alone is still a confusion.
    assert_eq!(outcome(&parallel("look", &[])).outcome, Outcome::Confused);
}

#[test]
fn times_of_day_paths_negation_and_nested_unknown_keys() {
    for (a, b) in [
        ("9:00", "09:00"),
        ("9:30 pm", "21:30"),
        ("12:00 am", "00:00"),
        ("7:05:00", "07:05"),
    ] {
        assert!(values_match(&json!(a), &json!(b), "at", None), "{a} = {b}");
    }
    assert!(!values_match(&json!("9:00"), &json!("21:00"), "at", None));
    // Paths and code keep their case; names do not.
    assert!(!values_match(
        &json!("/src/Main.rs"),
        &json!("/src/main.rs"),
        "target",
        None
    ));
    assert!(!values_match(
        &json!("SELECT Name"),
        &json!("select name"),
        "sql",
        None
    ));
    assert!(!values_match(
        &json!("git log"),
        &json!("GIT LOG"),
        "command",
        None
    ));
    assert!(values_match(
        &json!("Ann Lee"),
        &json!("ann lee"),
        "name",
        None
    ));
    // Free text may sit inside a longer value, but not under a negation it lacks.
    assert!(values_match(
        &json!("include drafts"),
        &json!("please include drafts"),
        "query",
        None
    ));
    assert!(!values_match(
        &json!("include drafts"),
        &json!("do not include drafts"),
        "query",
        None
    ));
    assert!(values_match(
        &json!("not urgent"),
        &json!("this is not urgent"),
        "note",
        None
    ));
    let schema = json!({"type": "object", "properties": {"filter": {"type": "object",
        "properties": {"status": {"type": "string"}}, "additionalProperties": false},
        "rows": {"type": "array", "items": {"type": "object", "properties": {"id": {}}, "additionalProperties": false}}}});
    let args = json!({"filter": {"stauts": "open"}, "rows": [{"id": 1}, {"idd": 2}]});
    let unknown = unknown_keys(args.as_object().unwrap(), Some(&schema));
    assert_eq!(
        unknown,
        vec![
            "`filter.stauts` is not a parameter of this tool",
            "`rows[1].idd` is not a parameter of this tool"
        ]
    );
}

/// Issue 41 point 1: validity is the layer under value match. Four schema-invalid calls
/// whose values all match are never "arguments correct", and the layer that failed is named.
#[test]
fn a_schema_invalid_call_is_never_arguments_correct() {
    let catalog = Catalog {
        tools: vec![
            crate::catalog::Tool::from_value(
                json!({"name": "book", "inputSchema": {"type": "object",
                    "properties": {"room": {"type": "string"}, "seats": {"type": "integer"},
                        "filter": {"type": "object", "properties": {"floor": {"type": "integer"}},
                            "additionalProperties": false}},
                    "required": ["room", "seats"], "additionalProperties": false}}),
                "t",
            )
            .unwrap(),
        ],
        ..Default::default()
    };
    let task: Task = serde_json::from_value(json!({"id": "t", "request": "book Vega",
        "kind": "direct", "expected": {"tool": "book", "arguments": {"room": "Vega"}}}))
    .unwrap();
    let with = |args: serde_json::Value| {
        let d = Decision {
            tool: Some("book".into()),
            arguments: args.as_object().cloned(),
            ..Default::default()
        };
        grade(&task, &d, &catalog, &mut ArgChecker::new(&catalog))
    };
    for (args, why) in [
        (json!({"room": "Vega"}), "missing required"),
        (json!({"room": "Vega", "seats": "four"}), "wrong type"),
        (
            json!({"room": "Vega", "seats": 4, "colour": "red"}),
            "unknown key",
        ),
        (
            json!({"room": "Vega", "seats": 4, "filter": {"flor": 2}}),
            "unknown nested key",
        ),
    ] {
        let g = with(args);
        assert_eq!(g.outcome, Outcome::Correct, "{why}");
        assert_eq!(g.args_valid, Some(false), "{why}: {g:?}");
        assert_eq!(g.args_correct, Some(false), "{why}: {g:?}");
        assert_eq!(args_layer(&g), Some(ArgsLayer::Schema), "{why}");
    }
    let g = with(json!({"room": "Lyra", "seats": 4}));
    assert_eq!((g.args_valid, g.args_correct), (Some(true), Some(false)));
    assert_eq!(args_layer(&g), Some(ArgsLayer::Values));
    let g = with(json!({"room": "vega", "seats": 4}));
    assert_eq!((g.args_valid, g.args_correct), (Some(true), Some(true)));
    assert_eq!(args_layer(&g), None);
}

/// Issue 41 point 1: the text an edit replaces must match the file byte for byte, so it
/// compares with case, spaces and line breaks — by its name (`oldText`, `old_string`) or by a
/// schema description that says so — while free text stays forgiving.
#[test]
fn edit_text_compares_byte_for_byte() {
    // The filesystem server's edit_file, as it lists it.
    let edits = json!({"type": "array", "items": {"type": "object", "properties": {
        "oldText": {"type": "string", "description": "Text to search for - must match exactly"},
        "newText": {"type": "string", "description": "Text to replace with"}},
        "required": ["oldText", "newText"]}});
    let want = json!([{"oldText": "fn Main() {", "newText": "fn main() {"}]);
    let lower = json!([{"oldText": "fn main() {", "newText": "fn main() {"}]);
    assert!(!values_match(&want, &lower, "edits", Some(&edits)));
    assert!(values_match(&want, &want.clone(), "edits", Some(&edits)));
    let spaced = json!([{"oldText": "fn  Main() {", "newText": "fn main() {"}]);
    assert!(!values_match(&want, &spaced, "edits", Some(&edits)));
    // By name alone, with no schema.
    assert!(!values_match(
        &json!("Hello World"),
        &json!("hello world"),
        "old_string",
        None
    ));
    assert!(!values_match(
        &json!("x = 1\n"),
        &json!("x = 1"),
        "new_str",
        None
    ));
    // By the description alone.
    let exact = json!({"type": "string", "description": "The label, verbatim."});
    assert!(!values_match(
        &json!("Urgent"),
        &json!("urgent"),
        "label",
        Some(&exact)
    ));
    // Free text and names stay forgiving.
    assert!(values_match(
        &json!("Urgent"),
        &json!("urgent"),
        "label",
        None
    ));
    assert!(values_match(
        &json!("lunch with Ann"),
        &json!("Lunch with ann"),
        "message",
        None
    ));
}

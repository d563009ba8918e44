use super::*;
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

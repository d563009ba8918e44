use super::*;
use serde_json::json;

fn task(id: &str, kind: &str, tool: Option<&str>) -> Task {
    let mut v = json!({"id": id, "request": format!("request {id}"), "kind": kind});
    if let Some(t) = tool {
        v["expected"] = json!({"tool": t});
    }
    serde_json::from_value(v).unwrap()
}

fn obs<'a>(task: &'a Task, called: Option<&str>, outcome: Outcome) -> Observation<'a> {
    Observation {
        task,
        trial: 0,
        called: called.map(str::to_string),
        graded: Graded {
            outcome,
            args_valid: None,
            args_correct: None,
            notes: vec![],
            error_kind: None,
            unasked: None,
        },
        text: None,
    }
}

#[test]
fn counts_outcomes_apart_and_fills_the_matrix() {
    let t = [
        task("1", "direct", Some("a")),
        task("2", "direct", Some("a")),
        task("3", "near_miss", Some("b")),
        task("4", "no_tool", None),
        task("5", "no_tool", None),
        task("6", "direct", Some("b")),
    ];
    let o = vec![
        obs(&t[0], Some("a"), Outcome::Correct),
        obs(&t[1], Some("b"), Outcome::Confused),
        obs(&t[2], None, Outcome::Missed),
        obs(&t[3], None, Outcome::Correct),
        obs(&t[4], Some("a"), Outcome::FalseCall),
        obs(&t[5], None, Outcome::Error),
    ];
    let m = Metrics::compute(&["a".into(), "b".into()], &o);
    assert_eq!((m.accuracy.k, m.accuracy.n), (2, 6));
    assert_eq!(
        (m.confusions, m.missed_calls, m.false_calls, m.errors),
        (1, 1, 1, 1)
    );
    assert_eq!(m.confusion["a"]["b"], 1);
    assert_eq!(m.confusion[NONE]["a"], 1);
    assert_eq!(m.confusion["b"][ERROR], 1);
    assert_eq!(m.by_kind["no_tool"].k, 1);
    // Abstentions: tasks 3 and 4 called nothing; only 4 was right to.
    assert_eq!((m.abstention_precision.k, m.abstention_precision.n), (1, 2));
    assert_eq!((m.abstention_recall.k, m.abstention_recall.n), (1, 2));
    let a = m.tool("a").unwrap();
    assert_eq!(
        (a.recall.k, a.recall.n, a.precision.k, a.precision.n),
        (1, 2, 1, 2)
    );
    assert_eq!(m.most_confused.len(), 3);
}

#[test]
fn errors_are_counted_by_their_typed_kind_never_by_their_wording() {
    let t = [
        task("1", "direct", Some("a")),
        task("2", "direct", Some("a")),
        task("3", "direct", Some("a")),
        task("4", "direct", Some("a")),
    ];
    let err = |task, note: &str, kind| {
        let mut o = obs(task, None, Outcome::Error);
        o.graded.notes.push(note.into());
        o.graded.error_kind = kind;
        o
    };
    let o = vec![
        // The wording mentions a timeout; the adapter typed it as an HTTP 503.
        err(
            &t[0],
            "HTTP 503: upstream timed out",
            Some(crate::models::ErrorKind::Http(503)),
        ),
        err(
            &t[1],
            "called `zz`, which is not a tool of this catalog",
            Some(crate::models::ErrorKind::InventedTool),
        ),
        // A predictions file of an older toolgate: its kind was read from the text when the
        // file was read (`Decision::typed`); scoring counts kinds only.
        err(
            &t[2],
            "request failed: tcp connect error: Connection refused",
            Some(crate::models::ErrorKind::of_message(
                "request failed: tcp connect error: Connection refused",
            )),
        ),
        // No kind at all (never from a file read here): counted by its first line, the
        // wording not classified.
        err(&t[3], "the upstream timed out\nsecond line", None),
    ];
    let m = Metrics::compute(&["a".to_string()], &o);
    let causes: Vec<(&str, u64)> = m
        .errors_by_cause
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(
        causes,
        [
            ("HTTP 503", 1),
            ("connection refused", 1),
            ("invented tool name", 1),
            ("the upstream timed out", 1)
        ]
    );
}

#[test]
fn precision_and_argument_rates_are_clustered_by_task() {
    // Two tasks, five agreeing trials each: ten calls, but two independent answers.
    let t = [
        task("1", "direct", Some("a")),
        task("2", "direct", Some("a")),
    ];
    let mut o = Vec::new();
    for task in &t {
        for trial in 0..5 {
            let mut x = obs(task, Some("a"), Outcome::Correct);
            x.trial = trial;
            x.graded.args_valid = Some(true);
            o.push(x);
        }
    }
    let m = Metrics::compute(&["a".into()], &o);
    let naive = Rate::new(10, 10);
    let a = m.tool("a").unwrap();
    assert_eq!((a.precision.k, a.precision.n), (10, 10));
    assert!(a.precision.lo < naive.lo, "{:?} vs {naive:?}", a.precision);
    assert!(m.args_valid.lo < naive.lo, "{:?}", m.args_valid);
    assert!(m.error_rate.hi > Rate::new(0, 10).hi, "{:?}", m.error_rate);
}

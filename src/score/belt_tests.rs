use super::*;
use crate::record::scores::belt::NoToolSplit;
use crate::tasks::Kind;

fn origin() -> BTreeMap<String, Origin> {
    [
        ("gh__issue", "gh", "issue"),
        ("time__convert", "time", "convert"),
    ]
    .into_iter()
    .map(|(n, s, t)| {
        (
            n.to_string(),
            Origin {
                server: s.into(),
                tool: t.into(),
            },
        )
    })
    .collect()
}

fn task(id: &str, expected: Option<&str>) -> Task {
    let mut v = serde_json::json!({
        "id": id,
        "request": format!("request {id} <b>|x|</b>"),
        "kind": if expected.is_some() { "direct" } else { "no_tool" },
    });
    if let Some(e) = expected {
        v["expected"] = serde_json::json!({"tool": e});
    }
    serde_json::from_value(v).unwrap()
}

fn line(id: &str, expected: Option<&str>, called: Option<&str>, outcome: Outcome) -> OutcomeLine {
    OutcomeLine {
        model: "m".into(),
        task_id: id.into(),
        trial: 0,
        kind: if expected.is_some() {
            Kind::Direct
        } else {
            Kind::NoTool
        },
        expected: expected.map(String::from),
        called: called.map(String::from),
        outcome,
        args_correct: None,
    }
}

fn suite() -> (Vec<Task>, Vec<OutcomeLine>) {
    use Outcome::*;
    let rows: Vec<(&str, Option<&str>, Option<&str>, Outcome)> = vec![
        ("t1", Some("a"), Some("a"), Correct),
        ("t2", Some("a"), Some("b"), Confused),
        ("t3", Some("a"), Some("gh__issue"), Confused),
        ("t4", Some("b"), Some("gh__issue"), Confused),
        ("t5", Some("b"), Some("time__convert"), Confused),
        ("t6", Some("b"), None, Missed),
        ("t7", Some("b"), None, Error),
        ("t8", Some("b"), Some("gh__issue"), Confused),
        ("t9", Some("b"), Some("gh__issue"), Confused),
        ("n1", None, None, Correct),
        ("n2", None, Some("a"), FalseCall),
        ("n3", None, Some("time__convert"), FalseCall),
    ];
    let tasks = rows.iter().map(|r| task(r.0, r.1)).collect();
    let lines = rows.iter().map(|r| line(r.0, r.1, r.2, r.3)).collect();
    (tasks, lines)
}

#[test]
fn decisions_split_into_right_own_taken_missed_and_errors() {
    let (tasks, lines) = suite();
    let s = score("m", "mine", &tasks, &lines, &origin());
    assert_eq!(s.tool_tasks, 9);
    assert_eq!(
        (s.right.k, s.other_own.k, s.taken.k, s.missed.k, s.errors.k),
        (1, 1, 5, 1, 1)
    );
    assert!(s.taken.lo < s.taken.value && s.taken.value < s.taken.hi);
    assert_eq!(
        s.no_tool,
        NoToolSplit {
            n: 3,
            abstained: 1,
            own_call: 1,
            belt_call: 1,
            errors: 0
        }
    );
    let gh = &s.by_server[0];
    assert_eq!((gh.server.as_str(), gh.rate.k, gh.rate.n), ("gh", 4, 9));
    assert_eq!(
        gh.tools,
        [ToolCount {
            tool: "issue".into(),
            count: 4
        }]
    );
    assert_eq!(gh.examples.len(), EXAMPLES, "bounded: {:?}", gh.examples);
    let time = &s.by_server[1];
    assert_eq!((time.rate.k, time.no_tool), (1, 1));
    assert_eq!(time.examples.len(), 2);
    assert!(time.examples[0].expected.is_some() && time.examples[1].expected.is_none());
    assert_eq!(time.examples[1].request, "request n3 <b>|x|</b>");
    // Shares of all 12 decisions: yours got t1, t2, n2; gh 4; time 2.
    let shares: Vec<(&str, u64)> = s
        .shares
        .iter()
        .map(|x| (x.server.as_str(), x.share.k))
        .collect();
    assert_eq!(shares, [("mine", 3), ("gh", 4), ("time", 2)]);
    assert_eq!(s.shares[0].accuracy.unwrap().k, 2);
    assert!(s.shares.iter().all(|x| x.share.n == 12));
}

#[test]
fn long_requests_are_cut_and_other_models_ignored() {
    let (mut tasks, mut lines) = suite();
    tasks[2].request = "x".repeat(10_000);
    let mut other = lines[0].clone();
    other.model = "other".into();
    lines.push(other);
    let s = score("m", "mine", &tasks, &lines, &origin());
    assert_eq!(s.tool_tasks, 9);
    let ex = &s.by_server[0].examples[0];
    assert_eq!(ex.task_id, "t3");
    assert_eq!(ex.request.chars().count(), REQUEST_MAX);
}

#[test]
fn alone_against_the_belt_is_paired_per_task() {
    use Outcome::*;
    let mut alone = Vec::new();
    let mut belt = Vec::new();
    for i in 0..12 {
        let id = format!("t{i}");
        alone.push(line(&id, Some("a"), Some("a"), Correct));
        belt.push(if i < 10 {
            line(&id, Some("a"), Some("gh__issue"), Confused)
        } else {
            line(&id, Some("a"), Some("a"), Correct)
        });
    }
    let c = alone_vs_belt("m", &alone, &belt, None, None, 0.05);
    assert_eq!((c.overall.only_base, c.overall.only_head), (10, 0));
    assert_eq!(c.overall.verdict, crate::score::compare::Verdict::Worse);
    assert_eq!(c.losers.len(), 1);
    assert_eq!(c.losers[0].label, "a");
    assert_eq!((c.overall.base.k, c.overall.head.k), (12, 2));
}

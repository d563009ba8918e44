use std::collections::BTreeMap;

use super::*;
use crate::catalog::belt::combine::Origin;
use crate::eval::belt::{BeltInfo, BeltServerInfo};
use crate::score::belt::score;
use crate::score::{Outcome, OutcomeLine};
use crate::tasks::{Kind, Task};

const EVIL_SERVER: &str = "ev`il|<b>srv\u{1b}[31m";
const EVIL_REQUEST: &str = "Convert | <script>alert(1)</script> `x` \u{1b}[2J\nnext line";

/// A run read the way `toolgate report DIR` reads one (new optional fields stay optional).
fn run_with(belt: Option<BeltInfo>) -> RunFile {
    let mut run = crate::record::v1::from_text(
        r#"{"schema_version":"toolgate.run/v1","toolgate_version":"0","created":"",
            "status":"complete","catalog":{"source":"s","sha256":"0","tools":["a","b","x__t"]},
            "suite":{"path":"t","sha256":"0","tasks":3,"by_kind":{}},
            "models":[{"spec":"m","deterministic":false,"trials":1}],
            "trials":1,"split":"all","results":[]}"#,
    )
    .unwrap();
    run.belt = belt;
    run
}

fn belt() -> BeltInfo {
    let origin: BTreeMap<String, Origin> = [(
        "x__t".to_string(),
        Origin {
            server: EVIL_SERVER.into(),
            tool: "t<i>".into(),
        },
    )]
    .into();
    let task = |id: &str, exp: Option<&str>| -> Task {
        let mut v = serde_json::json!({"id": id, "request": EVIL_REQUEST,
            "kind": if exp.is_some() { "direct" } else { "no_tool" }});
        if let Some(e) = exp {
            v["expected"] = serde_json::json!({"tool": e});
        }
        serde_json::from_value(v).unwrap()
    };
    let tasks = vec![
        task("t1", Some("a")),
        task("t2", Some("a")),
        task("n1", None),
    ];
    let line = |id: &str, exp: Option<&str>, called: Option<&str>, o: Outcome| OutcomeLine {
        model: "m".into(),
        task_id: id.into(),
        trial: 0,
        kind: Kind::Direct,
        expected: exp.map(String::from),
        called: called.map(String::from),
        outcome: o,
        args_correct: None,
    };
    let outcomes = vec![
        line("t1", Some("a"), Some("a"), Outcome::Correct),
        line("t2", Some("a"), Some("x__t"), Outcome::Confused),
        line("n1", None, Some("x__t"), Outcome::FalseCall),
    ];
    let mut info = BeltInfo {
        spec: "ecosystem".into(),
        own: "mine".into(),
        servers: vec![BeltServerInfo {
            name: EVIL_SERVER.into(),
            tools: 1,
        }],
        origin,
        ..Default::default()
    };
    info.scores = vec![score("m", "mine", &tasks, &outcomes, &info.origin)];
    info
}

#[test]
fn no_belt_no_section() {
    let run = run_with(None);
    assert!(section(&run, Style::Terminal).is_empty());
    assert!(section(&run, Style::Markdown).is_empty());
    assert!(html(&run).is_empty());
    assert!(comment(&run).is_empty());
}

#[test]
fn every_sink_escapes_what_servers_and_tasks_sent() {
    let run = run_with(Some(belt()));
    let term = section(&run, Style::Terminal);
    assert!(term.contains("in the belt ecosystem: 1 tools of 1 servers beside your 2 (mine)"));
    assert!(term.contains("taken by a belt server"), "{term}");
    assert!(
        !term.contains('\u{1b}'),
        "raw escape reached the terminal: {term}"
    );
    assert!(
        term.contains("not measured for m (its decisions cost calls)"),
        "{term}"
    );
    // A request's line break does not break the example's line.
    let t2 = term
        .lines()
        .find(|l| l.trim_start().starts_with("t2:"))
        .unwrap();
    assert!(
        t2.contains("next line") && t2.contains("expected a"),
        "{t2}"
    );

    let md = section(&run, Style::Markdown);
    assert!(md.contains("### In the belt `ecosystem`"), "{md}");
    // Requests are escaped; names sit in code spans (where `<b>` is literal text).
    assert!(!md.contains("<script>"), "{md}");
    assert!(md.contains("`` ev`il\\|<b>srv\\x1b[31m ``"), "{md}");
    // Inside table rows, no unescaped pipe splits a cell.
    for row in md
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("ev"))
    {
        let cells = row.replace("\\|", "").matches('|').count();
        assert_eq!(cells, 6, "{row}");
    }
    let examples: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("- `t2`") || l.starts_with("- `n1`"))
        .collect();
    assert_eq!(examples.len(), 2, "{md}");
    assert!(
        examples
            .iter()
            .all(|l| l.contains("next line") && !l.contains("<script>"))
    );
    assert!(
        md.contains("counted apart, not as plain false calls"),
        "{md}"
    );

    let h = html(&run);
    assert!(
        !h.contains("<script>") && !h.contains("<b>srv") && !h.contains("<i>"),
        "{h}"
    );
    assert!(h.contains("&lt;script&gt;"));

    let t = ci_terminal(&run);
    assert!(
        t.starts_with("in the belt     ecosystem m: taken 50.0%"),
        "{t}"
    );
    assert!(!t.contains('\u{1b}'), "{t}");
    let c = comment(&run);
    assert!(c.contains("| `m` |"), "{c}");
}

#[test]
fn the_run_report_carries_the_section_in_every_format() {
    let run = run_with(Some(belt()));
    assert!(crate::report::run::terminal(&run).contains("== in the belt"));
    assert!(crate::report::run::markdown(&run).contains("### In the belt"));
    assert!(crate::report::html::render(&run).contains("<section id=belt>"));
}

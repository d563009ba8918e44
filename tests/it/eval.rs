//! Offline evaluation end to end: the bundled example (BM25 must prefer the "after"
//! descriptions by 15+ points), resumable runs, gates, compare, generate, bad inputs.

use crate::common::*;
use predicates::prelude::*;
use serde_json::Value;

fn example(which: &str) -> String {
    py_server("fakemcp.py", &fixture(&format!("example/{which}.json")))
}

fn tasks() -> String {
    fixture("example/tasks.jsonl")
}

fn run_json(dir: &std::path::Path) -> Value {
    read_json(&dir.join("run.json"))
}

fn accuracy(dir: &std::path::Path) -> f64 {
    run_json(dir)["results"][0]["metrics"]["accuracy"]["value"]
        .as_f64()
        .unwrap()
}

#[test]
fn example_after_beats_before_by_fifteen_points_with_bm25() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = (dir.path().join("before"), dir.path().join("after"));
    for (server, out) in [(example("before"), &before), (example("after"), &after)] {
        toolgate()
            .args(["run", &server, "-t", &tasks(), "-m", "bm25", "--out"])
            .arg(out)
            .assert()
            .success();
    }
    let (b, a) = (accuracy(&before), accuracy(&after));
    assert!(
        a - b >= 0.15,
        "after {a:.3} should beat before {b:.3} by 15 points"
    );
    toolgate()
        .args(["compare"])
        .arg(&before)
        .arg(&after)
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"overall\s+130 .* better").unwrap());
    toolgate()
        .args(["compare", "--format", "markdown"])
        .arg(&before)
        .arg(&after)
        .assert()
        .success()
        .stdout(predicate::str::contains("| `overall` | 130 |"))
        // One trial per task: the header counts tasks (issue 41).
        .stdout(predicate::str::contains("on 130 paired tasks;"));
    // SARIF carries lint findings: compare refuses it instead of printing the terminal table.
    toolgate()
        .args(["compare", "--format", "sarif"])
        .arg(&before)
        .arg(&after)
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("compare has no SARIF output"));
}

#[test]
fn example_servers_share_one_contract_and_differ_only_in_descriptions() {
    let load = |w: &str| read_json(std::path::Path::new(&fixture(&format!("example/{w}.json"))));
    let (b, a) = (load("before"), load("after"));
    let (bt, at) = (
        b["tools"].as_array().unwrap(),
        a["tools"].as_array().unwrap(),
    );
    assert!(bt.len() >= 10);
    assert_eq!(bt.len(), at.len());
    let mut differing = 0;
    for (x, y) in bt.iter().zip(at) {
        let strip = |v: &Value| {
            let mut v = v.clone();
            v.as_object_mut().unwrap().remove("description");
            v
        };
        assert_eq!(
            strip(x),
            strip(y),
            "only descriptions may differ ({})",
            x["name"]
        );
        if x["description"] != y["description"] {
            differing += 1;
        }
    }
    assert_eq!(differing, bt.len(), "every description differs");
    let lines = std::fs::read_to_string(tasks()).unwrap();
    assert!(lines.lines().count() >= 100);
}

#[test]
fn a_killed_run_resumes_without_losing_or_repeating_a_task() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full");
    let cut = dir.path().join("cut");
    let snap = fixture("example/after.json");
    toolgate()
        .args(["run", &snap, "-t", &tasks(), "--out"])
        .arg(&full)
        .assert()
        .success();
    toolgate()
        .args(["run", &snap, "-t", &tasks(), "--out"])
        .arg(&cut)
        .assert()
        .success();
    // Simulate a kill: keep the first 50 decisions and half of the 51st line.
    let text = std::fs::read_to_string(cut.join("predictions.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = lines[..50].join("\n");
    kept.push('\n');
    kept.push_str(&lines[50][..lines[50].len() / 2]);
    std::fs::write(cut.join("predictions.jsonl"), kept).unwrap();
    toolgate()
        .args(["run", "--resume"])
        .arg(&cut)
        .assert()
        .success()
        .stderr(predicate::str::contains("50 decision(s) already made"))
        .stderr(predicate::str::contains("80 decision(s) made"));
    let text = std::fs::read_to_string(cut.join("predictions.jsonl")).unwrap();
    let ids: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["task_id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let unique: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!(ids.len(), 130);
    assert_eq!(unique.len(), 130);
    assert_eq!(run_json(&cut)["status"], "complete");
    assert_eq!(run_json(&cut)["results"], run_json(&full)["results"]);
    // Resuming a finished run makes no new decision.
    toolgate()
        .args(["run", "--resume"])
        .arg(&cut)
        .assert()
        .success()
        .stderr(predicate::str::contains("0 decision(s) made"));
}

#[test]
fn a_run_dir_from_another_catalog_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    toolgate()
        .args([
            "run",
            &fixture("example/after.json"),
            "-t",
            &tasks(),
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    toolgate()
        .args([
            "run",
            &fixture("example/before.json"),
            "-t",
            &tasks(),
            "--resume",
        ])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("was made from another catalog"));
}

#[test]
fn gates_exit_1_with_a_one_line_reason() {
    let dir = tempfile::tempdir().unwrap();
    let snap = fixture("example/after.json");
    toolgate()
        .args([
            "run",
            &snap,
            "-t",
            &tasks(),
            "--fail-under",
            "0.95",
            "--out",
        ])
        .arg(dir.path().join("a"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is under --fail-under 95.0%"));
    toolgate()
        .args(["run", &snap, "-t", &tasks(), "--fail-under", "0.2", "--out"])
        .arg(dir.path().join("b"))
        .assert()
        .success();
    toolgate()
        .args(["report"])
        .arg(dir.path().join("b"))
        .args(["--min-tool-accuracy", "0.99"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--min-tool-accuracy"));
    toolgate()
        .args(["run", &snap, "-t", &tasks(), "--fail-under", "80"])
        .assert()
        .code(2);
}

#[test]
fn bad_task_inputs_are_exit_2_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let snap = fixture("example/after.json");
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"id\":\"a\",\"request\":\"hi\",\"kind\":\"no_tool\"}\n{\"id\": \"b\", \"request\": \n",
    )
    .unwrap();
    toolgate()
        .args(["run", &snap, "-t"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.jsonl:2:"));
    std::fs::write(&bad, "{\"id\":\"a\",\"request\":\"send it\",\"kind\":\"direct\",\"expected\":{\"tool\":\"send_fax\"}}\n").unwrap();
    toolgate()
        .args(["run", &snap, "-t"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "bad.jsonl:1: task `a` names `send_fax`",
        ));
    std::fs::write(&bad, "\n\n").unwrap();
    toolgate()
        .args(["run", &snap, "-t"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no tasks"));
    toolgate()
        .args(["validate", &snap, "-t"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no tasks"));
    toolgate()
        .args(["compare"])
        .arg(dir.path())
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a run directory"));
}

#[test]
fn generate_is_seeded_and_its_tasks_validate() {
    let dir = tempfile::tempdir().unwrap();
    let snap = fixture("example/after.json");
    let generate = |seed: &str, name: &str| {
        let p = dir.path().join(name);
        toolgate()
            .args(["generate", &snap, "-o"])
            .arg(&p)
            .args([
                "--seed",
                seed,
                "--per-tool",
                "2",
                "--near-miss",
                "1",
                "--no-tool",
                "4",
                "--heldout",
                "0.25",
            ])
            .assert()
            .success();
        std::fs::read_to_string(p).unwrap()
    };
    let (a, b, c) = (
        generate("5", "a.jsonl"),
        generate("5", "b.jsonl"),
        generate("6", "c.jsonl"),
    );
    assert_eq!(a, b, "same seed, same bytes");
    assert_ne!(a, c);
    assert!(
        a.contains("\"kind\":\"near_miss\"")
            && a.contains("\"kind\":\"no_tool\"")
            && a.contains("\"split\":\"heldout\"")
    );
    toolgate()
        .args(["validate", &snap, "-t"])
        .arg(dir.path().join("a.jsonl"))
        .args(["--min-per-tool", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("0 error(s)"));
    toolgate()
        .args(["generate", &snap, "-o"])
        .arg(dir.path().join("x.jsonl"))
        .args(["--only", "no_such_tool"])
        .assert()
        .code(2);
}

#[test]
fn html_report_is_self_contained_with_a_heatmap() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    toolgate()
        .args([
            "run",
            &fixture("example/before.json"),
            "-t",
            &tasks(),
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    for external in ["<link", "src=\"http", "src='http", "@import", "url(http"] {
        assert!(!html.contains(external), "external asset: {external}");
    }
    // 12 tools + the no-call row, each with 13+ cells (empty ones carry no attributes).
    assert!(heat_cells(&html) >= 13 * 13, "{}", heat_cells(&html));
    assert!(
        html.matches("class=\"cell").count() >= 13,
        "the non-empty cells have details"
    );
    assert!(html.contains("prefers-color-scheme: dark"));
    assert!(
        std::fs::read_to_string(out.join("report.md"))
            .unwrap()
            .contains("| **findability@1** |")
    );
}

/// Chromium from Debian's package (installed by .ci/run).
fn chromium() -> String {
    for p in [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ] {
        if std::path::Path::new(p).exists() {
            return p.to_string();
        }
    }
    panic!("chromium is missing: run `bash .ci/run` (it installs Debian's chromium package)");
}

#[test]
fn html_report_renders_in_headless_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    toolgate()
        .args([
            "run",
            &fixture("example/after.json"),
            "-t",
            &tasks(),
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let page = format!("file://{}", out.join("report.html").display());
    let profile = dir.path().join("profile");
    let shot = dir.path().join("report.png");
    let base = |extra: &[&str]| {
        let mut c = std::process::Command::new(chromium());
        c.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(&page);
        c
    };
    let dom = base(&["--dump-dom", "--virtual-time-budget=2000"])
        .output()
        .expect("chromium runs");
    assert!(
        dom.status.success(),
        "{}",
        String::from_utf8_lossy(&dom.stderr)
    );
    let dom = String::from_utf8_lossy(&dom.stdout);
    // The rendered DOM has the heatmap: 13 rows (12 tools + no call) × 13+ columns of cells,
    // each with its hover detail, and the theme toggle and tooltip wired up.
    assert!(heat_cells(&dom) >= 13 * 13, "heatmap cells missing");
    assert!(dom.contains("data-tip=\"expected create_event → called create_event"));
    assert!(dom.contains("id=\"tip\"") && dom.contains("id=\"theme\""));
    let status = base(&[
        "--window-size=1300,1800",
        &format!("--screenshot={}", shot.display()),
    ])
    .output()
    .unwrap();
    assert!(status.status.success());
    assert!(
        std::fs::metadata(&shot).unwrap().len() > 10_000,
        "the screenshot is blank"
    );
}

#[test]
fn mutate_measures_one_description_change_without_touching_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let server = example("before");
    toolgate()
        .args(["run", &server, "-t", &tasks(), "-m", "bm25", "--out"])
        .arg(&out)
        .args(["--mutate", "cancel_event:Call off a meeting other people were invited to: it stays in history and every attendee is notified. Not for silently removing your own drafts — use delete_event."])
        .assert()
        .success()
        .stdout(predicate::str::contains("mutation of `cancel_event`"))
        // bm25 is a search: its verdict is said to be about findability, not a model's choice.
        .stdout(predicate::str::contains(
            "its verdict is about findability@1 (does a search put the right tool first?), not about which tool a model would choose",
        ))
        .stdout(predicate::str::is_match(r"cancel_event\s+n=8\s+0\.0% →\s+\d").unwrap());
    let cmp: Value = read_json(&out.join("mutation.json"));
    let overall = &cmp[0]["overall"];
    assert!(overall["only_head"].as_u64().unwrap() > overall["only_base"].as_u64().unwrap());
    assert!(
        out.join("baseline/predictions.jsonl").exists()
            && out.join("mutated/predictions.jsonl").exists()
    );
    toolgate()
        .args(["run", &server, "-t", &tasks(), "--mutate", "no_such_tool:x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no tool `no_such_tool`"));
}

#[test]
fn replayed_decisions_are_scored_with_their_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("tasks.jsonl");
    let lines = [
        r#"{"id":"a","request":"Book Vega at noon","kind":"direct","expected":{"tool":"book_room","arguments":{"room":"Vega","start":"2026-05-08T12:00:00Z","end":"2026-05-08T13:00:00Z"}}}"#,
        r#"{"id":"b","request":"Call off evt_1","kind":"direct","expected":{"tool":"cancel_event","arguments":{"event_id":"evt_1"}}}"#,
        r#"{"id":"c","request":"Tell me a joke","kind":"no_tool"}"#,
        r#"{"id":"d","request":"What is on my calendar Friday?","kind":"direct","expected":{"tool":"find_events"}}"#,
        r#"{"id":"e","request":"Remind me at 9","kind":"direct","expected":{"tool":"set_reminder"}}"#,
    ];
    std::fs::write(&t, lines.join("\n") + "\n").unwrap();
    let log = dir.path().join("agent.jsonl");
    let logged = [
        r#"{"task_id":"a","tool":"book_room","arguments":{"room":"vega","start":"2026-05-08T14:00:00+02:00","end":"2026-05-08T13:00:00Z"},"model":"agent-v1"}"#,
        r#"{"task_id":"b","tool":"delete_event","arguments":{"event_id":"evt_1"}}"#,
        r#"{"request":"tell me a JOKE","tool":null,"text":"Why did the chicken…"}"#,
        r#"{"task_id":"d","tool":"find_everything","arguments":{}}"#,
    ];
    std::fs::write(&log, logged.join("\n") + "\n").unwrap();
    let out = dir.path().join("r");
    toolgate()
        .args(["run", &fixture("example/after.json"), "-t"])
        .arg(&t)
        .arg("-m")
        .arg(format!("replay:{}", log.display()))
        .arg("--out")
        .arg(&out)
        // 2 errors in 5 decisions is an errored run under the default --max-error-rate.
        .assert()
        .code(2)
        .stderr(predicate::str::contains("2 of 5 decisions failed"));
    let m = &read_json(&out.join("run.json"))["results"][0]["metrics"];
    assert_eq!(read_json(&out.join("run.json"))["status"], "errored");
    assert_eq!(m["errors_by_cause"]["invented tool name"], 1, "{m}");
    assert_eq!(m["accuracy"]["k"], 2, "{m}");
    assert_eq!(m["confusions"], 1);
    assert_eq!(
        m["errors"], 2,
        "an invented tool and an uncovered task are errors"
    );
    // `vega` is not among the room enum's values (`Vega`): the tool would reject the call,
    // so its arguments are not correct whatever the values (issue 41 point 1).
    assert_eq!(
        (
            m["args_correct"]["k"].as_u64(),
            m["args_correct"]["n"].as_u64()
        ),
        (Some(0), Some(1))
    );
    assert_eq!(m["args_valid"]["k"], 0, "{m}");
    assert_eq!(m["argument_problems"][0]["layer"], "schema", "{m}");
    assert_eq!(m["attribution"]["description_confusion"], 1);
    assert_eq!(m["attribution"]["model_mechanics"], 2);
    std::fs::write(&log, "{\"task_id\": \"a\", \"arguments\": [1]}\n").unwrap();
    toolgate()
        .args(["run", &fixture("example/after.json"), "-t"])
        .arg(&t)
        .arg("-m")
        .arg(format!("replay:{}", log.display()))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("agent.jsonl:1"));
}

#[test]
fn a_run_writes_a_badge_with_provenance() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let badge = dir.path().join("badge.svg");
    toolgate()
        .args([
            "run",
            &fixture("example/after.json"),
            "-t",
            &tasks(),
            "--out",
        ])
        .arg(&out)
        .arg("--badge")
        .arg(&badge)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&badge).unwrap();
    assert!(
        svg.contains("aria-label=\"toolgate · findability@1 (bm25): 52%\""),
        "{svg}"
    );
    let suite = read_json(&out.join("run.json"))["suite"]["sha256"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(svg.contains(&suite), "the task-suite hash is embedded");
    // Issue 41: which split and how many steps a task could take ride along too.
    assert!(
        svg.contains("&quot;split&quot;:&quot;all&quot;")
            && svg.contains("&quot;max_steps&quot;:1"),
        "{svg}"
    );
    // resvg draws it, with the font the badge's widths are measured in.
    let mut o = resvg::usvg::Options::default();
    o.fontdb_mut().load_font_data(
        std::fs::read(crate::common::root().join("assets/fonts/DejaVuSans.ttf")).unwrap(),
    );
    let tree = resvg::usvg::Tree::from_str(&svg, &o).unwrap();
    let (w, h) = (tree.size().width(), tree.size().height());
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w as u32, h as u32).unwrap();
    resvg::render(&tree, Default::default(), &mut pixmap.as_mut());
    assert!(
        pixmap.pixels().iter().any(|p| p.alpha() > 0),
        "nothing drawn"
    );
    let (w, h) = (w as u32, h as u32);
    assert_eq!(h, 20);
    assert!(w > 100 && w < 300, "{w}");
}

/// The retrieval metrics in run.json, recomputed here from predictions.jsonl's rankings and
/// the task file (not through toolgate's scoring code).
#[test]
fn retrieval_metrics_recompute_from_the_rankings() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = crate::common::toolgate()
        .args(["run", &crate::common::fixture("example/after.json"), "-t"])
        .arg(crate::common::fixture("example/tasks.jsonl"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let expected: std::collections::HashMap<String, String> =
        std::fs::read_to_string(crate::common::fixture("example/tasks.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter_map(|t| {
                Some((
                    t["id"].as_str()?.to_string(),
                    t["expected"]["tool"].as_str()?.to_string(),
                ))
            })
            .collect();
    let mut ranks = Vec::new();
    for line in std::fs::read_to_string(out.join("predictions.jsonl"))
        .unwrap()
        .lines()
    {
        let p: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(e) = expected.get(p["task_id"].as_str().unwrap()) else {
            continue;
        };
        let ranking = p["ranking"]
            .as_array()
            .expect("BM25 decisions carry a ranking");
        assert!(ranking.len() <= 10);
        ranks.push(ranking.iter().position(|t| t == e.as_str()).map(|i| i + 1));
    }
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let r = &run["results"][0]["metrics"]["retrieval"]["overall"];
    for k in [1usize, 3, 5, 10] {
        let hits = ranks.iter().filter(|r| r.is_some_and(|r| r <= k)).count();
        assert_eq!(r["recall"][k.to_string()]["k"], hits as u64, "recall@{k}");
        assert_eq!(r["recall"][k.to_string()]["n"], ranks.len() as u64);
    }
    let mrr = ranks
        .iter()
        .map(|r| r.map_or(0.0, |r| 1.0 / r as f64))
        .sum::<f64>()
        / ranks.len() as f64;
    assert!((r["mrr"]["value"].as_f64().unwrap() - mrr).abs() < 1e-12);
    let ndcg = ranks
        .iter()
        .map(|r| r.map_or(0.0, |r| 1.0 / ((r + 1) as f64).log2()))
        .sum::<f64>()
        / ranks.len() as f64;
    assert!((r["ndcg"]["value"].as_f64().unwrap() - ndcg).abs() < 1e-12);
    // A ranking model's floor: met at recall@10, missed at recall@1.
    for (floor, code) in [("10:0.9", 0), ("1:0.9", 1)] {
        let o = crate::common::toolgate()
            .args(["report"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success());
        let o = crate::common::toolgate()
            .args(["run", &crate::common::fixture("example/after.json"), "-t"])
            .arg(crate::common::fixture("example/tasks.jsonl"))
            .args(["--fail-under-recall", floor, "--out"])
            .arg(dir.path().join(floor.replace(':', "-")))
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(code),
            "{floor}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// The cells of the report's heatmap table (`<td` between its opening and closing tags).
fn heat_cells(html: &str) -> usize {
    let Some(start) = html.find("<table class=\"heat") else {
        return 0;
    };
    let table = &html[start..];
    let end = table.find("</table>").unwrap_or(table.len());
    table[..end].matches("<td").count()
}

/// Issue 23 point 3: the HTML heatmap of a 500-tool catalog keeps every tool (no folding), is
/// drawn compact inside a scrolling box, and stays a few megabytes.
#[test]
fn the_html_heatmap_scales_to_500_tools() {
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("cat.json");
    let ok = std::process::Command::new("python3")
        .arg(crate::common::root().join("benches/make_catalog.py"))
        .arg("500")
        .arg(&cat)
        .status()
        .unwrap();
    assert!(ok.success());
    let tasks = dir.path().join("tasks.jsonl");
    toolgate()
        .args(["generate"])
        .arg(&cat)
        .arg("-o")
        .arg(&tasks)
        .args([
            "--per-tool",
            "1",
            "--near-miss",
            "0",
            "--no-tool",
            "0",
            "--seed",
            "1",
        ])
        .assert()
        .success();
    let out = dir.path().join("run");
    toolgate()
        .args(["run"])
        .arg(&cat)
        .arg("-t")
        .arg(&tasks)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(predicates::prelude::predicate::in_iter([0, 1]));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("class=\"heat compact\"") && html.contains("<div class=heatwrap>"));
    assert!(!html.contains("most confused tools; the others are folded"));
    assert!(heat_cells(&html) > 400 * 400, "{}", heat_cells(&html));
    assert!(html.len() < 8 << 20, "report.html is {} bytes", html.len());
}

/// Issue 23 point 5: the tool-search emulation returns at most k tools per search, and its
/// findability@k (recall@k) equals an independent count over predictions.jsonl; the names-and-
/// instructions view finds fewer tools than the view that indexes descriptions and arguments.
#[test]
fn tool_search_findability_is_recall_at_k_of_what_the_search_returns() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ts");
    toolgate()
        .current_dir(fixture("example"))
        .args(["run", "after.json", "-t", "tasks.jsonl"])
        .args(["-m", "toolsearch:3", "-m", "toolsearch-names:3", "--out"])
        .arg(&out)
        .assert()
        .code(predicate::in_iter([0, 1]));
    let tasks: std::collections::BTreeMap<String, String> =
        std::fs::read_to_string(fixture("example/tasks.jsonl"))
            .unwrap()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|t| {
                Some((
                    t["id"].as_str()?.to_string(),
                    t["expected"]["tool"].as_str()?.to_string(),
                ))
            })
            .collect();
    let run = read_json(&out.join("run.json"));
    let mut found = std::collections::BTreeMap::new();
    // (model, tool) → (found within 3, tasks): findability per tool, counted independently.
    let mut per_tool = std::collections::BTreeMap::new();
    for line in std::fs::read_to_string(out.join("predictions.jsonl"))
        .unwrap()
        .lines()
    {
        let p: Value = serde_json::from_str(line).unwrap();
        let ranking = p["ranking"].as_array().cloned().unwrap_or_default();
        assert!(ranking.len() <= 3, "a search returns at most k tools: {p}");
        let Some(expected) = tasks.get(p["task_id"].as_str().unwrap()) else {
            continue;
        };
        let e = found
            .entry(p["model"].as_str().unwrap().to_string())
            .or_insert((0u64, 0u64));
        e.1 += 1;
        let t = per_tool
            .entry((p["model"].as_str().unwrap().to_string(), expected.clone()))
            .or_insert((0u64, 0u64));
        t.1 += 1;
        if ranking.iter().any(|r| r == expected.as_str()) {
            e.0 += 1;
            t.0 += 1;
        }
    }
    // The report's "Findability per tool" rows say the same, tool by tool.
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let sections: Vec<&str> = report.split("### `").collect();
    for ((model, tool), (k, n)) in &per_tool {
        let section = sections
            .iter()
            .find(|s| s.starts_with(&format!("{model}`")))
            .unwrap_or_else(|| panic!("no section for {model}"));
        let table = section
            .split("**Findability per tool**")
            .nth(1)
            .unwrap_or_else(|| panic!("{model}: no findability table"));
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| `{tool}` |")))
            .unwrap_or_else(|| panic!("{model}: no row for {tool}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[3], format!("{k}/{n}"), "{model} {tool}: {row}");
    }
    let recall = |model: &str| -> (u64, u64) {
        let r = run["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["model"] == model)
            .unwrap();
        let at3 = &r["metrics"]["retrieval"]["overall"]["recall"]["3"];
        assert_eq!(
            at3, &r["metrics"]["retrieval"]["overall"]["recall"]["10"],
            "nothing past k"
        );
        (at3["k"].as_u64().unwrap(), at3["n"].as_u64().unwrap())
    };
    for model in ["toolsearch:3", "toolsearch-names:3"] {
        assert_eq!(
            recall(model),
            found[model],
            "{model}: recomputed from predictions.jsonl"
        );
    }
    let (full, names) = (recall("toolsearch:3"), recall("toolsearch-names:3"));
    assert!(
        full.0 > names.0,
        "descriptions and arguments make tools findable: {full:?} vs {names:?}"
    );
}

//! The distractor curve of `run --belt ecosystem` on the bundled example: present in run.json,
//! nested and seeded draws, a point recomputed by an independent run, and the chart visible in
//! headless Chromium.

use assert_cmd::Command;
use serde_json::Value;

fn fixture(p: &str) -> String {
    format!("{}/fixtures/{p}", env!("CARGO_MANIFEST_DIR"))
}

fn toolgate() -> Command {
    let mut c = Command::cargo_bin("toolgate").unwrap();
    for v in [
        "CI",
        "GITHUB_ACTIONS",
        "NO_COLOR",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
    ] {
        c.env_remove(v);
    }
    c
}

fn run(out: &std::path::Path, extra: &[&str]) -> Value {
    toolgate()
        .args([
            "run",
            &fixture("example/after.json"),
            "-t",
            &fixture("example/tasks.jsonl"),
        ])
        .args(["--fail-under", "0", "--out"])
        .arg(out)
        .args(extra)
        .assert()
        .success();
    serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap()
}

fn draw<'a>(curve: &'a Value, name: &str) -> &'a Vec<Value> {
    curve["draws"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["draw"] == name)
        .unwrap()["tools"]
        .as_array()
        .unwrap()
}

#[test]
fn the_curve_is_measured_nested_seeded_and_recomputable() {
    let dir = tempfile::tempdir().unwrap();
    let a = run(&dir.path().join("a"), &["--belt", "ecosystem"]);
    let curve = &a["curve"];
    assert_eq!(
        curve["sizes"],
        serde_json::json!([0, 10, 50, 100, 200, 479])
    );
    assert_eq!(curve["available"], 479);
    assert_eq!(curve["series"].as_array().unwrap().len(), 2);
    // Nested: a size's distractors are the first `size` of one order, and the order holds
    // each tool once (so size k's tools are a subset of size k+1's).
    for name in ["random", "nearest"] {
        let tools = draw(curve, name);
        assert_eq!(tools.len(), 479);
        let set: std::collections::HashSet<String> = tools.iter().map(|t| t.to_string()).collect();
        assert_eq!(set.len(), 479);
    }
    // At every tool, both draws are the run's own catalog: the main run's accuracy.
    let main_k = &a["results"][0]["metrics"]["accuracy"]["k"];
    for s in curve["series"].as_array().unwrap() {
        let points = s["points"].as_array().unwrap();
        assert_eq!(&points.last().unwrap()["accuracy"]["k"], main_k);
        assert_eq!(points[0]["p"], 1.0);
    }
    // Same seed: byte-identical; another seed: another random draw.
    let b = run(&dir.path().join("b"), &["--belt", "ecosystem"]);
    assert_eq!(
        serde_json::to_string(&a["curve"]).unwrap(),
        serde_json::to_string(&b["curve"]).unwrap()
    );
    let c = run(
        &dir.path().join("c"),
        &["--belt", "ecosystem", "--seed", "99"],
    );
    assert_ne!(draw(&a["curve"], "random"), draw(&c["curve"], "random"));
    assert_eq!(draw(&a["curve"], "nearest"), draw(&c["curve"], "nearest"));
    // Recomputed independently: a belt folder holding exactly the random draw's first 10
    // tools, run as an ordinary belt, scores what the curve says at 10.
    let first: Vec<(String, String)> = draw(curve, "random")[..10]
        .iter()
        .map(|t| {
            (
                t[0].as_str().unwrap().to_string(),
                t[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let folder = dir.path().join("belt10");
    std::fs::create_dir(&folder).unwrap();
    let servers: std::collections::BTreeSet<&String> = first.iter().map(|t| &t.0).collect();
    for server in servers {
        let snap: Value = serde_json::from_str(
            &std::fs::read_to_string(fixture(&format!("ecosystem/{server}.json"))).unwrap(),
        )
        .unwrap();
        let tools: Vec<&Value> = snap["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| first.contains(&(server.clone(), t["name"].as_str().unwrap().to_string())))
            .collect();
        std::fs::write(
            folder.join(format!("{server}.json")),
            serde_json::json!({ "tools": tools }).to_string(),
        )
        .unwrap();
    }
    let ten = run(
        &dir.path().join("ten"),
        &["--belt", folder.to_str().unwrap(), "--curve=false"],
    );
    assert!(ten.get("curve").is_none());
    assert_eq!(ten["belt"]["origin"].as_object().unwrap().len(), 10);
    let random = curve["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["draw"] == "random")
        .unwrap();
    let at10 = random["points"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["size"] == 10)
        .unwrap();
    assert_eq!(at10["accuracy"], ten["results"][0]["metrics"]["accuracy"]);
}

#[test]
fn curve_flags_need_a_belt_and_no_curve_turns_it_off() {
    let dir = tempfile::tempdir().unwrap();
    toolgate()
        .args([
            "run",
            &fixture("example/after.json"),
            "-t",
            &fixture("example/tasks.jsonl"),
        ])
        .args(["--curve", "--out"])
        .arg(dir.path().join("x"))
        .assert()
        .code(2);
    let off = run(
        &dir.path().join("off"),
        &["--belt", "ecosystem", "--curve=false"],
    );
    assert!(off.get("curve").is_none());
    let some = run(
        &dir.path().join("some"),
        &["--belt", "ecosystem", "--curve-sizes", "5,all"],
    );
    assert_eq!(some["curve"]["sizes"], serde_json::json!([0, 5, 479]));
}

#[test]
fn the_chart_renders_in_headless_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    run(&out, &["--belt", "ecosystem"]);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<svg class=chart"));
    let dom = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--dump-dom",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("p").display()
        ))
        .arg(format!("file://{}", out.join("report.html").display()))
        .output()
        .expect("chromium runs");
    assert!(
        dom.status.success(),
        "{}",
        String::from_utf8_lossy(&dom.stderr)
    );
    let dom = String::from_utf8_lossy(&dom.stdout);
    // Parsed by the browser as SVG: two series lines, each with 6 points that move.
    let lines: Vec<&str> = dom.split("<polyline").skip(1).collect();
    assert_eq!(lines.len(), 2, "{dom}");
    for l in lines {
        let points = l
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let ys: Vec<f64> = points
            .split(' ')
            .map(|p| p.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(ys.len(), 6);
        assert!(ys.iter().any(|y| (y - ys[0]).abs() > 1.0), "{ys:?}");
    }
    assert!(dom.contains("class=\"mark\"") && dom.contains("breaks at"));
    assert!(dom.contains("distractor tools from the belt"));
}

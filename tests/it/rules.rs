//! Every lint rule over its fixture catalog (fixtures/lint/CODE-slug.json): tools marked
//! `"_meta": {"expect": "fire"}` must be reported by that rule, tools marked `"quiet"` must
//! not; catalog-wide rules use `"_expect_catalog"`. The findings and every rendered format are
//! insta snapshots.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use toolgate::testing::catalog::snapshot;
use toolgate::testing::cli::Format;
use toolgate::testing::lint::{self, LintSettings, RULES};

fn fixtures() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("fixtures/lint")
        .expect("fixtures/lint exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

fn settings_of(raw: &Value) -> LintSettings {
    match raw.get("_settings") {
        Some(s) => serde_json::from_value(s.clone()).expect("_settings are valid LintSettings"),
        None => LintSettings::default(),
    }
}

fn code_of(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy()[..5].to_string()
}

#[test]
fn every_rule_has_a_fixture() {
    let codes: Vec<String> = fixtures().iter().map(|p| code_of(p)).collect();
    for r in RULES {
        assert!(
            codes.iter().any(|c| c == r.code),
            "no fixture for {} ({})",
            r.code,
            r.slug
        );
    }
}

#[test]
fn rules_fire_and_stay_quiet_as_marked() {
    for path in fixtures() {
        let code = code_of(&path);
        let raw: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let catalog = snapshot::read(&path).unwrap();
        let settings = settings_of(&raw);
        let found: Vec<_> = lint::run(&catalog, &settings)
            .into_iter()
            .filter(|f| f.code == code)
            .collect();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let mut fired = 0;
        let mut quiet = 0;
        for tool in &catalog.tools {
            let expect = tool
                .raw
                .get("_meta")
                .and_then(|m| m.get("expect"))
                .and_then(Value::as_str);
            let hit = found.iter().any(|f| f.tool.as_deref() == Some(tool.name()));
            match expect {
                Some("fire") => {
                    fired += 1;
                    assert!(hit, "{name}: {code} should report `{}`", tool.name());
                }
                Some("quiet") => {
                    quiet += 1;
                    assert!(
                        !hit,
                        "{name}: {code} should not report `{}`: {found:#?}",
                        tool.name()
                    );
                }
                other => panic!("{name}: tool `{}` has _meta.expect {other:?}", tool.name()),
            }
        }
        match raw.get("_expect_catalog").and_then(Value::as_str) {
            Some(expect) => {
                let hit = found.iter().any(|f| f.tool.is_none());
                assert_eq!(
                    hit,
                    expect == "fire",
                    "{name}: catalog-wide {code} expected {expect}"
                );
            }
            None => {
                assert!(
                    fired >= 2 && quiet >= 2,
                    "{name}: needs 2+ fire and 2+ quiet tools"
                );
            }
        }
        let snap: Vec<Value> = found
            .iter()
            .map(|f| json!({"tool": f.tool, "severity": f.severity, "pointer": f.pointer, "message": f.message}))
            .collect();
        insta::assert_json_snapshot!(name, snap);
    }
}

#[test]
fn rendered_formats_are_stable() {
    let path = Path::new("fixtures/lint/TG008-required-undefined.json");
    let catalog = snapshot::read(path).unwrap();
    let cfg = toolgate::testing::config::Config::default();
    let report =
        toolgate::testing::report::LintReport::for_catalog(&catalog, &cfg.lint, None).unwrap();
    for (format, name) in [
        (Format::Terminal, "format-terminal"),
        (Format::Markdown, "format-markdown"),
        (Format::Github, "format-github"),
    ] {
        let text = toolgate::testing::report::render_lint(&report, format);
        insta::assert_snapshot!(name, text);
    }
    let mut json_report: Value = serde_json::from_str(&toolgate::testing::report::render_lint(
        &report,
        Format::Json,
    ))
    .unwrap();
    json_report["toolgate_version"] = json!("[version]");
    insta::assert_json_snapshot!("format-json", json_report);
    let mut sarif: Value = serde_json::from_str(&toolgate::testing::report::render_lint(
        &report,
        Format::Sarif,
    ))
    .unwrap();
    let driver = &mut sarif["runs"][0]["tool"]["driver"];
    driver["version"] = json!("[version]");
    driver["semanticVersion"] = json!("[version]");
    driver["rules"] = json!(driver["rules"].as_array().map(|r| r.len()));
    insta::assert_json_snapshot!("format-sarif", sarif);
}

/// The look-alike benchmark (fixtures/lookalike/, `cargo run --example lookalike_bench`):
/// TG005 and TG006 find every labelled look-alike pair with precision of at least 0.8.
#[test]
fn lookalike_benchmark_precision_and_recall() {
    use crate::lookalike_bench::{Score, run};
    let scores = run(Path::new("fixtures/lookalike")).expect("benchmark catalogs load");
    assert!(scores.len() >= 7, "catalogs: {}", scores.len());
    let (mut t5, mut t6) = (Score::default(), Score::default());
    // The held-out set is reported by the bench, not held to the bar (it was never tuned on).
    for s in scores.iter().filter(|s| !s.path.contains("heldout")) {
        t5.add(s.tg005);
        t6.add(s.tg006);
    }
    assert!(t5.true_pos >= 25, "labelled pairs found: {t5:?}");
    for (code, s) in [("TG005", t5), ("TG006", t6)] {
        assert_eq!(s.recall(), 1.0, "{code} recall: {s:?} {scores:#?}");
        assert!(s.precision() >= 0.8, "{code} precision: {s:?} {scores:#?}");
    }
}

/// Issue 40: the held-out corpus (fixtures/lint-heldout: 48 real servers no rule was tuned
/// on, every warning/error finding labelled once): an error is near-certain (precision ≥ 0.97
/// per rule), a warning right at least 9 times in 10, and no server fails on a false error. A
/// rule change that reports something new there fails here until its findings are labelled (a
/// label is never changed to suit a rule); one that lowers precision is a regression.
#[test]
fn held_out_precision_holds_every_level() {
    use crate::precision_bench::{read_labels, run};
    use toolgate::testing::lint::Severity;
    let labels = read_labels(Path::new("fixtures/lint-heldout/labels.json")).expect("labels load");
    let out = run(Path::new("fixtures/lint-heldout"), &labels).expect("catalogs lint");
    assert_eq!(out.catalogs, 48);
    assert!(
        out.unlabelled.is_empty(),
        "unlabelled held-out findings (label each once in fixtures/lint-heldout/labels.json): {:#?}",
        out.unlabelled
    );
    for ((code, level), s) in &out.per_level {
        let bar = if *level == Severity::Error { 0.97 } else { 0.9 };
        assert!(
            s.precision() >= bar,
            "{code} at {} precision {:.3} on the held-out corpus (bar {bar}): {s:?}; wrong: {:#?}",
            level.as_str(),
            s.precision(),
            out.wrong
                .iter()
                .filter(|(w, _)| &w.key.code == code)
                .collect::<Vec<_>>()
        );
    }
    assert!(
        out.false_errors.is_empty(),
        "servers failing on a false error: {:?}",
        out.false_errors
    );
}

/// The lint precision corpus (fixtures/lint-corpus, `cargo run --example lint_precision`):
/// every warning/error finding on the 35 ecosystem catalogs is labelled (a rule that starts
/// reporting something new must be reviewed), no label is stale, every rule reaches precision
/// 0.9, and the known misses (missed.json) are still the only right findings lost.
#[test]
fn lint_precision_corpus_is_labelled_and_precise() {
    use crate::precision_bench::{read_labels, run};
    let labels = read_labels(Path::new("fixtures/lint-corpus/labels.json")).expect("labels load");
    let out = run(Path::new("fixtures/ecosystem"), &labels).expect("catalogs lint");
    assert_eq!(out.catalogs, 35);
    assert!(
        out.unlabelled.is_empty(),
        "unlabelled findings (review them into fixtures/lint-corpus/labels.json): {:#?}",
        out.unlabelled
    );
    assert!(out.stale.is_empty(), "stale labels: {:#?}", out.stale);
    for (code, s) in &out.per_rule {
        assert!(
            s.precision() >= 0.9,
            "{code} precision {:.3}: {s:?}",
            s.precision()
        );
    }
    // False findings a fix removed stay removed.
    let fixed = read_labels(Path::new("fixtures/lint-corpus/fixed.json")).expect("fixed loads");
    let again = run(Path::new("fixtures/ecosystem"), &fixed).expect("catalogs lint");
    let back: usize = again.per_rule.values().map(|s| s.right + s.wrong).sum();
    assert_eq!(back, 0, "fixed false findings are back: {:#?}", again.wrong);
    // Right findings known to be missed (the corpus's recall loss) are still missed: one found
    // again goes back to labels.json.
    let missed = read_labels(Path::new("fixtures/lint-corpus/missed.json")).expect("missed loads");
    let again = run(Path::new("fixtures/ecosystem"), &missed).expect("catalogs lint");
    let found: usize = again.per_rule.values().map(|s| s.right).sum();
    assert_eq!(
        found, 0,
        "missed.json lists findings the rules report again"
    );
    // The planted synonym pair is found among a real server's tools.
    let mut cat: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("fixtures/ecosystem/github.json").expect("github catalog"),
    )
    .expect("json");
    let planted = serde_json::json!([
        {"name": "count_orders", "description": "Count the orders placed by a customer in a date range and return the number.",
         "inputSchema": {"type": "object", "properties": {"customer_id": {"type": "string", "description": "Customer id"}}}},
        {"name": "tally_orders", "description": "Tally the orders placed by a customer in a date range and return the number.",
         "inputSchema": {"type": "object", "properties": {"customer_id": {"type": "string", "description": "Customer id"}}}}
    ]);
    let tools = cat["tools"].as_array_mut().expect("tools");
    tools.extend(planted.as_array().expect("array").iter().cloned());
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("planted.json");
    std::fs::write(&path, cat.to_string()).expect("write");
    let catalog = toolgate::testing::catalog::snapshot::read(&path).expect("snapshot");
    let found =
        toolgate::testing::lint::run(&catalog, &toolgate::testing::lint::LintSettings::default());
    assert!(
        found.iter().any(|f| f.code == "TG005"
            && f.tool.as_deref() == Some("tally_orders")
            && f.message.contains("`count_orders`")),
        "planted synonym pair missed"
    );
}

/// Issue 40: look-alike twins planted in a copy of a real catalog (gitlab-community, 65 tools;
/// fixtures/planted/) are all found, and the tools that were there already pair exactly as in
/// the original: nothing new on unplanted tools.
#[test]
fn planted_lookalike_twins_are_found_and_nothing_else_changes() {
    use std::collections::BTreeSet;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pairs = |path: &Path| -> BTreeSet<(String, String)> {
        let catalog = snapshot::read(path).unwrap();
        let settings = LintSettings::default();
        let cx = toolgate::testing::lint::Context::new(&catalog, &settings);
        cx.lookalikes()
            .iter()
            .map(|p| {
                let (a, b) = (catalog.tools[p.a].name(), catalog.tools[p.b].name());
                (a.min(b).to_string(), a.max(b).to_string())
            })
            .collect()
    };
    let meta: Value = serde_json::from_str(
        &std::fs::read_to_string(
            dir.join("fixtures/planted/gitlab-community-lookalikes.pairs.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let planted_tools: BTreeSet<String> = meta["planted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[1].as_str().unwrap().to_string())
        .collect();
    let found = pairs(&dir.join("fixtures/planted/gitlab-community-lookalikes.json"));
    for p in meta["planted"].as_array().unwrap() {
        let (a, b) = (p[0].as_str().unwrap(), p[1].as_str().unwrap());
        let key = (a.min(b).to_string(), a.max(b).to_string());
        assert!(
            found.contains(&key),
            "planted pair {a} / {b} missed: {found:?}"
        );
    }
    let unplanted: BTreeSet<_> = found
        .iter()
        .filter(|(a, b)| !planted_tools.contains(a) && !planted_tools.contains(b))
        .cloned()
        .collect();
    let base = pairs(&dir.join(meta["base"].as_str().unwrap()));
    assert_eq!(unplanted, base, "pairs among the original tools changed");
    assert_eq!(planted_tools.len(), 5);
}

/// Issue 40: a server that closes every description with the same paragraph (gitlab's "Use
/// this for a collection of resources; choose the corresponding get tool …") does not make its
/// tools look alike, and "to-do items" names the object of `list_todos`.
#[test]
fn shared_boilerplate_and_hyphenated_objects_make_no_look_alikes() {
    let boiler = "Use this for a collection of resources; choose the corresponding get tool when you already know the single resource to inspect. It is read-only and does not mutate data; missing resources, invalid identifiers, insufficient permission, and rate limits are returned as errors.";
    let objects = [
        ("list_todos", "List to-do items for the current user."),
        (
            "list_projects",
            "List projects accessible by the current user.",
        ),
        (
            "list_commits",
            "List repository commits with filtering options.",
        ),
        ("list_labels", "List labels for a project."),
        ("list_branches", "List branches in a project."),
        (
            "list_namespaces",
            "List namespaces available to the current user.",
        ),
        ("list_members", "List members of a project."),
        ("list_pipelines", "List pipelines of a project."),
        ("list_milestones", "List milestones of a project."),
        ("list_releases", "List releases of a project."),
    ];
    let tools: Vec<Value> = objects
        .iter()
        .map(|(n, d)| json!({"name": n, "description": format!("{d} {boiler}"), "inputSchema": {"type": "object"}}))
        .collect();
    let catalog = toolgate::testing::catalog::Catalog {
        tools: tools
            .into_iter()
            .map(|t| toolgate::testing::catalog::Tool::from_value(t, "t").unwrap())
            .collect(),
        ..Default::default()
    };
    let found: Vec<_> = lint::run(&catalog, &LintSettings::default())
        .into_iter()
        .filter(|f| f.code == "TG005")
        .map(|f| (f.tool, f.pair))
        .collect();
    assert!(found.is_empty(), "{found:?}");
}

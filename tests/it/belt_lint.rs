//! The belt lint across servers (`lint --mcp-config`): tool shadowing (TG029) and cross-server
//! look-alikes (TG028) on the fixture belt (fixtures/belts/shadowing), named by both servers;
//! what the 35 real servers of the ecosystem belt give; TG022's context budgets in every
//! output; SARIF pointing at each server's section of the belt lock, valid SARIF 2.1.0.

use std::path::Path;

use crate::common::{fixture, third_party, toolgate};
use serde_json::{Value, json};
use toolgate::testing::catalog::{Catalog, snapshot};
use toolgate::testing::lint::{LintSettings, Severity, belt};

/// A folder with the fixture belt's config (absolute paths) and a low token budget.
fn belt_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let servers: serde_json::Map<String, Value> = ["github", "tracker", "notes"]
        .iter()
        .map(|n| {
            let snap = fixture(&format!("belts/shadowing/{n}.json"));
            let cmd = json!({"command": "python3", "args": [fixture("servers/fakemcp.py"), snap]});
            (n.to_string(), cmd)
        })
        .collect();
    let cfg = json!({ "mcpServers": servers });
    std::fs::write(dir.path().join("mcp.json"), cfg.to_string()).unwrap();
    std::fs::write(
        dir.path().join("toolgate.toml"),
        "[lint]\nmax_catalog_tokens = 100\n",
    )
    .unwrap();
    dir
}

fn findings<'a>(report: &'a Value, code: &str) -> Vec<&'a Value> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == code)
        .collect()
}

fn related(f: &Value) -> Vec<&str> {
    f["related"]
        .as_array()
        .map(|r| r.iter().map(|x| x["key"].as_str().unwrap()).collect())
        .unwrap_or_default()
}

#[test]
fn the_fixture_belt_reports_shadowing_and_look_alikes_naming_both_servers() {
    // Run from the fixture's own folder: its mcp.json uses relative paths.
    let out = toolgate()
        .current_dir(fixture("belts/shadowing"))
        .args(["lint", "--mcp-config", "mcp.json", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let shadow = findings(&report, "TG029");
    let error = shadow
        .iter()
        .find(|f| f["tool"] == "tracker/open_ticket")
        .expect("open_ticket shadows github");
    assert_eq!(error["severity"], "error");
    let m = error["message"].as_str().unwrap();
    assert!(
        m.contains("`tracker/open_ticket`")
            && m.contains("`github/create_issue` of server `github`"),
        "{m}"
    );
    assert_eq!(related(error), ["github/create_issue", "github"]);
    let warning = shadow
        .iter()
        .find(|f| f["tool"] == "tracker/find_tickets")
        .expect("find_tickets prefers itself");
    assert_eq!(warning["severity"], "warning");
    // Each server's own TG029 is replaced by the belt's: one finding per tool.
    assert_eq!(shadow.len(), 2, "{shadow:#?}");

    let alike = findings(&report, "TG028");
    assert_eq!(alike.len(), 1, "{alike:#?}");
    assert_eq!(alike[0]["tool"], "tracker/file_issue");
    assert_eq!(related(alike[0]), ["github/create_issue"]);
    let m = alike[0]["message"].as_str().unwrap();
    assert!(
        m.contains("`tracker/file_issue` looks like `github/create_issue`"),
        "{m}"
    );

    // The clean server is in no cross-server finding.
    for f in shadow.iter().chain(&alike) {
        assert!(!f["tool"].as_str().unwrap().starts_with("notes/"), "{f}");
        assert!(related(f).iter().all(|k| !k.starts_with("notes")), "{f}");
    }
}

fn ecosystem() -> Vec<(String, Catalog)> {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("ecosystem/manifest.json")).unwrap())
            .unwrap();
    manifest["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let name = s["name"].as_str().unwrap().to_string();
            let cat =
                snapshot::read(Path::new(&fixture(&format!("ecosystem/{name}.json")))).unwrap();
            (name, cat)
        })
        .collect()
}

#[test]
fn the_ecosystem_belt_has_no_shadowing_and_few_real_look_alikes() {
    let eco = ecosystem();
    assert_eq!(eco.len(), 35);
    let servers: Vec<(&str, &Catalog)> = eco.iter().map(|(n, c)| (n.as_str(), c)).collect();
    let found = belt::across(&servers, &LintSettings::default());
    let shadow: Vec<_> = found.iter().filter(|f| f.code == "TG029").collect();
    assert!(
        shadow.is_empty(),
        "no real server shadows another: {shadow:#?}"
    );
    let alike: Vec<_> = found.iter().filter(|f| f.code == "TG028").collect();
    // Read and judged by hand (see the report): GitHub's `add_issue_comment` does not say it is
    // GitHub's, next to Jira's `jira_add_comment`.
    assert!(
        alike
            .iter()
            .any(|f| f.tool.as_deref() == Some("github/add_issue_comment")
                && f.related == ["atlassian/jira_add_comment"]),
        "{alike:#?}"
    );
    for f in &alike {
        let (a, b) = (f.tool.as_deref().unwrap(), f.related[0].as_str());
        assert_ne!(
            a.split('/').next(),
            b.split('/').next(),
            "one server: {f:?}"
        );
    }
    assert!(alike.len() <= 10, "{alike:#?}");
    // Same names on two servers stay TG001's.
    assert!(found.iter().any(|f| f.code == "TG001"
        && f.tool.as_deref() == Some("github/create_issue")
        && f.related == ["gitlab/create_issue"]));
}

#[test]
fn a_tool_that_says_its_service_is_not_a_cross_server_look_alike() {
    let cat = |name: &str, desc: &str| -> Catalog {
        let v = json!({"tools": [{"name": name, "description": desc}]});
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s.json");
        std::fs::write(&p, v.to_string()).unwrap();
        snapshot::read(&p).unwrap()
    };
    let a = cat("file_issue", "Create a new issue with a title and a body.");
    let b = cat("open_issue", "Create a new issue with a title and a body.");
    let s = LintSettings::default();
    let f = belt::lookalikes(&[("gitlab", &a), ("github", &b)], &s);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].severity, Severity::Warning);
    // One side says which service: the finding is about the other.
    let b = cat(
        "open_issue",
        "Create a new issue in a GitHub repository with a title and a body.",
    );
    let f = belt::lookalikes(&[("gitlab", &a), ("github", &b)], &s);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].tool.as_deref(), Some("gitlab/file_issue"));
    // Both do: nothing to report.
    let a = cat(
        "file_issue",
        "Create a new issue in a GitLab project with a title and a body.",
    );
    assert!(belt::lookalikes(&[("gitlab", &a), ("github", &b)], &s).is_empty());
}

#[test]
fn sarif_points_at_each_servers_section_of_the_belt_lock_and_budgets_are_in_every_output() {
    let dir = belt_dir();
    let run = |args: &[&str]| {
        toolgate()
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap()
    };
    let o = run(&["pin", "--mcp-config", "mcp.json"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let o = run(&[
        "lint",
        "--mcp-config",
        "mcp.json",
        "--output-sarif",
        "out.sarif",
        "--output-markdown",
        "out.md",
    ]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let terminal = String::from_utf8_lossy(&o.stdout).to_string();
    let markdown = std::fs::read_to_string(dir.path().join("out.md")).unwrap();
    let sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out.sarif")).unwrap())
            .unwrap();
    // TG022: the belt's total, each server's share, and common context windows.
    let budget = "cost 464 tokens (o200k_base) together";
    assert!(terminal.contains(budget), "{terminal}");
    assert!(
        terminal.contains("6% of an 8k context (leaving 7,728)"),
        "{terminal}"
    );
    assert!(
        terminal.contains("tracker 180 (39%), github 172 (37%), notes 112 (24%)"),
        "{terminal}"
    );
    assert!(
        markdown.contains("cost 464 tokens \\(o200k\\_base\\) together"),
        "{markdown}"
    );
    assert!(markdown.contains("of a 200k context"), "{markdown}");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let tg022 = results
        .iter()
        .find(|r| r["message"]["text"].as_str().unwrap().contains(budget))
        .expect("the belt's TG022 in SARIF");
    assert!(
        tg022["message"]["text"]
            .as_str()
            .unwrap()
            .contains("of a 128k context")
    );

    valid_sarif(&sarif);
    let lock = std::fs::read_to_string(dir.path().join("toolgate.lock")).unwrap();
    let lines: Vec<&str> = lock.lines().collect();
    // The server whose section of the lock holds line `n` (1-based): the last `    "name": {`
    // at the servers' indent before it.
    let section = |n: usize| -> String {
        lines[..n]
            .iter()
            .rev()
            .find_map(|l| {
                l.strip_prefix("    \"")
                    .and_then(|r| r.strip_suffix("\": {"))
                    .map(str::to_string)
            })
            .unwrap_or_default()
    };
    let servers_of = |r: &Value| -> Vec<(String, String)> {
        r["locations"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|l| {
                let p = &l["physicalLocation"];
                let uri = p["artifactLocation"]["uri"].as_str()?;
                assert!(uri.ends_with("toolgate.lock"), "{uri}");
                let line = p["region"]["startLine"].as_u64()? as usize;
                Some((
                    l["logicalLocations"][0]["name"].as_str()?.to_string(),
                    section(line),
                ))
            })
            .collect()
    };
    let shadow = results
        .iter()
        .find(|r| r["ruleId"] == "TG029" && r["level"] == "error")
        .unwrap();
    assert_eq!(
        servers_of(shadow),
        [
            ("tracker/open_ticket".to_string(), "tracker".to_string()),
            ("github/create_issue".to_string(), "github".to_string()),
            ("github".to_string(), "github".to_string()),
        ]
    );
    assert_eq!(shadow["relatedLocations"].as_array().unwrap().len(), 2);
    let alike = results.iter().find(|r| r["ruleId"] == "TG028").unwrap();
    let at = servers_of(alike);
    assert_eq!(at.len(), 2);
    assert_eq!((at[0].1.as_str(), at[1].1.as_str()), ("tracker", "github"));
    // The related tool's line is its description in github's section.
    let line = alike["locations"][1]["physicalLocation"]["region"]["startLine"]
        .as_u64()
        .unwrap() as usize;
    assert!(
        lines[line - 1].contains("Create a new issue"),
        "{}",
        lines[line - 1]
    );
    // The belt's budget points at all three sections.
    let mut sections: Vec<String> = servers_of(tg022).into_iter().map(|s| s.1).collect();
    sections.sort();
    assert_eq!(sections, ["github", "notes", "tracker"]);
}

/// Validates against the official SARIF 2.1.0 schema (the npm package `.ci/run` installs).
fn valid_sarif(s: &Value) {
    let text = std::fs::read_to_string(third_party(
        "npm/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json",
    ))
    .unwrap();
    // The published rtm.5 schema's `language` pattern has an unbalanced `]` (see tests/cli.rs).
    let schema: Value = serde_json::from_str(&text.replace(
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
        "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
    ))
    .unwrap();
    let validator = jsonschema::validator_for(&schema).expect("SARIF schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(s)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "SARIF is not valid 2.1.0: {errors:#?}");
}

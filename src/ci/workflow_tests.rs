//! Tests of `workflow`.

use serde_json::{Value, json};

use super::*;
use crate::ci::templates::comment_workflow_text;

fn yaml(w: &str) -> Value {
    serde_yaml_ng::from_str(w).unwrap_or_else(|e| panic!("{e}\n{w}"))
}

fn step_named<'a>(job: &'a Value, name: &str) -> &'a Value {
    job["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"].as_str().is_some_and(|n| n.starts_with(name)))
        .unwrap_or_else(|| panic!("no step {name}: {job:#}"))
}

#[test]
fn the_workflow_has_expressions_intact() {
    let w = workflow_text(&WorkflowOptions::default());
    let pinned = workflow_text(&WorkflowOptions {
        action_ref: Some("me/toolgate@0123456789abcdef0123456789abcdef01234567"),
        ..Default::default()
    });
    assert!(pinned.contains("uses: me/toolgate@0123456789abcdef0123456789abcdef01234567\n"));
    // The evaluation runs the pull request's code: read-only, and no comment from it.
    assert!(
        w.contains("comment: false") && !w.contains("pull-requests: write"),
        "{w}"
    );
    assert!(w.contains(ACTION_REF));
    let c = comment_workflow_text(None);
    assert!(c.contains("${{ github.event.workflow_run.id }}"), "{c}");
    assert!(
        c.contains("pull-requests: write") && !c.contains("actions/checkout"),
        "{c}"
    );
    assert!(
        c.contains("comment-from: ${{ runner.temp }}/toolgate-artifact"),
        "{c}"
    );
    assert!(!w.contains("shard") && !w.contains("badge:"));
}

#[test]
fn the_default_branch_makes_the_base_that_pull_requests_download() {
    let w = workflow_text(&WorkflowOptions {
        default_branch: "master".into(),
        publish_badge: true,
        ..Default::default()
    });
    let y = yaml(&w);
    assert_eq!(y["on"]["push"]["branches"], json!(["master"]));
    assert!(
        y["jobs"]["badge"]["if"]
            .as_str()
            .unwrap()
            .contains("refs/heads/master")
    );
    let job = &y["jobs"]["toolgate"];
    assert_eq!(job["permissions"]["actions"], "read");
    let base = step_named(job, "the base branch's last run");
    let run = base["run"].as_str().unwrap();
    // Only the default branch's own pushes, never a pull request's run, and into the folder
    // toolgate.toml names as `base`.
    assert!(run.contains("--event push") && run.contains("--status success"));
    assert!(run.contains("--name toolgate --dir toolgate-base"), "{run}");
    assert_eq!(
        base["env"]["BRANCH"],
        "${{ github.base_ref || github.ref_name }}"
    );
    // Every run uploads its output as `toolgate`: the artefact later runs download.
    let upload = job["steps"].as_array().unwrap().last().unwrap();
    assert_eq!(upload["with"]["name"], "toolgate");
    assert_eq!(upload["with"]["path"], "toolgate-out");
    assert_eq!(upload["if"], "always()");
}

#[test]
fn a_server_that_needs_the_runner_is_prepared_and_gated_there() {
    let prepare = Prepare {
        steps: "      - name: build the server\n        run: npm run build\n".into(),
        on_runner: true,
        log: Some("cat toolgate-server.log".into()),
        ..Default::default()
    };
    let w = workflow_text(&WorkflowOptions {
        prepare: prepare.clone(),
        ..Default::default()
    });
    let y = yaml(&w);
    let steps = y["jobs"]["toolgate"]["steps"].as_array().unwrap();
    let names: Vec<&str> = steps
        .iter()
        .map(|s| {
            s["name"]
                .as_str()
                .or(s["uses"].as_str())
                .unwrap_or_default()
        })
        .collect();
    let at = |p: &str| {
        names
            .iter()
            .position(|n| n.starts_with(p))
            .unwrap_or_else(|| panic!("{p} not in {names:?}"))
    };
    assert!(at("actions/checkout") < at("build the server"));
    assert!(at("build the server") < at("toolgate ci"));
    assert!(at("toolgate-dev/toolgate/setup@v1") < at("toolgate ci"));
    let gate = step_named(&y["jobs"]["toolgate"], "toolgate ci");
    assert_eq!(gate["run"], "toolgate ci");
    assert_eq!(gate["env"]["TOOLGATE_COMMENT"], "false");
    assert_eq!(
        step_named(&y["jobs"]["toolgate"], "the server's log")["if"],
        "failure()"
    );
    // The container action is not used where the server needs the runner.
    assert!(!w.contains("uses: toolgate-dev/toolgate@v1"), "{w}");
    // A pinned action pins its setup action to the same commit.
    let sha = "0123456789abcdef0123456789abcdef01234567";
    let pinned = workflow_text(&WorkflowOptions {
        action_ref: Some(&format!("me/toolgate@{sha}")),
        prepare,
        shards: Some(2),
        ..Default::default()
    });
    assert!(
        pinned.contains(&format!("uses: me/toolgate/setup@{sha}\n")),
        "{pinned}"
    );
    let y = yaml(&pinned);
    let eval = &y["jobs"]["evaluate"];
    assert!(step_named(eval, "build the server")["run"] == "npm run build");
    assert_eq!(
        step_named(eval, "toolgate ci")["env"]["TOOLGATE_SHARD"],
        "${{ matrix.shard }}/2"
    );
}

#[test]
fn the_sharded_workflow_fans_in() {
    let w = workflow_text(&WorkflowOptions {
        shards: Some(4),
        publish_badge: true,
        ..Default::default()
    });
    let y = yaml(&w);
    let jobs = &y["jobs"];
    assert_eq!(
        jobs["evaluate"]["strategy"]["matrix"]["shard"],
        json!([1, 2, 3, 4])
    );
    assert_eq!(
        jobs["evaluate"]["steps"][1]["with"]["shard"],
        "${{ matrix.shard }}/4"
    );
    assert_eq!(jobs["toolgate"]["needs"], "evaluate");
    assert_eq!(
        jobs["toolgate"]["steps"][3]["with"]["merge"],
        "toolgate-shards"
    );
    assert_eq!(jobs["badge"]["permissions"]["contents"], "write");
    assert_eq!(jobs["toolgate"]["permissions"]["contents"], "read");
    assert_eq!(y["permissions"], json!({}));
}

//! Tests of `templates`.

use super::*;

#[test]
fn the_starter_config_is_valid() {
    for (server, tasks) in [
        (None, None),
        (Some("python3 \"my server.py\""), None),
        (Some("node dist/index.js"), Some("my \"tasks\".jsonl")),
    ] {
        let text = config_text(server, tasks);
        let c: crate::config::Config = toml::from_str(&text).unwrap();
        assert_eq!(
            c.ci.tasks.as_deref().and_then(|p| p.to_str()),
            tasks,
            "{text}"
        );
        // Without --server the server is a commented placeholder, never someone else's.
        assert_eq!(c.server.is_some(), server.is_some(), "{text}");
        assert_eq!(c.ci.models.as_deref(), Some(&["bm25".to_string()][..]));
        assert_eq!(c.ci.lock_check, Some(crate::gate::LockCheck::Fail));
    }
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
fn the_sharded_workflow_fans_in() {
    let w = workflow_text(&WorkflowOptions {
        shards: Some(4),
        publish_badge: true,
        ..Default::default()
    });
    let y: serde_json::Value = serde_yaml_ng::from_str(&w).unwrap();
    let jobs = &y["jobs"];
    assert_eq!(
        jobs["evaluate"]["strategy"]["matrix"]["shard"],
        serde_json::json!([1, 2, 3, 4])
    );
    assert_eq!(
        jobs["evaluate"]["steps"][1]["with"]["shard"],
        "${{ matrix.shard }}/4"
    );
    assert_eq!(jobs["toolgate"]["needs"], "evaluate");
    assert_eq!(
        jobs["toolgate"]["steps"][2]["with"]["merge"],
        "toolgate-shards"
    );
    assert_eq!(jobs["badge"]["permissions"]["contents"], "write");
    assert_eq!(jobs["toolgate"]["permissions"]["contents"], "read");
    assert_eq!(y["permissions"], serde_json::json!({}));
}

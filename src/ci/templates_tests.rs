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

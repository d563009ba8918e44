//! Helpers shared by the lint rules (not a rule): schema walking, local `$ref` resolution,
//! destructive-verb detection, free-text parameter detection and message formatting, each in
//! its own file under `common/` and re-exported here.

mod format;
mod refs;
mod schema;
mod verbs;

pub(crate) use format::{is_hidden, plural, quote, shown_name, shown_pair, thousands, ticked};
pub(crate) use refs::{local_fragment, resolve_fragment, resolve_ref};
pub(crate) use schema::{
    declared_type, has_description, is_free_text, join, properties, subschemas, tool_texts,
};
pub(crate) use verbs::{LOOKING_WORDS, destructive_verb};

#[cfg(test)]
use crate::catalog::Tool;
#[cfg(test)]
use serde_json::Value;

/// Runs one rule over a catalog made of `tools` (test helper).
#[cfg(test)]
pub(crate) fn lint_tools(rule: &crate::lint::Rule, tools: Vec<Value>) -> Vec<crate::lint::Finding> {
    lint_tools_with(rule, tools, &crate::lint::LintSettings::default())
}

/// Runs one rule over a catalog made of `tools` with `settings` (test helper).
#[cfg(test)]
pub(crate) fn lint_tools_with(
    rule: &crate::lint::Rule,
    tools: Vec<Value>,
    settings: &crate::lint::LintSettings,
) -> Vec<crate::lint::Finding> {
    let cat = crate::catalog::Catalog {
        tools: tools
            .into_iter()
            .enumerate()
            .map(|(i, v)| Tool::from_value(v, &format!("tools[{i}]")).unwrap())
            .collect(),
        ..Default::default()
    };
    let cx = crate::lint::Context::new(&cat, settings);
    let mut out = Vec::new();
    (rule.check)(&cx, &mut out);
    out
}

/// Runs one rule over `cat` with default settings (test helper).
#[cfg(test)]
pub(crate) fn lint_catalog(
    rule: &crate::lint::Rule,
    cat: &crate::catalog::Catalog,
) -> Vec<crate::lint::Finding> {
    let settings = crate::lint::LintSettings::default();
    let cx = crate::lint::Context::new(cat, &settings);
    let mut out = Vec::new();
    (rule.check)(&cx, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn walks_nested_schemas_with_pointers() {
        let s = json!({"type": "object", "properties": {
            "a/b": {"type": "array", "items": {"type": "object", "properties": {"c": {}}}},
            "d": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/x"}]}},
            "$defs": {"x": {"type": "null"}}});
        let ptrs: Vec<String> = subschemas(&s, "/inputSchema")
            .into_iter()
            .map(|p| p.0)
            .collect();
        assert!(ptrs.contains(&"/inputSchema/properties/a~1b/items/properties/c".to_string()));
        assert!(ptrs.contains(&"/inputSchema/properties/d/anyOf/1".to_string()));
        assert!(ptrs.contains(&"/inputSchema/$defs/x".to_string()));
        let props = properties(&s, "/inputSchema");
        assert_eq!(props.iter().filter(|p| p.top_level).count(), 2);
        assert_eq!(props.len(), 3);
        assert_eq!(
            resolve_ref(&s, "#/$defs/x").map(|r| r.0),
            Some("/$defs/x".to_string())
        );
        assert!(resolve_ref(&s, "#/$defs/y").is_none());
        assert!(resolve_ref(&s, "other.json#/x").is_none());
    }

    #[test]
    fn detects_destructive_verbs() {
        let t = |v| Tool::from_value(v, "t").unwrap();
        let named = t(json!({"name": "delete_user"}));
        assert_eq!(destructive_verb(&named), Some("delete"));
        let described = t(json!({"name": "users", "description": "Permanently removes a user."}));
        assert_eq!(destructive_verb(&described), Some("remove"));
        let harmless = t(json!({"name": "list_deleted", "description": "Lists deleted users."}));
        assert_eq!(destructive_verb(&harmless), None);
        // Switching off a setting destroys nothing; switching off an account does.
        let setting = t(json!({"name": "disable_telemetry", "description": "Disable telemetry."}));
        assert_eq!(destructive_verb(&setting), None);
        let account = t(json!({"name": "disable_user", "description": "Disable a user account."}));
        assert_eq!(destructive_verb(&account), Some("disable"));
        assert_eq!(thousands(1234567), "1,234,567");
    }
}

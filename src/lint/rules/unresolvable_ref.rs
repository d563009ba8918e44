//! ## What it checks
//! A `$ref` in a tool's `inputSchema` or `outputSchema` that cannot be followed inside that
//! schema: a local reference (`#/$defs/x`, `#/definitions/x`, `#anchor`) pointing at nothing; a
//! remote or relative reference (`https://…`, `common.json#/x`), which no host fetches; a
//! `$ref` that is not a string; or a circular chain made only of `$ref` hops (`a → b → a`, or
//! a root `{"$ref": "#"}`), which never reaches an actual schema. Recursion through
//! `properties` or `items` (a tree whose children are `{"$ref": "#"}`) is legitimate and not
//! reported.
//!
//! ## Why it matters
//! Hosts inline or strip references before the model sees a tool; one they cannot resolve
//! becomes an empty schema (the model fills the argument with anything) or makes the host
//! reject the tool. A circular chain sends validators and schema converters into a loop or a
//! stack overflow. Either way the model no longer sees what the argument must look like.
//!
//! ## Example
//! ```json
//! {"name": "create_order", "description": "Create an order for a customer.",
//!  "inputSchema": {"type": "object",
//!                  "properties": {"address": {"$ref": "#/$defs/Address"}}}}
//! ```
//!
//! ## How to fix
//! Put every referenced schema under `$defs` in the same schema and reference it as
//! `#/$defs/Name`, or inline it. Replace remote references with a local copy. Break `$ref`-only
//! cycles by pointing at a schema that actually describes the value.

use serde_json::Value;

use super::common::{local_fragment, quote, resolve_fragment, subschemas};
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};

pub(crate) const RULE: Rule = Rule {
    code: "TG011",
    slug: "unresolvable-ref",
    severity: Severity::Error,
    summary: "A schema `$ref` cannot be resolved, is remote, or loops.",
    doc: rule_doc!("unresolvable_ref"),
    check,
    scope: Scope::Catalog,
};

/// Longest `$ref` chain followed before giving up.
const MAX_HOPS: usize = 64;

enum Chain {
    /// Reaches a schema that is not itself a reference (or a dangling one, reported on its own).
    Ends,
    /// Comes back to a node already on the chain: the pointers of the loop.
    Cycle(Vec<String>),
    TooLong,
}

/// Follows `$ref` hops from the node at `start` (whose `$ref` is `first`). Each hop applies the
/// target to the same value, so returning to a node on the chain is an endless loop.
fn follow(root: &Value, start: &str, first: &str) -> Chain {
    let mut chain = vec![start.to_string()];
    let mut reference = first.to_string();
    for _ in 0..MAX_HOPS {
        let Some(frag) = local_fragment(root, &reference) else {
            return Chain::Ends;
        };
        let Some((ptr, target)) = resolve_fragment(root, &frag) else {
            return Chain::Ends;
        };
        if let Some(pos) = chain.iter().position(|p| *p == ptr) {
            return Chain::Cycle(chain[pos..].to_vec());
        }
        let Some(next) = target.get("$ref").and_then(Value::as_str) else {
            return Chain::Ends;
        };
        chain.push(ptr);
        reference = next.to_string();
    }
    Chain::TooLong
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (i, tool) in cx.tools() {
        for key in ["inputSchema", "outputSchema"] {
            let Some(root) = tool.raw.get(key).filter(|s| s.is_object()) else {
                continue;
            };
            let mut reported_cycles: Vec<Vec<String>> = Vec::new();
            for (rel, node) in subschemas(root, "") {
                let Some(r) = node.get("$ref") else { continue };
                let at = format!("/{key}{rel}/$ref");
                let name = tool.name();
                let Some(r) = r.as_str() else {
                    out.push(cx.finding(
                        &RULE,
                        Some(i),
                        &at,
                        format!(
                            "`{name}` {key} has a `$ref` that is not a string: {}",
                            quote(&r.to_string(), 60)
                        ),
                        "Make `$ref` a string such as \"#/$defs/Name\".",
                    ));
                    continue;
                };
                let shown = quote(r, 80);
                let Some(frag) = local_fragment(root, r) else {
                    out.push(cx.finding(
                        &RULE,
                        Some(i),
                        &at,
                        format!(
                            "`{name}` {key} has remote `$ref` `{shown}`; it is never fetched, and models and most hosts cannot resolve it"
                        ),
                        "Copy the referenced schema under `$defs` and reference it as \"#/$defs/Name\", or inline it.",
                    ));
                    continue;
                };
                if resolve_fragment(root, &frag).is_none() {
                    out.push(cx.finding(
                        &RULE,
                        Some(i),
                        &at,
                        format!("`{name}` {key} has `$ref` `{shown}`, which points at nothing in the schema"),
                        "Define the referenced schema under `$defs` in the same schema, or fix the reference.",
                    ));
                    continue;
                }
                match follow(root, &rel, r) {
                    Chain::Ends => {}
                    Chain::Cycle(members) => {
                        let mut key_set = members.clone();
                        key_set.sort();
                        if reported_cycles.contains(&key_set) {
                            continue;
                        }
                        reported_cycles.push(key_set);
                        let mut hops: Vec<String> = members.iter().map(|p| format!("#{p}")).collect();
                        hops.push(format!("#{}", members[0]));
                        out.push(cx.finding(
                            &RULE,
                            Some(i),
                            &at,
                            format!(
                                "`{name}` {key} has a circular $ref: {} never reaches an actual schema",
                                hops.join(" → ")
                            ),
                            "Point the `$ref` at a schema that describes the value; recursion should go through `properties` or `items`.",
                        ));
                    }
                    Chain::TooLong => out.push(cx.finding(
                        &RULE,
                        Some(i),
                        &at,
                        format!("`{name}` {key} has a `$ref` chain longer than {MAX_HOPS} hops starting at `{shown}`"),
                        "Point the `$ref` directly at the schema that describes the value.",
                    )),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::lint_tools;
    use super::*;
    use serde_json::json;

    #[test]
    fn fires_on_dangling_remote_and_circular_refs() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "t", "inputSchema": {"type": "object", "properties": {
                "a": {"$ref": "#/$defs/Missing"},
                "b": {"$ref": "https://example.com/schemas/address.json"},
                "c": {"$ref": "#/$defs/x"}},
                "$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"$ref": "#/$defs/x"}}}}),
            ],
        );
        assert_eq!(out.len(), 3, "{out:?}");
        assert!(out[0].message.contains("points at nothing"));
        assert!(out[1].message.contains("remote"));
        assert!(out[2].message.contains("circular"));

        let out = lint_tools(
            &RULE,
            vec![json!({"name": "t", "inputSchema": {"$ref": "#"}})],
        );
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].message.contains("circular"));
    }

    #[test]
    fn quiet_on_recursion_through_properties() {
        let out = lint_tools(
            &RULE,
            vec![
                json!({"name": "tree", "inputSchema": {"type": "object", "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#"}},
                "owner": {"$ref": "#/definitions/Person%20Ref"}},
                "definitions": {"Person Ref": {"type": "object"}}}}),
            ],
        );
        assert!(out.is_empty(), "{out:?}");
    }
}

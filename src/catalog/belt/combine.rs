//! Your server inside a belt: one catalog holding your tools under their own names (the names
//! your tasks use) and the belt's tools under host-style names, `<server>__<tool>` (the way
//! hosts such as Claude Code prefix MCP tools, so the model can tell where each comes from and
//! names stay valid function names for every provider: `[A-Za-z0-9_-]`, at most 64 bytes).
//! [`Combined::origin`] maps every name the model sees back to its server and tool.

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

use super::Belt;
use crate::catalog::{Catalog, canonical};
pub(crate) use crate::record::belt::Origin;

/// The longest tool name every provider accepts.
pub(crate) const MAX_NAME: usize = 64;

/// Your catalog with (part of) a belt's tools added.
#[derive(Clone, Debug)]
pub(crate) struct Combined {
    pub catalog: Catalog,
    /// The name your server goes by in reports.
    pub own: String,
    /// Name the model sees → where it came from, for every tool (yours included).
    pub origin: BTreeMap<String, Origin>,
    /// Belt servers left out, and why (e.g. the server under test itself is in the config).
    pub skipped: Vec<String>,
}

impl Combined {
    #[cfg(test)]
    /// The server a tool name belongs to, if it is in the combined catalog.
    pub(crate) fn server_of(&self, name: &str) -> Option<&str> {
        self.origin.get(name).map(|o| o.server.as_str())
    }

    #[cfg(test)]
    /// True when `name` is one of the belt's tools (not yours).
    pub(crate) fn is_foreign(&self, name: &str) -> bool {
        self.server_of(name).is_some_and(|s| s != self.own)
    }
}

/// Belt servers that are really the server under test (same canonical catalog, or the same
/// name as `own`): a config that lists your server too must not make it its own distractor.
pub(crate) fn same_as_own(own: &Catalog, own_name: &str, belt: &Belt) -> Vec<String> {
    let hash = canonical::catalog_hash(own);
    belt.servers
        .iter()
        .filter(|s| s.name == own_name || canonical::catalog_hash(&s.catalog) == hash)
        .map(|s| s.name.clone())
        .collect()
}

/// The belt's tools that can be distractors, as (server, tool), in belt order.
pub(crate) fn distractors(own: &Catalog, own_name: &str, belt: &Belt) -> Vec<(String, String)> {
    let skip = same_as_own(own, own_name, belt);
    belt.servers
        .iter()
        .filter(|s| !skip.contains(&s.name))
        .flat_map(|s| {
            s.catalog
                .tools
                .iter()
                .map(|t| (s.name.clone(), t.name().to_string()))
        })
        .collect()
}

/// Combines `own` (named `own_name` in reports) with the belt's tools that `keep(server, tool)`
/// accepts. Your tools come first, unchanged; then the belt's, in belt order.
pub(crate) fn combine(
    own: &Catalog,
    own_name: &str,
    belt: &Belt,
    keep: &dyn Fn(&str, &str) -> bool,
) -> Combined {
    let skip = same_as_own(own, own_name, belt);
    let mut catalog = Catalog {
        source: format!("{} + belt {}", own.source, belt.config),
        snapshot_path: None,
        server: own.server.clone(),
        instructions: own.instructions.clone(),
        tools: own.tools.clone(),
        notes: own.notes.clone(),
        relisting: None,
        list_hints: None,
        index: Default::default(),
        config_key: own.config_key.clone(),
    };
    let mut taken: HashSet<String> = own.tools.iter().map(|t| t.name().to_string()).collect();
    let mut origin = BTreeMap::new();
    for t in &own.tools {
        origin.insert(
            t.name().to_string(),
            Origin {
                server: own_name.to_string(),
                tool: t.name().to_string(),
            },
        );
    }
    for s in belt.servers.iter().filter(|s| !skip.contains(&s.name)) {
        for t in s.catalog.tools.iter().filter(|t| keep(&s.name, t.name())) {
            let name = unique(shown_name(&s.name, t.name()), &taken);
            taken.insert(name.clone());
            let mut tool = t.clone();
            tool.raw.insert("name".into(), Value::String(name.clone()));
            catalog.tools.push(tool);
            origin.insert(
                name,
                Origin {
                    server: s.name.clone(),
                    tool: t.name().to_string(),
                },
            );
        }
    }
    let skipped = skip
        .into_iter()
        .map(|s| format!("`{s}` (it is the server under test)"))
        .collect();
    Combined {
        catalog,
        own: own_name.to_string(),
        origin,
        skipped,
    }
}

/// `<server>__<tool>` with every byte outside `[A-Za-z0-9_-]` made `_`, cut to [`MAX_NAME`]
/// bytes with a short hash of the full name when longer.
pub(crate) fn shown_name(server: &str, tool: &str) -> String {
    let full = format!("{server}__{tool}");
    let clean: String = full
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.len() <= MAX_NAME {
        return clean;
    }
    let hash = canonical::sha256_hex(&full);
    format!("{}_{}", &clean[..MAX_NAME - 9], &hash[..8])
}

/// `name`, or `name_2`, `name_3`… (still within [`MAX_NAME`]) when taken.
fn unique(name: String, taken: &HashSet<String>) -> String {
    if !taken.contains(&name) {
        return name;
    }
    (2..)
        .map(|i| {
            let suffix = format!("_{i}");
            let room = MAX_NAME.saturating_sub(suffix.len()).min(name.len());
            format!("{}{suffix}", &name[..room])
        })
        .find(|n| !taken.contains(n))
        .unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Tool;
    use crate::catalog::belt::BeltServer;
    use serde_json::json;

    fn cat(names: &[&str]) -> Catalog {
        Catalog {
            tools: names
                .iter()
                .map(|n| Tool::from_value(json!({"name": n, "description": format!("{n}.")}), "t"))
                .collect::<Result<_, _>>()
                .unwrap(),
            ..Default::default()
        }
    }

    #[test]
    fn belt_tools_get_host_style_names_and_keep_their_origin() {
        let own = cat(&["search", "get"]);
        let belt = Belt {
            config: "b".into(),
            servers: vec![
                BeltServer {
                    name: "git.hub".into(),
                    catalog: cat(&["search", "create_issue"]),
                },
                BeltServer {
                    name: "me".into(),
                    catalog: own.clone(),
                },
            ],
        };
        let c = combine(&own, "mine", &belt, &|_, _| true);
        let names: Vec<&str> = c.catalog.tools.iter().map(|t| t.name()).collect();
        assert_eq!(
            names,
            ["search", "get", "git_hub__search", "git_hub__create_issue"]
        );
        assert_eq!(c.server_of("git_hub__search"), Some("git.hub"));
        assert_eq!(c.origin["git_hub__search"].tool, "search");
        assert!(c.is_foreign("git_hub__search") && !c.is_foreign("search"));
        assert_eq!(c.skipped.len(), 1, "{:?}", c.skipped);
        assert!(c.catalog.tool("git_hub__create_issue").is_some());
        let some = combine(&own, "mine", &belt, &|_, t| t == "search");
        assert_eq!(some.catalog.tools.len(), 3);
        assert_eq!(distractors(&own, "mine", &belt).len(), 2);
    }

    #[test]
    fn names_stay_valid_and_unique() {
        let long = "x".repeat(100);
        let n = shown_name("srv", &long);
        assert_eq!(n.len(), MAX_NAME);
        assert_ne!(n, shown_name("srv", &"x".repeat(101)));
        let taken: HashSet<String> = ["a__b".to_string()].into();
        assert_eq!(unique("a__b".into(), &taken), "a__b_2");
        let full = "y".repeat(MAX_NAME);
        let taken: HashSet<String> = [full.clone()].into();
        assert!(unique(full, &taken).len() <= MAX_NAME);
    }
}

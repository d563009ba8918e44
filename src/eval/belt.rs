//! Evaluating your server inside a belt (`--belt`): the run's catalog is yours plus the belt's
//! tools ([`crate::catalog::belt::combine`]); the run file records the belt and where every
//! foreign tool name came from, so scoring and `toolgate report DIR` can say which server's
//! tool took a task without the belt at hand.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalog::Catalog;
use crate::catalog::belt::Belt;
use crate::catalog::belt::combine::{Combined, Origin, combine};

/// What `run.json` keeps about the belt of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BeltInfo {
    /// What `--belt` named (`ecosystem`, a config, a lock, snapshots).
    pub spec: String,
    /// The name your server goes by in the reports.
    pub own: String,
    /// The belt's servers that were added, in order, with their tool counts.
    pub servers: Vec<BeltServerInfo>,
    /// Belt servers left out, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// Name the model saw → server and tool, for every tool that is not yours.
    pub origin: BTreeMap<String, Origin>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BeltServerInfo {
    pub name: String,
    pub tools: usize,
}

impl BeltInfo {
    /// The server of a tool name the model saw: its belt server, or yours.
    pub fn server_of<'a>(&'a self, name: &str) -> &'a str {
        self.origin
            .get(name)
            .map(|o| o.server.as_str())
            .unwrap_or(&self.own)
    }

    /// True when `name` is one of the belt's tools.
    pub fn is_foreign(&self, name: &str) -> bool {
        self.origin.contains_key(name)
    }

    /// Every tool the belt added.
    pub fn tool_count(&self) -> usize {
        self.origin.len()
    }
}

/// The name reports give the server under test: its `serverInfo.name`, else `yours`.
pub fn own_name(catalog: &Catalog) -> String {
    catalog
        .server
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "yours".to_string())
}

/// Your catalog with every tool of the belt, and the record of it.
pub fn with_belt(own: &Catalog, belt: &Belt, spec: &str) -> (Combined, BeltInfo) {
    let name = own_name(own);
    let combined = combine(own, &name, belt, &|_, _| true);
    let info = info_of(&combined, spec);
    (combined, info)
}

/// The record of a combined catalog.
pub fn info_of(combined: &Combined, spec: &str) -> BeltInfo {
    let origin: BTreeMap<String, Origin> = combined
        .origin
        .iter()
        .filter(|(_, o)| o.server != combined.own)
        .map(|(k, o)| (k.clone(), o.clone()))
        .collect();
    let mut servers: Vec<BeltServerInfo> = Vec::new();
    // In catalog order (the belt's order), counted.
    for t in &combined.catalog.tools {
        let Some(o) = origin.get(t.name()) else {
            continue;
        };
        match servers.last_mut() {
            Some(s) if s.name == o.server => s.tools += 1,
            _ => servers.push(BeltServerInfo {
                name: o.server.clone(),
                tools: 1,
            }),
        }
    }
    BeltInfo {
        spec: spec.to_string(),
        own: combined.own.clone(),
        servers,
        skipped: combined.skipped.clone(),
        origin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Tool;
    use crate::catalog::belt::BeltServer;
    use serde_json::json;

    #[test]
    fn the_record_names_every_foreign_tool() {
        let tool = |n: &str| Tool::from_value(json!({"name": n}), "t").unwrap();
        let own = Catalog {
            tools: vec![tool("a")],
            ..Default::default()
        };
        let belt = Belt {
            config: "c".into(),
            servers: vec![
                BeltServer {
                    name: "s1".into(),
                    catalog: Catalog {
                        tools: vec![tool("a"), tool("b")],
                        ..Default::default()
                    },
                },
                BeltServer {
                    name: "s2".into(),
                    catalog: Catalog {
                        tools: vec![tool("c")],
                        ..Default::default()
                    },
                },
            ],
        };
        let (c, info) = with_belt(&own, &belt, "c");
        assert_eq!(c.catalog.tools.len(), 4);
        assert_eq!(info.own, "yours");
        assert_eq!(info.tool_count(), 3);
        assert_eq!(info.server_of("s1__a"), "s1");
        assert_eq!(info.server_of("a"), "yours");
        assert_eq!(
            info.servers,
            vec![
                BeltServerInfo {
                    name: "s1".into(),
                    tools: 2
                },
                BeltServerInfo {
                    name: "s2".into(),
                    tools: 1
                }
            ]
        );
    }
}

//! The bundled `ecosystem` belt: snapshots of popular public MCP servers, captured from their
//! registry packages by `scripts/capture-ecosystem.sh` (versions and licences in
//! `fixtures/ecosystem/manifest.json`), built into the binary (deflated: 0.14 MB for 1.2 MB
//! of JSON) so `--belt ecosystem` works offline. Servers are in the manifest's order.

use super::{Belt, BeltServer};
use crate::catalog::snapshot;

/// The name `--belt` takes for the bundled belt.
pub(crate) const NAME: &str = "ecosystem";

/// (server, its snapshot JSON deflated by build/deflate.rs), in the manifest's order.
macro_rules! deflated {
    ($name:literal) => {
        (
            $name,
            include_bytes!(concat!(env!("OUT_DIR"), "/ecosystem/", $name, ".json.z")),
        )
    };
}

const SNAPSHOTS: &[(&str, &[u8])] = &[
    deflated!("filesystem"),
    deflated!("memory"),
    deflated!("everything"),
    deflated!("sequential-thinking"),
    deflated!("github"),
    deflated!("gitlab"),
    deflated!("slack"),
    deflated!("google-maps"),
    deflated!("brave-search"),
    deflated!("postgres"),
    deflated!("gdrive"),
    deflated!("everart"),
    deflated!("puppeteer"),
    deflated!("playwright"),
    deflated!("notion"),
    deflated!("firecrawl"),
    deflated!("exa"),
    deflated!("context7"),
    deflated!("tavily"),
    deflated!("supabase"),
    deflated!("kubernetes"),
    deflated!("mongodb"),
    deflated!("chart"),
    deflated!("figma"),
    deflated!("circleci"),
    deflated!("time"),
    deflated!("fetch"),
    deflated!("git"),
    deflated!("sqlite"),
    deflated!("aws-documentation"),
    deflated!("atlassian"),
    deflated!("arxiv"),
    deflated!("duckduckgo"),
    deflated!("obsidian"),
    deflated!("blender"),
];

#[cfg(test)]
/// The manifest (package, version, licence of every server).
pub(crate) const MANIFEST: &str = include_str!("../../../fixtures/ecosystem/manifest.json");

/// The bundled belt. The snapshots are checked by the test suite, so a parse failure here is a
/// build defect; it is still reported as an error, never a panic.
pub(crate) fn belt() -> anyhow::Result<Belt> {
    let servers = SNAPSHOTS
        .iter()
        .map(|(name, text)| {
            let file = format!("ecosystem/{name}.json");
            let text = crate::embedded::inflate_text(&file, text)?;
            let mut catalog = snapshot::parse(&text, &file)?;
            catalog.source = format!("{NAME}:{name}");
            Ok(BeltServer {
                name: (*name).to_string(),
                catalog,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Belt {
        config: NAME.to_string(),
        servers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded list is the manifest's list and the folder's files: nothing added to the
    /// folder is silently left out of the binary.
    #[test]
    fn the_embedded_belt_is_the_manifest() {
        let manifest: serde_json::Value = serde_json::from_str(MANIFEST).unwrap();
        let listed: Vec<&str> = manifest["servers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        let embedded: Vec<&str> = SNAPSHOTS.iter().map(|(n, _)| *n).collect();
        assert_eq!(listed, embedded);
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ecosystem");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| {
                let name = e.unwrap().file_name().into_string().unwrap();
                let stem = name.strip_suffix(".json")?.to_string();
                (stem != "manifest").then_some(stem)
            })
            .collect();
        files.sort();
        let mut sorted = embedded.clone();
        sorted.sort();
        assert_eq!(files, sorted);
        let belt = belt().unwrap();
        assert!(belt.servers.len() >= 15);
        let counts: usize = manifest["servers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["tools"].as_u64().unwrap() as usize)
            .sum();
        assert_eq!(belt.tool_count(), counts);
    }
}

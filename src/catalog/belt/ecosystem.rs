//! The bundled `ecosystem` belt: snapshots of popular public MCP servers, captured from their
//! registry packages by `scripts/capture-ecosystem.sh` (versions and licences in
//! `fixtures/ecosystem/manifest.json`), built into the binary so `--belt ecosystem` works
//! offline. Servers are in the manifest's order.

use super::{Belt, BeltServer};
use crate::catalog::snapshot;

/// The name `--belt` takes for the bundled belt.
pub const NAME: &str = "ecosystem";

/// (server, snapshot JSON), in the manifest's order.
const SNAPSHOTS: &[(&str, &str)] = &[
    (
        "filesystem",
        include_str!("../../../fixtures/ecosystem/filesystem.json"),
    ),
    (
        "memory",
        include_str!("../../../fixtures/ecosystem/memory.json"),
    ),
    (
        "everything",
        include_str!("../../../fixtures/ecosystem/everything.json"),
    ),
    (
        "sequential-thinking",
        include_str!("../../../fixtures/ecosystem/sequential-thinking.json"),
    ),
    (
        "github",
        include_str!("../../../fixtures/ecosystem/github.json"),
    ),
    (
        "gitlab",
        include_str!("../../../fixtures/ecosystem/gitlab.json"),
    ),
    (
        "slack",
        include_str!("../../../fixtures/ecosystem/slack.json"),
    ),
    (
        "google-maps",
        include_str!("../../../fixtures/ecosystem/google-maps.json"),
    ),
    (
        "brave-search",
        include_str!("../../../fixtures/ecosystem/brave-search.json"),
    ),
    (
        "postgres",
        include_str!("../../../fixtures/ecosystem/postgres.json"),
    ),
    (
        "gdrive",
        include_str!("../../../fixtures/ecosystem/gdrive.json"),
    ),
    (
        "everart",
        include_str!("../../../fixtures/ecosystem/everart.json"),
    ),
    (
        "puppeteer",
        include_str!("../../../fixtures/ecosystem/puppeteer.json"),
    ),
    (
        "playwright",
        include_str!("../../../fixtures/ecosystem/playwright.json"),
    ),
    (
        "notion",
        include_str!("../../../fixtures/ecosystem/notion.json"),
    ),
    (
        "firecrawl",
        include_str!("../../../fixtures/ecosystem/firecrawl.json"),
    ),
    ("exa", include_str!("../../../fixtures/ecosystem/exa.json")),
    (
        "context7",
        include_str!("../../../fixtures/ecosystem/context7.json"),
    ),
    (
        "tavily",
        include_str!("../../../fixtures/ecosystem/tavily.json"),
    ),
    (
        "supabase",
        include_str!("../../../fixtures/ecosystem/supabase.json"),
    ),
    (
        "kubernetes",
        include_str!("../../../fixtures/ecosystem/kubernetes.json"),
    ),
    (
        "mongodb",
        include_str!("../../../fixtures/ecosystem/mongodb.json"),
    ),
    (
        "chart",
        include_str!("../../../fixtures/ecosystem/chart.json"),
    ),
    (
        "figma",
        include_str!("../../../fixtures/ecosystem/figma.json"),
    ),
    (
        "circleci",
        include_str!("../../../fixtures/ecosystem/circleci.json"),
    ),
    (
        "time",
        include_str!("../../../fixtures/ecosystem/time.json"),
    ),
    (
        "fetch",
        include_str!("../../../fixtures/ecosystem/fetch.json"),
    ),
    ("git", include_str!("../../../fixtures/ecosystem/git.json")),
    (
        "sqlite",
        include_str!("../../../fixtures/ecosystem/sqlite.json"),
    ),
    (
        "aws-documentation",
        include_str!("../../../fixtures/ecosystem/aws-documentation.json"),
    ),
    (
        "atlassian",
        include_str!("../../../fixtures/ecosystem/atlassian.json"),
    ),
    (
        "arxiv",
        include_str!("../../../fixtures/ecosystem/arxiv.json"),
    ),
    (
        "duckduckgo",
        include_str!("../../../fixtures/ecosystem/duckduckgo.json"),
    ),
    (
        "obsidian",
        include_str!("../../../fixtures/ecosystem/obsidian.json"),
    ),
    (
        "blender",
        include_str!("../../../fixtures/ecosystem/blender.json"),
    ),
];

/// The manifest (package, version, licence of every server).
pub const MANIFEST: &str = include_str!("../../../fixtures/ecosystem/manifest.json");

/// The bundled belt. The snapshots are checked by the test suite, so a parse failure here is a
/// build defect; it is still reported as an error, never a panic.
pub fn belt() -> anyhow::Result<Belt> {
    let servers = SNAPSHOTS
        .iter()
        .map(|(name, text)| {
            let mut catalog = snapshot::parse(text, &format!("ecosystem/{name}.json"))?;
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

//! Codex's tool search, emulated: `search_tool_bm25` of OpenAI's Codex CLI (codex-rs,
//! `core/src/tools/handlers/search_tool_bm25.rs`), which lets the model find MCP tools it does
//! not see up front. Read from its source:
//! - each tool is one document: its qualified name `mcp__<server>__<tool>`, the tool's name,
//!   the server's name, its title and description (when not blank), then the names of its
//!   input schema's top-level properties (sorted), joined by single spaces; no field weights,
//!   no argument descriptions;
//! - documents are indexed in the order of their qualified names with the `bm25` crate 2.3.2
//!   (`SearchEngineBuilder::with_documents(Language::English, …)`: k1 1.2, b 0.75, its default
//!   tokenizer: deunicode, lower case, Unicode word boundaries (an underscore does not split,
//!   a hyphen does), NLTK English stop words, the Snowball English stemmer) — the same crate,
//!   so the same tokens and scores;
//! - the query is the model's, trimmed; results are the best `limit` (default 8) with any
//!   score above zero.
//!
//! Codex breaks ties in no set order (the crate's hash order); here a tie goes to the tool
//! indexed first, so a run is reproducible. Two approximations, both about the qualified
//! name, which a request almost never matches: the server's name is its `serverInfo` name
//! (`server` for a snapshot or lock), where Codex uses the key of the user's config; and the
//! qualified name is indexed as is, where Codex replaces characters a function name may not
//! hold and shortens names over 64 characters (a hyphen in a name splits it into two words
//! here). As with `toolsearch`, the query is the user's
//! request where the real model writes its own: a reproducible proxy for the search.
//!
//! Spec: `toolsearch-codex[:k]`, `k` from 1 to 10 (default 8).

use anyhow::bail;
use bm25::{Document, Language, SearchEngine, SearchEngineBuilder};

use super::{BoxFuture, Decision, Model};
use crate::catalog::{Catalog, Tool};

/// Results Codex's search returns by default.
pub(crate) const DEFAULT_K: usize = 8;

pub(crate) struct CodexSearch {
    k: usize,
    engine: SearchEngine<usize>,
    /// Tool names in index order (a document's id is its place here).
    names: Vec<String>,
}

/// The server name Codex would show: the server's own name, else `server`.
fn server_name(catalog: &Catalog) -> String {
    catalog
        .server
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or("server")
        .to_string()
}

/// The text Codex indexes for `tool` of `server`.
pub(crate) fn document(server: &str, tool: &Tool) -> String {
    let mut parts = vec![
        format!("mcp__{server}__{}", tool.name()),
        tool.name().to_string(),
        server.to_string(),
    ];
    for text in [tool.title(), tool.description()].into_iter().flatten() {
        if !text.trim().is_empty() {
            parts.push(text.to_string());
        }
    }
    let mut keys: Vec<String> = tool
        .params()
        .into_iter()
        .map(|(k, _)| k.to_string())
        .collect();
    keys.sort();
    parts.extend(keys);
    parts.join(" ")
}

impl CodexSearch {
    pub(crate) fn from_spec(rest: &str, catalog: &Catalog) -> anyhow::Result<Self> {
        let k = if rest.is_empty() {
            DEFAULT_K
        } else {
            match rest.parse::<usize>() {
                Ok(k) if (1..=crate::score::retrieval::DEPTH).contains(&k) => k,
                _ => bail!(
                    "toolsearch-codex:{rest}: k (how many tools a search returns) must be a whole number from 1 to {}",
                    crate::score::retrieval::DEPTH
                ),
            }
        };
        Ok(Self::new(catalog, k))
    }

    pub(crate) fn new(catalog: &Catalog, k: usize) -> Self {
        let server = server_name(catalog);
        let mut docs: Vec<(String, String, String)> = catalog
            .tools
            .iter()
            .map(|t| {
                (
                    format!("mcp__{server}__{}", t.name()),
                    t.name().to_string(),
                    document(&server, t),
                )
            })
            .collect();
        docs.sort_by(|a, b| a.0.cmp(&b.0));
        let names = docs.iter().map(|d| d.1.clone()).collect();
        let documents: Vec<Document<usize>> = docs
            .into_iter()
            .enumerate()
            .map(|(i, d)| Document::new(i, d.2))
            .collect();
        let engine =
            SearchEngineBuilder::<usize>::with_documents(Language::English, documents).build();
        CodexSearch { k, engine, names }
    }

    /// What the search returns for `query`, best first: at most `k` tools with a score above
    /// zero, a tie to the tool indexed first.
    pub(crate) fn search(&self, query: &str) -> Vec<(&str, f32)> {
        let query = query.trim();
        if query.is_empty() {
            return Vec::new();
        }
        let mut hits: Vec<(usize, f32)> = self
            .engine
            .search(query, None)
            .into_iter()
            .map(|r| (r.document.id, r.score))
            .collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.into_iter()
            .take(self.k)
            .filter_map(|(i, s)| self.names.get(i).map(|n| (n.as_str(), s)))
            .collect()
    }
}

impl Model for CodexSearch {
    fn spec(&self) -> String {
        format!("toolsearch-codex:{}", self.k)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn decide<'a>(&'a self, task: &'a crate::tasks::Task, _trial: u32) -> BoxFuture<'a, Decision> {
        Box::pin(async move { super::tool_search::first_found(&self.search(&task.request)) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn catalog() -> Catalog {
        let tools = [
            json!({"name": "create_event", "title": "Create event", "description": "Create a calendar event.",
                "inputSchema": {"type": "object", "properties": {"start_time": {"type": "string", "description": "ignored by codex"}, "attendees": {}}}}),
            json!({"name": "send_mail", "description": "Send an email message.",
                "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}}}}),
        ];
        Catalog {
            tools: tools
                .into_iter()
                .map(|t| Tool::from_value(t, "t").unwrap())
                .collect(),
            server: crate::catalog::ServerMeta {
                name: Some("calendar".into()),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn the_document_is_codexs_fields_in_codexs_order() {
        let c = catalog();
        assert_eq!(
            document("calendar", &c.tools[0]),
            "mcp__calendar__create_event create_event calendar Create event Create a calendar event. attendees start_time"
        );
    }

    #[test]
    fn property_descriptions_are_not_indexed_and_k_bounds_the_results() {
        let s = CodexSearch::new(&catalog(), 8);
        assert!(s.search("ignored").is_empty());
        assert_eq!(s.search("calendar")[0].0, "create_event");
        assert_eq!(s.search("email message")[0].0, "send_mail");
        let one = CodexSearch::new(&catalog(), 1);
        assert_eq!(one.search("calendar email").len(), 1);
        assert!(one.search("   ").is_empty());
        assert!(CodexSearch::from_spec("0", &catalog()).is_err());
        assert_eq!(
            CodexSearch::from_spec("", &catalog()).unwrap().spec(),
            "toolsearch-codex:8"
        );
    }
}

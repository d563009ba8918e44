//! Tool-search emulation: what a host that defers tool definitions shows its model. Claude's
//! tool search (and Claude Code, which defers MCP tools once they take a large share of the
//! context) does not put every schema in front of the model: the model searches, and a
//! search returns 3–5 tools. A tool the search does not return is never chosen, however good
//! its description. This router indexes exactly the fields Anthropic's BM25 tool search
//! indexes — the tool's name, its description, and its arguments' names and descriptions
//! (top level) — with plain BM25 (no name boost), and returns the top `k`; the run's
//! retrieval metrics then read as **findability@k** per tool (recall@k of the tasks that
//! expect it).
//!
//! `toolsearch-names[:k]` is the other view a deferring host gives: only the tools' names and
//! the server's instructions (the sentences of the instructions that name the tool are
//! indexed with it). A tool that cannot be found this way depends on its schema being loaded.
//!
//! The query is the user's request, where the real model writes its own: this is a
//! reproducible proxy for the search, not the host.
//!
//! Spec: `toolsearch[:k]` or `toolsearch-names[:k]`, `k` from 1 to 10 (default 5). The router
//! "calls" its first result when any word matched, so its tool accuracy is top-1 retrieval.

use anyhow::bail;

use super::bm25::{Bm25, terms};
use super::{BoxFuture, Decision, Model, Router};
use crate::catalog::{Catalog, Tool};
use crate::text;

/// Results a search returns by default (Anthropic: 3–5).
pub(crate) const DEFAULT_K: usize = 5;

/// Which fields are indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fields {
    /// Name, description, argument names and argument descriptions.
    Full,
    /// Name and the server instructions' sentences that name the tool.
    NamesAndInstructions,
}

pub(crate) struct ToolSearch {
    fields: Fields,
    k: usize,
    index: Bm25,
}

fn name_terms(name: &str) -> Vec<String> {
    text::name_words(name)
        .into_iter()
        .filter(|w| !text::is_stop(w))
        .map(|w| text::stem(&w))
        .collect()
}

/// The indexed words of one tool.
pub(crate) fn document(tool: &Tool, fields: Fields, instructions: &[&str]) -> Vec<String> {
    let mut out = name_terms(tool.name());
    match fields {
        Fields::Full => {
            out.extend(terms(tool.description().unwrap_or("")));
            for (pname, schema) in tool.params() {
                out.extend(name_terms(pname));
                if let Some(d) = schema.get("description").and_then(|d| d.as_str()) {
                    out.extend(terms(d));
                }
            }
        }
        Fields::NamesAndInstructions => {
            for s in instructions.iter().filter(|s| s.contains(tool.name())) {
                out.extend(terms(s));
            }
        }
    }
    out
}

/// The sentences of a server's instructions (split on `.`, `!`, `?` and line breaks).
fn sentences(text: &str) -> Vec<&str> {
    text.split(['.', '!', '?', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

impl ToolSearch {
    pub(crate) fn from_spec(router: Router, rest: &str, catalog: &Catalog) -> anyhow::Result<Self> {
        let head = router.name();
        let fields = match router {
            Router::ToolSearch => Fields::Full,
            Router::ToolSearchNames => Fields::NamesAndInstructions,
            other => bail!("unknown tool-search mode `{}`", other.name()),
        };
        let k = if rest.is_empty() {
            DEFAULT_K
        } else {
            match rest.parse::<usize>() {
                Ok(k) if (1..=crate::score::retrieval::DEPTH).contains(&k) => k,
                _ => bail!(
                    "{head}:{rest}: k (how many tools a search returns) must be a whole number from 1 to {}",
                    crate::score::retrieval::DEPTH
                ),
            }
        };
        Ok(Self::new(catalog, fields, k))
    }

    pub(crate) fn new(catalog: &Catalog, fields: Fields, k: usize) -> Self {
        let instructions = sentences(catalog.instructions.as_deref().unwrap_or(""));
        let docs = catalog
            .tools
            .iter()
            .map(|t| (t.name().to_string(), document(t, fields, &instructions)));
        ToolSearch {
            fields,
            k,
            index: Bm25::over(docs, 0.0),
        }
    }

    /// What the search returns for `request`, best first: at most `k` tools that match.
    pub(crate) fn search(&self, request: &str) -> Vec<(&str, f64)> {
        self.index.top(request, self.k)
    }
}

impl Model for ToolSearch {
    fn spec(&self) -> String {
        match self.fields {
            Fields::Full => format!("toolsearch:{}", self.k),
            Fields::NamesAndInstructions => format!("toolsearch-names:{}", self.k),
        }
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn decide<'a>(&'a self, task: &'a crate::tasks::Task, _trial: u32) -> BoxFuture<'a, Decision> {
        Box::pin(async move { first_found(&self.search(&task.request)) })
    }
}

/// What an emulated search "decides": its first result (nothing when it matched no tool), with
/// every result as the ranking.
pub(super) fn first_found<S: Copy + Into<f64>>(found: &[(&str, S)]) -> Decision {
    let ranking = Some(found.iter().map(|(n, _)| n.to_string()).collect());
    match found.first() {
        Some((name, score)) => Decision {
            tool: Some(name.to_string()),
            score: Some((*score).into()),
            ranking,
            ..Default::default()
        },
        None => Decision {
            tool: None,
            ranking,
            text: Some("the search matched no tool".into()),
            ..Default::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn catalog(instructions: Option<&str>) -> Catalog {
        let tools = [
            json!({"name": "get_weather", "description": "Current conditions and forecast.",
                "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}}),
            json!({"name": "send_mail", "description": "Send an email message.",
                "inputSchema": {"type": "object", "properties": {"to": {"type": "string", "description": "Recipient address"}}}}),
            json!({"name": "tx_q", "description": "Query the ledger of refunds.",
                "inputSchema": {"type": "object", "properties": {}}}),
        ];
        Catalog {
            tools: tools
                .into_iter()
                .map(|t| Tool::from_value(t, "t").unwrap())
                .collect(),
            instructions: instructions.map(str::to_string),
            ..Default::default()
        }
    }

    #[test]
    fn arguments_descriptions_are_indexed_and_k_bounds_the_results() {
        let s = ToolSearch::new(&catalog(None), Fields::Full, 1);
        // "city" is only in an argument's name and description.
        assert_eq!(s.search("which city")[0].0, "get_weather");
        assert_eq!(s.search("recipient address").len(), 1);
        assert!(s.search("zzz unrelated").is_empty());
    }

    #[test]
    fn names_mode_sees_names_and_the_instructions_only() {
        let c = catalog(Some(
            "Use tx_q for refunds. Weather comes from get_weather.",
        ));
        let names = ToolSearch::new(&c, Fields::NamesAndInstructions, 5);
        // "ledger" is only in tx_q's description: not indexed in this mode.
        assert!(names.search("ledger").is_empty());
        // "refunds" is in the instructions' sentence that names tx_q.
        assert_eq!(names.search("refunds please")[0].0, "tx_q");
        assert_eq!(names.search("send mail")[0].0, "send_mail");
        let full = ToolSearch::new(&c, Fields::Full, 5);
        assert_eq!(full.search("ledger")[0].0, "tx_q");
    }

    #[test]
    fn specs_parse_and_bad_k_is_named() {
        let c = catalog(None);
        assert_eq!(
            ToolSearch::from_spec(Router::ToolSearch, "", &c)
                .unwrap()
                .spec(),
            "toolsearch:5"
        );
        assert_eq!(
            ToolSearch::from_spec(Router::ToolSearchNames, "3", &c)
                .unwrap()
                .spec(),
            "toolsearch-names:3"
        );
        let e = ToolSearch::from_spec(Router::ToolSearch, "0", &c)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("from 1 to 10"), "{e}");
    }
}

//! `toolsearch-card[:k]`: findability through the server card first, as a hosted tool search
//! does it. A host with many servers does not search every tool: it first picks the servers
//! whose card (the server's name and title, its description, the first sentence of its
//! instructions) matches the request, then searches the tools of those servers only. A tool
//! whose server's card shares no word with the request is never found, however good its own
//! description; a bare server name (`notes-server`, no description) is the usual cause.
//!
//! Stage 1 ranks the cards with BM25 and keeps the best [`SERVERS`] that match; stage 2 runs
//! the full tool search (name, description, argument names and descriptions, as `toolsearch`
//! indexes them) within each kept server and returns the best `k` tools across them. In a
//! belt (`run --belt`) each server of the belt is one card (its key's words); your own
//! server's card is what it sent in `initialize`.
//!
//! Spec: `toolsearch-card[:k]`, `k` from 1 to 10 (default 5). Like the other searches it
//! "calls" its first result, so its headline score is findability@1.

use anyhow::bail;

use super::bm25::{Bm25, terms};
use super::tool_search::{Fields, document, first_found};
use super::{BoxFuture, Decision, Model};
use crate::catalog::Catalog;
use crate::text;

/// Servers a hosted search keeps after reading the cards.
pub(crate) const SERVERS: usize = 3;
/// Results returned by default.
pub(crate) const DEFAULT_K: usize = 5;
/// Characters of a card field read (server text is bounded).
const CARD_CHARS: usize = 2_000;

/// One server: its tools' index.
struct Server {
    tools: Bm25,
}

pub(crate) struct CardSearch {
    k: usize,
    cards: Bm25,
    /// Same order as the card index's documents, looked up by key.
    servers: std::collections::HashMap<String, Server>,
}

fn bounded(s: &str) -> &str {
    match s.char_indices().nth(CARD_CHARS) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// The words of a server card: name, title, description, the instructions' first sentence.
fn card(catalog: &Catalog) -> Vec<String> {
    let mut out: Vec<String> = text::name_words(catalog.server.name.as_deref().unwrap_or(""))
        .into_iter()
        .filter(|w| !text::is_stop(w))
        .map(|w| text::stem(&w))
        .collect();
    for field in [&catalog.server.title, &catalog.server.description] {
        out.extend(terms(bounded(field.as_deref().unwrap_or(""))));
    }
    let instructions = catalog.instructions.as_deref().unwrap_or("");
    let first = instructions
        .split(['.', '!', '?', '\n'])
        .map(str::trim)
        .find(|s| !s.is_empty())
        .unwrap_or("");
    out.extend(terms(bounded(first)));
    out
}

impl CardSearch {
    pub(crate) fn from_spec(rest: &str, catalog: &Catalog) -> anyhow::Result<Self> {
        let k = if rest.is_empty() {
            DEFAULT_K
        } else {
            match rest.parse::<usize>() {
                Ok(k) if (1..=crate::score::retrieval::DEPTH).contains(&k) => k,
                _ => bail!(
                    "toolsearch-card:{rest}: k (how many tools a search returns) must be a whole number from 1 to {}",
                    crate::score::retrieval::DEPTH
                ),
            }
        };
        let own = catalog.tools.iter().any(|t| !t.name().contains('/'));
        if own && card(catalog).is_empty() {
            bail!(
                "toolsearch-card: this catalog has no server card (no serverInfo name, title or description, no instructions), so every request would miss it: measure a live server, or a snapshot that keeps its serverInfo"
            );
        }
        Ok(Self::new(catalog, k))
    }

    pub(crate) fn new(catalog: &Catalog, k: usize) -> Self {
        // Your server's tools are keyed by their names; a belt's by `server/tool`.
        const OWN: &str = "";
        let mut order: Vec<String> = Vec::new();
        let mut groups: std::collections::HashMap<String, Vec<(String, Vec<String>)>> =
            Default::default();
        for t in &catalog.tools {
            let key = match t.name().split_once('/') {
                Some((server, _)) => server.to_string(),
                None => OWN.to_string(),
            };
            if !groups.contains_key(&key) {
                order.push(key.clone());
            }
            groups
                .entry(key)
                .or_default()
                .push((t.name().to_string(), document(t, Fields::Full, &[])));
        }
        let own_card = card(catalog);
        let cards = Bm25::over(
            order.iter().map(|key| {
                let words = if key == OWN {
                    own_card.clone()
                } else {
                    text::name_words(key)
                        .into_iter()
                        .filter(|w| !text::is_stop(w))
                        .map(|w| text::stem(&w))
                        .collect()
                };
                (key.clone(), words)
            }),
            0.0,
        );
        let servers = groups
            .into_iter()
            .map(|(key, docs)| {
                (
                    key,
                    Server {
                        tools: Bm25::over(docs, 0.0),
                    },
                )
            })
            .collect();
        CardSearch { k, cards, servers }
    }

    /// What the search returns for `request`, best first: at most `k` tools of the servers
    /// whose cards match it (none when no card matches).
    pub(crate) fn search(&self, request: &str) -> Vec<(&str, f64)> {
        let mut found: Vec<(&str, f64)> = self
            .cards
            .top(request, SERVERS)
            .into_iter()
            .filter_map(|(key, _)| self.servers.get(key))
            .flat_map(|s| s.tools.top(request, self.k))
            .collect();
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        found.truncate(self.k);
        found
    }
}

impl Model for CardSearch {
    fn spec(&self) -> String {
        format!("toolsearch-card:{}", self.k)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn decide<'a>(&'a self, task: &'a crate::tasks::Task, _trial: u32) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            let found = self.search(&task.request);
            let mut d = first_found(&found);
            if found.is_empty() {
                d.text = Some("no server card matched the request".into());
            }
            d
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Tool;
    use serde_json::json;

    fn catalog(name: &str, description: Option<&str>, tools: &[(&str, &str)]) -> Catalog {
        let mut c = Catalog {
            tools: tools
                .iter()
                .map(|(n, d)| {
                    Tool::from_value(
                        json!({"name": n, "description": d, "inputSchema": {"type": "object"}}),
                        "t",
                    )
                    .unwrap()
                })
                .collect(),
            ..Default::default()
        };
        c.server.name = Some(name.into());
        c.server.description = description.map(str::to_string);
        c
    }

    #[test]
    fn a_request_that_misses_the_card_finds_nothing() {
        let tools = [
            ("add_note", "Save a note."),
            ("search_notes", "Find notes by text."),
        ];
        let bare = CardSearch::new(&catalog("srv-x", None, &tools), 5);
        // The tool's own description matches, but the server card says nothing of notes.
        assert!(bare.search("save a note").is_empty());
        let described = CardSearch::new(
            &catalog(
                "srv-x",
                Some("Notes: write and search personal notes."),
                &tools,
            ),
            5,
        );
        assert_eq!(described.search("save a note")[0].0, "add_note");
        assert_eq!(described.spec(), "toolsearch-card:5");
    }

    #[test]
    fn a_belt_is_searched_server_by_server() {
        let c = catalog(
            "mine",
            Some("Calendar events."),
            &[
                ("create_event", "Create a calendar event."),
                ("weather/get_forecast", "Forecast for a city."),
                ("mail/send_message", "Send an email message."),
            ],
        );
        let s = CardSearch::new(&c, 5);
        assert_eq!(
            s.search("the weather forecast")[0].0,
            "weather/get_forecast"
        );
        // "message" matches a tool of `mail`, but no card: nothing is found.
        assert!(s.search("a message").is_empty());
        assert_eq!(s.search("calendar event")[0].0, "create_event");
        assert!(CardSearch::from_spec("11", &c).is_err());
        let mut nameless = c.clone();
        nameless.server = Default::default();
        let e = CardSearch::from_spec("", &nameless)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("no server card"), "{e}");
    }
}

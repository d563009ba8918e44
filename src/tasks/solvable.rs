//! Solvability without a model: a labelled request that shares no content word with its tool's
//! definition (name, title, description, parameter names, their descriptions and enum values)
//! while another tool's definition shares several is probably mislabelled — "Book me a flight
//! to Lisbon" labelled `tag_plant` beside `book_flight`. One that shares no word with any tool
//! may be a request no tool serves (a no-tool task). Both are warnings for a reviewer: a
//! realistic request can use other words than its tool ("will it rain?" for a forecast), so
//! the check names what it saw and never refuses the suite.

use std::collections::{HashMap, HashSet};

use crate::catalog::{Catalog, Tool};
use crate::text;

use super::echo::weak;

/// How many words of one tool's definition the index reads (bounds a hostile description).
const MAX_TOOL_WORDS: usize = 2_000;
/// How many words of a request are looked up.
const MAX_REQUEST_WORDS: usize = 200;
/// A word in more tools than this says nothing about which one fits, and is not looked up
/// (bounds the work per request on a large catalog).
const MAX_POSTINGS: usize = 500;
/// Another tool "fits" when it shares at least this many content words with the request.
const FITS: usize = 2;

/// The content-word stems of every tool's definition, and which tools hold each.
pub(crate) struct SolveIndex {
    words: Vec<HashSet<String>>,
    postings: HashMap<String, Vec<usize>>,
    by_name: HashMap<String, usize>,
}

/// The stems of a text's content words.
fn stems(text_: &str, max: usize) -> impl Iterator<Item = String> + '_ {
    text::words_iter(text_)
        .take(max)
        .filter(|w| w.chars().count() > 1 && !weak(w) && !PERSONAL.contains(&w.as_str()))
        .map(|w| text::stem(&w))
}

/// Words a request and a description share without saying what either is about ("what's on
/// my calendar" beside "Make a note … on my phone").
const PERSONAL: &[&str] = &[
    "my", "me", "mine", "myself", "your", "yours", "our", "ours", "us", "you", "we", "they",
    "them", "their", "he", "she", "him", "her", "his", "please", "thanks", "want", "need", "like",
    "can", "could", "would",
];

/// Everything of a tool a model reads, as words.
fn definition_text(t: &Tool) -> String {
    let mut s = text::name_words(t.name()).join(" ");
    for part in [t.title(), t.description()].into_iter().flatten() {
        s.push(' ');
        s.push_str(part);
    }
    for (name, p) in t.params() {
        s.push(' ');
        s.push_str(&text::name_words(name).join(" "));
        if let Some(d) = p.get("description").and_then(|d| d.as_str()) {
            s.push(' ');
            s.push_str(d);
        }
        for v in p
            .get("enum")
            .and_then(|e| e.as_array())
            .into_iter()
            .flatten()
            .take(50)
        {
            if let Some(v) = v.as_str() {
                s.push(' ');
                s.push_str(v);
            }
        }
    }
    s
}

impl SolveIndex {
    pub(crate) fn new(catalog: &Catalog) -> Self {
        let words: Vec<HashSet<String>> = catalog
            .tools
            .iter()
            .map(|t| stems(&definition_text(t), MAX_TOOL_WORDS).collect())
            .collect();
        let mut postings: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, w) in words.iter().enumerate() {
            for s in w {
                postings.entry(s.clone()).or_default().push(i);
            }
        }
        let mut by_name = HashMap::new();
        for (i, t) in catalog.tools.iter().enumerate() {
            by_name.entry(t.name().to_string()).or_insert(i);
        }
        SolveIndex {
            words,
            postings,
            by_name,
        }
    }

    /// Why the request labelled with tool `name` may not be solvable as labelled; `None` when
    /// the labelled tool shares a content word with it (or is not in the catalog).
    pub(crate) fn check(&self, catalog: &Catalog, request: &str, name: &str) -> Option<String> {
        let labelled = *self.by_name.get(name)?;
        let said: Vec<String> = {
            let mut seen = HashSet::new();
            stems(request, MAX_REQUEST_WORDS)
                .filter(|s| seen.insert(s.clone()))
                .collect()
        };
        if said.is_empty() {
            return None;
        }
        let own = self.words.get(labelled)?;
        if said.iter().any(|s| own.contains(s)) {
            return None;
        }
        let mut shared: HashMap<usize, Vec<&str>> = HashMap::new();
        for s in &said {
            let Some(tools) = self.postings.get(s) else {
                continue;
            };
            if tools.len() > MAX_POSTINGS {
                continue;
            }
            for &i in tools {
                shared.entry(i).or_default().push(s);
            }
        }
        let best = shared
            .into_iter()
            .max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(&a.0)));
        match best {
            Some((i, w)) if w.len() >= FITS => Some(format!(
                "the request shares no content word with `{name}`'s definition, while `{}` shares {} ({}): check the label",
                catalog.tools[i].name(),
                w.len(),
                w.join(", ")
            )),
            Some(_) => None,
            None => Some(format!(
                "the request shares no content word with `{name}`'s definition or any other tool's: check that a tool serves it, or make it a no-tool task"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn catalog() -> Catalog {
        Catalog {
            tools: [
                json!({"name": "tag_plant", "description": "Attach a care tag to a plant in the greenhouse.",
                    "inputSchema": {"type": "object", "properties": {"plant_id": {"type": "string", "description": "The plant's identifier"}}}}),
                json!({"name": "book_flight", "description": "Book a flight between two airports.",
                    "inputSchema": {"type": "object", "properties": {"destination": {"type": "string", "description": "City or airport to fly to"}}}}),
                json!({"name": "get_forecast", "description": "Weather forecast for a place."}),
            ]
            .into_iter()
            .map(|v| Tool::from_value(v, "t").unwrap())
            .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_request_another_tool_fits_is_named_with_that_tool() {
        let c = catalog();
        let ix = SolveIndex::new(&c);
        let why = ix
            .check(&c, "Book me a flight to Lisbon", "tag_plant")
            .expect("mislabelled");
        assert!(
            why.contains("`tag_plant`") && why.contains("`book_flight` shares 2"),
            "{why}"
        );
        assert_eq!(
            ix.check(&c, "Book me a flight to Lisbon", "book_flight"),
            None
        );
        assert_eq!(
            ix.check(&c, "put a care label on the fern", "tag_plant"),
            None,
            "shares `care`"
        );
    }

    #[test]
    fn a_request_no_tool_fits_says_so_and_one_shared_word_elsewhere_is_not_enough() {
        let c = catalog();
        let ix = SolveIndex::new(&c);
        let why = ix
            .check(&c, "Sing me a lullaby", "tag_plant")
            .expect("no tool");
        assert!(why.contains("no-tool"), "{why}");
        // One word in common with another tool is ordinary English, not a better label.
        assert_eq!(
            ix.check(&c, "will it rain where I fly tomorrow", "get_forecast"),
            None
        );
        // Nor are pronouns: the example suite's near-miss "Make a note … on my phone" for
        // set_reminder shares "note" and "my" with find_events ("what's on my calendar").
        let c = Catalog {
            tools: [
                json!({"name": "set_reminder", "description": "Sets a reminder that pings the user (push, email or SMS) at a time."}),
                json!({"name": "find_events", "description": "Searches events: 'what's on my calendar', notes included."}),
            ]
            .into_iter()
            .map(|v| Tool::from_value(v, "t").unwrap())
            .collect(),
            ..Default::default()
        };
        let ix = SolveIndex::new(&c);
        assert_eq!(
            ix.check(
                &c,
                "Make a note for June 12 that pops up on my phone",
                "set_reminder"
            ),
            None
        );
    }
}

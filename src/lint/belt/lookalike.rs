//! TG028 (cross-server-look-alike): TG005's look-alike comparison over every tool of a belt
//! at once, keeping pairs whose tools sit on two servers. The work is the similarity index's
//! (near-linear in tools: candidates come from an inverted index with capped postings), plus
//! a few word lookups per reported pair.

use std::collections::HashSet;

use super::super::rules::common::shown_pair;
use super::super::rules::look_alike_tools::{Facts, describe};
use super::super::{Finding, LintSettings, Severity, lookalike_pairs};
use super::server_words;
use crate::catalog::{Catalog, Tool};
use crate::text;

/// The words that say which service a server's tools act on: its name's ([`server_words`])
/// and the namespace its tool names share (`jira` of `jira_create_issue`, `jira_get_issue`, …:
/// a first name word at least three tools and a quarter of them start with).
fn service_words(key: &str, catalog: &Catalog) -> HashSet<String> {
    let mut words = server_words(key, catalog.server.name.as_deref());
    let mut firsts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for t in &catalog.tools {
        if let Some(w) = text::name_words(t.name()).into_iter().next() {
            *firsts.entry(w).or_default() += 1;
        }
    }
    let n = catalog.tools.len();
    for (w, k) in firsts {
        if k >= 3 && k * 4 >= n && w.chars().count() >= 3 && !text::is_stop(&w) {
            words.insert(w);
        }
    }
    words
}

/// Every word of a server's tool names, lower-cased.
fn vocabulary_of(catalog: &Catalog) -> HashSet<String> {
    catalog
        .tools
        .iter()
        .flat_map(|t| text::name_words(t.name()))
        .collect()
}

/// One belt tool: its server's position and the tool.
struct Entry<'a> {
    server: usize,
    tool: &'a Tool,
}

/// Cross-server look-alike pairs of the belt, most alike first; `servers` are (name,
/// catalog) in config order.
pub fn lookalikes(servers: &[(&str, &Catalog)], settings: &LintSettings) -> Vec<Finding> {
    let rule = &super::super::rules::cross_server_look_alike::RULE;
    if settings.level_of(rule.code) == Some(super::super::Level::Off) || servers.len() < 2 {
        return Vec::new();
    }
    let entries: Vec<Entry> = servers
        .iter()
        .enumerate()
        .flat_map(|(s, (_, c))| c.tools.iter().map(move |tool| Entry { server: s, tool }))
        .collect();
    let tools: Vec<&Tool> = entries.iter().map(|e| e.tool).collect();
    let content: Vec<Vec<String>> = tools
        .iter()
        .map(|t| text::content_words(t.description().unwrap_or("")))
        .collect();
    let content_refs: Vec<&[String]> = content.iter().map(Vec::as_slice).collect();
    let pairs = lookalike_pairs(&tools, &content_refs, settings.lookalike_threshold, false);
    let own: Vec<HashSet<String>> = servers
        .iter()
        .map(|(name, c)| service_words(name, c))
        .collect();
    // Every word of a server's tool names, built for servers in some pair.
    let mut vocabulary: Vec<Option<HashSet<String>>> = vec![None; servers.len()];
    let mut out = Vec::new();
    for p in pairs {
        let (ea, eb) = (&entries[p.a], &entries[p.b]);
        // Across servers, only pairs at the threshold itself: TG005's same-role allowance
        // (`read_file` / `read_text_file`) mostly pairs unrelated tools of two services.
        if ea.server == eb.server || p.score < settings.lookalike_threshold {
            continue;
        }
        let (sa, sb) = (servers[ea.server].0, servers[eb.server].0);
        let (fa, fb) = (Facts::of(ea.tool), Facts::of(eb.tool));
        for s in [ea.server, eb.server] {
            if vocabulary[s].is_none() {
                vocabulary[s] = Some(vocabulary_of(servers[s].1));
            }
        }
        let empty = HashSet::new();
        let vocab = |s: usize| vocabulary[s].as_ref().unwrap_or(&empty);
        // Does each tool say which service it acts on: a word of its own service, in its name
        // or description, that neither the other server's tool names nor the other tool's
        // description use?
        let says = |e: &Entry, mine: &Facts, other: &Facts, other_server: usize| {
            let name = text::name_words(e.tool.name());
            own[e.server].iter().any(|w| {
                (name.contains(w) || text::mentions_lower(&mine.lower_description, w))
                    && !vocab(other_server).contains(w)
                    && !text::mentions_lower(&other.lower_description, w)
            })
        };
        let a_says = says(ea, &fa, &fb, eb.server);
        let b_says = says(eb, &fb, &fa, ea.server);
        if a_says && b_says {
            continue;
        }
        // The finding is about the side that does not say which service it is (b when neither).
        let (mine, other, mine_server, other_server) = if b_says {
            (ea.tool, eb.tool, sa, sb)
        } else {
            (eb.tool, ea.tool, sb, sa)
        };
        let (words, named) = describe(&fa, &fb, ea.tool, eb.tool);
        let (shown_other, shown_mine) = shown_pair(other.name(), mine.name());
        let key_mine = format!("{mine_server}/{shown_mine}");
        let key_other = format!("{other_server}/{shown_other}");
        let mut message = format!(
            "`{key_mine}` looks like `{key_other}` of server `{other_server}` (similarity {:.2}; \
             shared words: {words}): a model shown both servers' tools cannot tell which to call",
            p.score
        );
        if named {
            message
                .push_str("; one description names the other tool, which helps the model choose");
        }
        let help = format!(
            "If `{mine_server}` is your server, make `{shown_mine}`'s description say what sets it \
             apart, first of all which service it acts on (a description that names `{mine_server}`'s \
             service is not reported) and when to use it; you cannot change `{other_server}`'s text. \
             If both do the same job, do not load both servers together."
        );
        let f = Finding {
            group: None,
            code: rule.code.into(),
            slug: rule.slug.into(),
            severity: if named { Severity::Info } else { rule.severity },
            tool: Some(crate::catalog::belt::key(mine_server, mine.name())),
            tool_index: None,
            pointer: "/description".into(),
            message,
            help,
            related: vec![crate::catalog::belt::key(other_server, other.name())],
            pair: None,
        };
        out.extend(settings.apply(f));
    }
    out
}

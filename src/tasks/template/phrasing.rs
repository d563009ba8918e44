//! How a template asks for a tool without its name: an opener for the kind of action (from
//! the name's or the description's verb) and words of the description that are not words of
//! the name, then the sampled arguments. Every candidate is checked for echo and leakage.

use rand::{RngExt, seq::SliceRandom};
use serde_json::{Map, Value};

use super::super::echo;
use crate::catalog::Tool;
use crate::text;

/// How a user asks for each kind of action (verb classes from the look-alike index).
pub(super) fn phrasings(class: &str) -> &'static [&'static str] {
    match class {
        "create" => &["Please add", "Can you set up", "I need a new", "Make"],
        "read" => &["Show me", "Pull up", "Can you get me", "I want to see"],
        "search" => &[
            "Look for",
            "Can you find",
            "Hunt down",
            "I'm trying to find",
        ],
        "updat" | "update" => &["Please change", "Edit", "Can you modify", "Adjust"],
        "delete" => &["Get rid of", "Please remove", "Can you drop", "Take away"],
        "send" => &["Please send", "Shoot over", "Can you deliver"],
        "list" => &["List", "Show all", "What are the"],
        _ => &["Please", "Can you", "I need you to", "Help me"],
    }
}

/// A short natural phrase for one argument: its name's words and its value, or (`bare`) the
/// value alone, for a parameter whose name would echo the tool's.
fn arg_phrase(name: &str, value: &Value, bare: bool) -> String {
    let words = text::name_words(name).join(" ");
    let v = match value {
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| x.to_string())
            })
            .collect::<Vec<_>>()
            .join(", "),
        Value::Bool(true) if !bare => return format!("with {words} on"),
        Value::Bool(false) if !bare => return format!("with {words} off"),
        other => other.to_string(),
    };
    if bare { v } else { format!("{words} {v}") }
}

/// The verb class of the first verb in a tool name (`search_free_slots` → `search`,
/// `slack_list_channels` → `list`), else empty. A one-word name is not taken for a verb.
fn name_class(name: &str) -> String {
    let words = text::name_words(name);
    if words.len() < 2 {
        return String::new();
    }
    for w in &words {
        if w == "list" {
            return "list".into();
        }
        if let Some(class) = text::verb_class_of(&text::stem(w)) {
            return class.to_string();
        }
    }
    String::new()
}

/// A description's words as written, lower-cased, hyphenated words kept whole (`pre-defined`).
fn surface_words(description: &str) -> impl Iterator<Item = String> + '_ {
    description
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .map(|w| w.trim_matches('-').to_lowercase())
        .filter(|w| !w.is_empty())
}

/// How many description words a topic reads.
const TOPIC_WORDS: usize = 80;

/// What a template request says a tool is for, without its name: a verb class for the opener
/// and up to three keywords of its description that are not words of its name (so the task
/// measures the description, not the name against itself).
#[derive(Clone, Debug)]
pub(super) struct Topic {
    pub(super) class: String,
    pub(super) keywords: Vec<String>,
}

/// The topic of a tool, or why it has none: a description that adds no word of its own to the
/// name cannot be asked for without echoing the name.
pub(super) fn topic(tool: &Tool) -> Result<Topic, String> {
    let stems: std::collections::HashSet<String> =
        echo::name_stems(tool.name()).into_iter().collect();
    let mut class = name_class(tool.name());
    let mut keywords = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for w in surface_words(tool.description().unwrap_or("")).take(TOPIC_WORDS) {
        if echo::weak(&w)
            || w.chars().count() < 3
            || !w.chars().all(|c| c.is_alphabetic() || c == '-')
        {
            continue;
        }
        let s = text::stem(&w);
        if stems.contains(&s) {
            continue;
        }
        if let Some(c) = text::verb_class_of(&s) {
            // A verb says what kind of action, through the opener, not as a keyword.
            if class.is_empty() {
                class = c.to_string();
            }
            continue;
        }
        if seen.insert(s) {
            keywords.push(w);
        }
        if keywords.len() == 3 {
            break;
        }
    }
    if keywords.is_empty() {
        return Err(
            "its description adds no word of its own to the name, so no request can ask for it without echoing the name".into(),
        );
    }
    Ok(Topic { class, keywords })
}

/// The keyword arrangements tried, in order, until one neither echoes nor repeats a request.
fn arrangements(keywords: &[String]) -> Vec<Vec<String>> {
    let k = keywords.to_vec();
    let mut out = vec![k.clone()];
    let mut rev = k.clone();
    rev.reverse();
    out.push(rev);
    if k.len() == 3 {
        out.push(vec![k[0].clone(), k[2].clone(), k[1].clone()]);
        out.push(vec![k[1].clone(), k[0].clone(), k[2].clone()]);
    }
    if k.len() > 2 {
        out.push(k[..2].to_vec());
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|a| seen.insert(a.clone()));
    out
}

/// Every request a template can make for `tool` with these arguments, in the order tried.
pub(super) fn candidates<R: rand::Rng>(
    topic: &Topic,
    args: &Map<String, Value>,
    rng: &mut R,
) -> Vec<String> {
    let openers = phrasings(&topic.class);
    let start = rng.random_range(0..openers.len() as u64) as usize;
    let mut order: Vec<&String> = args.keys().collect();
    order.shuffle(rng);
    let mut out = Vec::new();
    for bare in [false, true] {
        let parts: Vec<String> = order
            .iter()
            .map(|k| arg_phrase(k, &args[k.as_str()], bare))
            .collect();
        let detail = if parts.is_empty() {
            String::new()
        } else {
            format!(" — {}", parts.join("; "))
        };
        for keywords in arrangements(&topic.keywords) {
            for v in 0..openers.len() {
                let opener = openers[(start + v) % openers.len()];
                out.push(format!("{opener} {}{detail}.", keywords.join(" ")));
            }
        }
    }
    out
}

/// True when a template request would echo or name its tool (or the lure's name).
pub(super) fn echoes(request: &str, tool: &Tool) -> bool {
    super::super::leak::leaks(request, tool.name()) || echo::echo_of(request, tool).is_some()
}

#[cfg(test)]
mod tests {
    use super::super::{GenerateOptions, generate};
    use super::*;
    use crate::catalog::Catalog;
    use serde_json::json;

    fn tool(name: &str, description: &str) -> Tool {
        Tool::from_value(
            json!({"name": name, "description": description, "inputSchema": {"type": "object", "properties": {"repo_path": {"type": "string"}}, "required": ["repo_path"]}}),
            "t",
        )
        .unwrap()
    }

    #[test]
    fn a_tool_whose_description_only_repeats_its_name_is_said_not_phrased() {
        let catalog = Catalog {
            tools: vec![
                tool("git_log", "Shows the git logs"),
                tool("git_status", "Shows the working tree status"),
            ],
            ..Default::default()
        };
        let opts = GenerateOptions {
            per_tool: 3,
            near_miss: 0,
            no_tool: 0,
            seed: 1,
            heldout: 0.0,
            only: vec![],
        };
        let g = generate(&catalog, &opts);
        assert_eq!(g.unphrased.len(), 1, "{:?}", g.unphrased);
        assert_eq!(g.unphrased[0].0, "git_log");
        assert!(
            g.unphrased[0].1.contains("adds no word"),
            "{:?}",
            g.unphrased
        );
        assert_eq!(g.tasks.len(), 3);
        for t in &g.tasks {
            assert_eq!(t.expected_tool(), Some("git_status"));
            let words = text::words(&t.request);
            assert!(
                !words.iter().any(|w| w == "git" || w == "status"),
                "{}",
                t.request
            );
            assert!(t.request.contains("working tree"), "{}", t.request);
        }
    }

    #[test]
    fn a_verb_in_the_name_or_description_picks_the_opener() {
        assert_eq!(name_class("slack_list_channels"), "list");
        assert_eq!(name_class("search_free_slots"), "search");
        assert_eq!(name_class("search"), "");
        let t = topic(&tool("git_status", "Shows the working tree status")).unwrap();
        assert_eq!(t.class, "read");
        assert_eq!(t.keywords, ["working", "tree"]);
    }
}

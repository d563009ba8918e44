//! The offline template generator: `direct` requests for each tool, `near_miss` requests that
//! borrow the vocabulary of the most similar sibling while still needing the intended tool,
//! and `no_tool` requests no tool serves. Arguments come from the seeded sampler (the ground
//! truth is the sampled tuple). Requests are built from the tool's name and arguments, never
//! from its description — so template tasks are a smoke test of routing and arguments, not a
//! measure of how confusable the descriptions are (write or LLM-generate tasks for that).

use rand::{RngExt, seq::SliceRandom};
use serde_json::{Map, Value};

use super::sampler::{rng_for, sample_args};
use super::task::{Expected, Kind, Split, Task};
use crate::catalog::{Catalog, Tool};
use crate::text;

#[derive(Clone, Debug)]
pub struct GenerateOptions {
    pub per_tool: usize,
    pub near_miss: usize,
    pub no_tool: usize,
    pub seed: u64,
    /// Share of tasks marked `heldout`.
    pub heldout: f64,
    /// Only these tools get direct/near-miss tasks (all when empty).
    pub only: Vec<String>,
}

/// What generation produced, and the tools it could not serve.
pub struct Generated {
    pub tasks: Vec<Task>,
    /// (tool, reason) for every tool whose schema could not be sampled.
    pub unsampleable: Vec<(String, String)>,
    /// (task id, reason) for every written request dropped: an echo of the instructions, a
    /// request that omits its values, a near duplicate.
    pub rejected: Vec<(String, String)>,
}

/// How a user asks for each kind of action (verb classes from the look-alike index).
fn phrasings(class: &str) -> &'static [&'static str] {
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

/// A short natural phrase for one argument.
fn arg_phrase(name: &str, value: &Value) -> String {
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
        Value::Bool(true) => return format!("with {words} on"),
        Value::Bool(false) => return format!("with {words} off"),
        other => other.to_string(),
    };
    format!("{words} {v}")
}

/// The verb class and the object words of a tool name (`search_free_slots` → `search`, `free slots`).
fn split_name(name: &str) -> (String, String) {
    let words = text::name_words(name);
    let Some(first) = words.first() else {
        return (String::new(), name.to_string());
    };
    let class = text::verb_class(&text::stem(first)).to_string();
    let is_verb = class != text::stem(first)
        || [
            "list", "run", "set", "check", "toggle", "trigger", "simulate", "echo",
        ]
        .contains(&first.as_str());
    if is_verb && words.len() > 1 {
        let class = if first == "list" {
            "list".to_string()
        } else {
            class
        };
        (class, words[1..].join(" "))
    } else {
        (String::new(), words.join(" "))
    }
}

fn direct_request<R: rand::Rng>(
    tool: &Tool,
    args: &Map<String, Value>,
    rng: &mut R,
    variant: usize,
) -> String {
    let (class, object) = split_name(tool.name());
    let openers = phrasings(&class);
    let opener =
        openers[(rng.random_range(0..openers.len() as u64) as usize + variant) % openers.len()];
    let mut parts: Vec<String> = args.iter().map(|(k, v)| arg_phrase(k, v)).collect();
    parts.shuffle(rng);
    let detail = if parts.is_empty() {
        String::new()
    } else {
        format!(" — {}", parts.join("; "))
    };
    format!("{opener} {object}{detail}.")
}

const NO_TOOL: &[&str] = &[
    "What's a good name for a golden retriever puppy?",
    "Translate 'good morning, how are you' into Italian.",
    "How many minutes are there in three and a half hours?",
    "Tell me a short joke about penguins.",
    "Which planet in our solar system has the most moons?",
    "Suggest a vegetarian dinner I can cook in twenty minutes.",
    "Write a haiku about autumn rain.",
    "What does the idiom 'break the ice' mean?",
    "Recommend three classic science fiction novels.",
    "How do I say thank you in Japanese?",
    "Explain the difference between a virus and a bacterium in one paragraph.",
    "What's 17 percent of 240?",
    "Give me a tip for falling asleep faster.",
    "Who painted the ceiling of the Sistine Chapel?",
    "What rhymes with orange?",
    "Summarise the plot of Romeo and Juliet in two sentences.",
    "Is a tomato a fruit or a vegetable?",
    "How far is the Moon from the Earth, roughly?",
    "Suggest a warm-up routine before running.",
    "What is the capital of Australia?",
];

/// True when the request shares no content word with the catalog's tool names and
/// descriptions (so no tool plausibly serves it).
fn off_catalog(request: &str, vocab: &std::collections::HashSet<String>) -> bool {
    text::content_words(request)
        .iter()
        .all(|w| !vocab.contains(w))
}

fn heldout<R: rand::Rng>(rng: &mut R, share: f64) -> Split {
    if share > 0.0 && rng.random_bool(share.clamp(0.0, 1.0)) {
        Split::Heldout
    } else {
        Split::Dev
    }
}

/// For each tool, its most similar sibling (index, look-alike score), if any: the tool a
/// near-miss request lures toward.
pub fn most_similar_siblings(catalog: &Catalog) -> Vec<Option<(usize, f64)>> {
    let settings = crate::lint::LintSettings {
        lookalike_threshold: 0.0,
        ..Default::default()
    };
    let cx = crate::lint::Context::new(catalog, &settings);
    let mut sibling: Vec<Option<(usize, f64)>> = vec![None; catalog.tools.len()];
    for p in cx.similar() {
        for (me, other) in [(p.a, p.b), (p.b, p.a)] {
            if sibling[me].is_none_or(|(_, s)| p.score > s) {
                sibling[me] = Some((other, p.score));
            }
        }
    }
    sibling
}

pub fn generate(catalog: &Catalog, opts: &GenerateOptions) -> Generated {
    let mut tasks = Vec::new();
    let mut unsampleable = Vec::new();
    let sibling = most_similar_siblings(catalog);
    for (i, tool) in catalog.tools.iter().enumerate() {
        if !opts.only.is_empty() && !opts.only.iter().any(|o| o == tool.name()) {
            continue;
        }
        let mut reason = None;
        let mut seen = std::collections::HashSet::new();
        for n in 0..opts.per_tool + opts.near_miss {
            let args = match sample_args(tool, opts.seed, n as u64) {
                Ok(a) => a,
                Err(e) => {
                    reason = Some(e);
                    break;
                }
            };
            let mut rng = rng_for(opts.seed, tool.name(), 1_000_000 + n as u64);
            let near = n >= opts.per_tool;
            let lure = near
                .then(|| sibling[i].map(|(j, _)| catalog.tools[j].name().to_string()))
                .flatten();
            if near && lure.is_none() {
                continue;
            }
            let phrasings_n = phrasings(&split_name(tool.name()).0).len();
            let Some(mut request) = (0..phrasings_n)
                .map(|v| direct_request(tool, &args, &mut rng.clone(), v))
                .find(|r| !seen.contains(r))
            else {
                continue; // every phrasing of these arguments is taken: no duplicate tasks
            };
            seen.insert(request.clone());
            if let Some(l) = &lure {
                let (_, their_object) = split_name(l);
                let (class, _) = split_name(l);
                let their_verb = phrasings(&class)[0].to_lowercase();
                request = format!("Not \"{their_verb} {their_object}\" this time. {request}");
            }
            let id = format!("{}-{}{}", tool.name(), if near { "n" } else { "d" }, n + 1);
            tasks.push(Task {
                id,
                request,
                kind: if near { Kind::NearMiss } else { Kind::Direct },
                expected: Some(Expected {
                    tool: tool.name().to_string(),
                    arguments: Some(args),
                    acceptable: vec![],
                }),
                lure,
                split: heldout(&mut rng, opts.heldout),
                source: "template".into(),
                seed: Some(opts.seed),
                warnings: vec![],
            });
        }
        if let Some(r) = reason {
            unsampleable.push((tool.name().to_string(), r));
        }
    }
    let mut vocab: std::collections::HashSet<String> = std::collections::HashSet::new();
    for t in &catalog.tools {
        vocab.extend(text::content_words(t.description().unwrap_or("")));
        vocab.extend(text::name_words(t.name()).iter().map(|w| text::stem(w)));
    }
    let mut pool: Vec<&str> = NO_TOOL
        .iter()
        .copied()
        .filter(|r| off_catalog(r, &vocab))
        .collect();
    let mut rng = rng_for(opts.seed, "(no tool)", 0);
    pool.shuffle(&mut rng);
    for (n, request) in pool.into_iter().take(opts.no_tool).enumerate() {
        tasks.push(Task {
            id: format!("no-tool-{}", n + 1),
            request: request.to_string(),
            kind: Kind::NoTool,
            expected: None,
            lure: None,
            split: heldout(&mut rng, opts.heldout),
            source: "template".into(),
            seed: Some(opts.seed),
            warnings: vec![],
        });
    }
    Generated {
        tasks,
        unsampleable,
        rejected: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn catalog() -> Catalog {
        let tools = [
            json!({"name": "cancel_event", "description": "Cancel a meeting and notify attendees.", "inputSchema": {"type": "object", "properties": {"event_id": {"type": "string"}}, "required": ["event_id"]}}),
            json!({"name": "delete_event", "description": "Delete a draft event silently.", "inputSchema": {"type": "object", "properties": {"event_id": {"type": "string"}}, "required": ["event_id"]}}),
            json!({"name": "broken", "description": "Cannot be sampled.", "inputSchema": {"type": "object", "properties": {"x": false}, "required": ["x"]}}),
        ];
        Catalog {
            tools: tools
                .into_iter()
                .map(|t| Tool::from_value(t, "t").unwrap())
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn deterministic_labelled_and_unsampleable_listed() {
        let opts = GenerateOptions {
            per_tool: 2,
            near_miss: 1,
            no_tool: 3,
            seed: 7,
            heldout: 0.3,
            only: vec![],
        };
        let a = generate(&catalog(), &opts);
        let b = generate(&catalog(), &opts);
        assert_eq!(
            serde_json::to_string(&a.tasks).unwrap(),
            serde_json::to_string(&b.tasks).unwrap()
        );
        assert_eq!(a.unsampleable.len(), 1);
        assert_eq!(a.unsampleable[0].0, "broken");
        let near: Vec<&Task> = a
            .tasks
            .iter()
            .filter(|t| t.kind == Kind::NearMiss)
            .collect();
        assert_eq!(near.len(), 2);
        assert_eq!(near[0].lure.as_deref(), Some("delete_event"));
        assert_eq!(a.tasks.iter().filter(|t| t.kind == Kind::NoTool).count(), 3);
        for t in &a.tasks {
            assert!(
                !crate::tasks::validate::leaks(&t.request, t.expected_tool().unwrap_or("-")),
                "{}",
                t.request
            );
        }
    }
}

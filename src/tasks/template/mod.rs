//! The offline template generator: `direct` requests for each tool, `near_miss` requests that
//! borrow the vocabulary of the most similar sibling while still needing the intended tool,
//! and `no_tool` requests no tool serves. Arguments come from the seeded sampler (the ground
//! truth is the sampled tuple). Requests are built from the tool's name and arguments, never
//! from its description — so template tasks are a smoke test of routing and arguments, not a
//! measure of how confusable the descriptions are (write or LLM-generate tasks for that).

use rand::{RngExt, seq::SliceRandom};

mod phrasing;

use phrasing::{Topic, candidates, echoes, phrasings, topic};

use super::echo;
use super::sampler::{rng_for, sample_args};
use super::task::{Expected, Kind, Split, Task};
use crate::catalog::Catalog;
use crate::text;

#[derive(Clone, Debug)]
pub(crate) struct GenerateOptions {
    pub per_tool: usize,
    pub near_miss: usize,
    pub no_tool: usize,
    pub seed: u64,
    /// Share of tasks marked `heldout`.
    pub heldout: f64,
    /// Only these tools get direct/near-miss tasks (all when empty).
    pub only: Vec<String>,
}

impl Default for GenerateOptions {
    /// `generate`'s defaults: 3 direct tasks per tool, 1 near-miss, 5 no-tool, seed 1.
    fn default() -> Self {
        GenerateOptions {
            per_tool: 3,
            near_miss: 1,
            no_tool: 5,
            seed: 1,
            heldout: 0.0,
            only: vec![],
        }
    }
}

/// What generation produced, and the tools it could not serve.
pub(crate) struct Generated {
    pub tasks: Vec<Task>,
    /// (tool, reason) for every tool whose schema could not be sampled.
    pub unsampleable: Vec<(String, String)>,
    /// (tool, reason) for every tool no template could ask for without echoing its name or
    /// quoting its description: it has no template tasks.
    pub unphrased: Vec<(String, String)>,
    /// (task id, reason) for every written request dropped: an echo of the instructions, a
    /// request that omits its values, a near duplicate.
    pub rejected: Vec<(String, String)>,
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
pub(crate) fn most_similar_siblings(catalog: &Catalog) -> Vec<Option<(usize, f64)>> {
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

pub(crate) fn generate(catalog: &Catalog, opts: &GenerateOptions) -> Generated {
    let mut generated = generate_unchecked(catalog, opts);
    generated.rejected = keep_valid(catalog, &mut generated.tasks);
    stratify(&mut generated.tasks, opts);
    generated
}

/// The held-out split, stratified by expected tool: each tool with two tasks or more has
/// `share` of them held out (at least one, never all), chosen by the seed; a tool with one
/// task keeps its draw. Without it a tool can fall in one split only, and a fix confirmed on
/// held-out tasks never meets it.
pub(crate) fn stratify(tasks: &mut [Task], opts: &GenerateOptions) {
    if opts.heldout <= 0.0 {
        return;
    }
    let mut groups: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    for (i, t) in tasks.iter().enumerate() {
        let key = t.expected_tool().unwrap_or("(no tool)").to_string();
        groups.entry(key).or_default().push(i);
    }
    for (tool, mut members) in groups {
        let n = members.len();
        if n < 2 {
            continue;
        }
        let k = ((n as f64 * opts.heldout.clamp(0.0, 1.0)).round() as usize).clamp(1, n - 1);
        let mut rng = rng_for(opts.seed, &tool, 7_000_000);
        members.shuffle(&mut rng);
        for (rank, i) in members.into_iter().enumerate() {
            tasks[i].split = if rank < k { Split::Heldout } else { Split::Dev };
        }
    }
}

/// Drops every task `validate` would reject (an error), so `generate` never writes a suite its
/// own `validate` refuses; returns (id, why) of each dropped one.
pub(crate) fn keep_valid(catalog: &Catalog, tasks: &mut Vec<Task>) -> Vec<(String, String)> {
    let numbered = tasks.iter().enumerate().map(|(i, t)| (i + 1, t));
    let problems = crate::tasks::validate::validate(catalog, numbered, &[], 0);
    let mut bad: std::collections::BTreeMap<usize, String> = Default::default();
    for p in problems {
        if p.severity == crate::lint::Severity::Error {
            bad.entry(p.line).or_insert(p.message);
        }
    }
    let mut rejected = Vec::new();
    let mut line = 0;
    tasks.retain(|t| {
        line += 1;
        match bad.remove(&line) {
            Some(why) => {
                rejected.push((t.id.clone(), why));
                false
            }
            None => true,
        }
    });
    rejected
}

fn generate_unchecked(catalog: &Catalog, opts: &GenerateOptions) -> Generated {
    let mut tasks = Vec::new();
    // Requests and ids of the whole suite (a request one tool already used, or an id a tool of
    // the same name already took, would be a duplicate `validate` rejects).
    let mut requests: std::collections::HashSet<String> = Default::default();
    let mut ids: std::collections::HashSet<String> = Default::default();
    let mut unsampleable = Vec::new();
    let mut unphrased = Vec::new();
    let sibling = most_similar_siblings(catalog);
    let topics: Vec<Result<Topic, String>> = catalog.tools.iter().map(topic).collect();
    for (i, tool) in catalog.tools.iter().enumerate() {
        if !opts.only.is_empty() && !opts.only.iter().any(|o| o == tool.name()) {
            continue;
        }
        let topic = match &topics[i] {
            Ok(t) => t,
            Err(why) => {
                unphrased.push((tool.name().to_string(), why.clone()));
                continue;
            }
        };
        let mut reason = None;
        let mut seen = std::collections::HashSet::new();
        let mut echoed = 0;
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
            let lure_at = near.then(|| sibling[i].map(|(j, _)| j)).flatten();
            let lure = lure_at.map(|j| &catalog.tools[j]);
            if near && lure.is_none() {
                continue;
            }
            // A near miss borrows the lure's topic: "Not <what the lure does> this time."
            let prefix = match lure_at.map(|j| &topics[j]) {
                Some(Ok(their)) => format!(
                    "Not \"{} {}\" this time. ",
                    phrasings(&their.class)[0].to_lowercase(),
                    their.keywords.join(" ")
                ),
                Some(Err(_)) => continue, // the lure has no topic to borrow
                None => String::new(),
            };
            // Requests that share no word at all with the name first ("Show me…" for `list_x`
            // rather than "List…"), in the seeded order otherwise.
            let mut tried: Vec<String> = candidates(topic, &args, &mut rng)
                .into_iter()
                .map(|r| format!("{prefix}{r}"))
                .collect();
            let stems = echo::name_stems(tool.name());
            tried.sort_by_cached_key(|r| {
                let said: std::collections::HashSet<String> =
                    text::words_iter(r).map(|w| text::stem(&w)).collect();
                stems.iter().filter(|s| said.contains(*s)).count()
            });
            let Some(request) = tried.into_iter().find(|r| {
                !seen.contains(r)
                    && !requests.contains(&r.trim().to_lowercase())
                    && !echoes(r, tool)
                    && lure.is_none_or(|l| {
                        !super::leak::leaks(r, l.name()) && !echo::name_echo(r, l.name())
                    })
            }) else {
                echoed += 1; // every phrasing echoes a name or repeats a request
                continue;
            };
            seen.insert(request.clone());
            requests.insert(request.trim().to_lowercase());
            let base = format!("{}-{}{}", tool.name(), if near { "n" } else { "d" }, n + 1);
            let mut id = base.clone();
            let mut k = 1;
            while !ids.insert(id.clone()) {
                k += 1;
                id = format!("{base}-{k}");
            }
            tasks.push(Task {
                id,
                request,
                kind: if near { Kind::NearMiss } else { Kind::Direct },
                expected: Some(Expected {
                    tool: tool.name().to_string(),
                    arguments: Some(args),
                    acceptable: vec![],
                }),
                lure: lure.map(|l| l.name().to_string()),
                split: heldout(&mut rng, opts.heldout),
                source: "template".into(),
                review: Some(crate::tasks::task::Review::Pending),
                seed: Some(opts.seed),
                warnings: vec![],
            });
        }
        if let Some(r) = reason {
            unsampleable.push((tool.name().to_string(), r));
        } else if echoed > 0 && !tasks.iter().any(|t| t.expected_tool() == Some(tool.name())) {
            unphrased.push((
                tool.name().to_string(),
                "every phrasing of its arguments echoes its name or its description".into(),
            ));
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
            review: Some(crate::tasks::task::Review::Pending),
            seed: Some(opts.seed),
            warnings: vec![],
        });
    }
    Generated {
        tasks,
        unsampleable,
        unphrased,
        rejected: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Tool;
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
        // No request carries its tool's name words or quotes its description.
        let catalog = catalog();
        for t in a.tasks.iter().filter(|t| t.expected.is_some()) {
            let tool = catalog.tool(t.expected_tool().unwrap()).unwrap();
            assert_eq!(echo::echo_of(&t.request, tool), None, "{}", t.request);
        }
        for t in &a.tasks {
            assert!(
                !crate::tasks::validate::leaks(&t.request, t.expected_tool().unwrap_or("-")),
                "{}",
                t.request
            );
        }
    }
}

#[cfg(test)]
mod valid_tests;

//! The LLM task writer (`toolgate generate --generator <model>`): the ground truth is the
//! sampled argument tuple, not the writer's opinion. For each tool the writer is asked for the
//! request a user would type that leads to exactly those arguments without naming the tool;
//! near-misses borrow the most similar sibling's vocabulary; no-tool requests are asked for
//! outright. A second pass checks every task for leakage and — asking the writer as a judge
//! which tool the request needs, given the whole catalog — solvability, regenerating an
//! ambiguous task a bounded number of times; what is still wrong is kept in `warnings`.

use serde_json::Value;

use super::sampler::sample_args;
use super::task::{Expected, Kind, Split, Task};
use super::template::{GenerateOptions, Generated};
use super::validate::leaks;
use crate::catalog::Catalog;
use crate::models::llm::LlmModel;

/// Regenerations of a task that leaks or that the judge routes elsewhere.
pub(crate) const MAX_REWRITES: u32 = 2;

const WRITER_SYSTEM: &str = "You write realistic requests that users type to an AI assistant. Reply with the request text only: no quotes, no preamble.";
const JUDGE_SYSTEM: &str = "You route user requests to tools. Reply with exactly one tool name from the list, or NONE when no tool serves the request. No other words.";

fn catalog_listing(catalog: &Catalog) -> String {
    catalog
        .tools
        .iter()
        .map(|t| {
            format!(
                "- {}: {}",
                t.name(),
                t.description().unwrap_or("").replace('\n', " ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn clean(reply: &str) -> String {
    reply
        .trim()
        .trim_matches(|c| c == '"' || c == '“' || c == '”')
        .trim()
        .to_string()
}

/// What the judge says the request needs (`None` for NONE or an unknown answer).
async fn judge(
    writer: &LlmModel,
    catalog: &Catalog,
    listing: &str,
    request: &str,
) -> Result<Option<String>, String> {
    let prompt =
        format!("Tools:\n{listing}\n\nRequest: {request}\n\nWhich tool does this request need?");
    let answer = writer.complete(JUDGE_SYSTEM, &prompt, 0).await?;
    let word = answer
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '-' && c != '.');
    Ok(catalog.tool(word).map(|t| t.name().to_string()))
}

pub(crate) async fn generate(
    catalog: &Catalog,
    opts: &GenerateOptions,
    writer: &LlmModel,
    spec: &str,
) -> Generated {
    let listing = catalog_listing(catalog);
    let sibling = super::template::most_similar_siblings(catalog);
    let solve = super::solvable::SolveIndex::new(catalog);
    let w = Writer {
        writer,
        catalog,
        listing: &listing,
        solve: &solve,
        spec,
        opts,
    };
    let mut tasks = Vec::new();
    let mut unsampleable = Vec::new();
    let mut rejected: Vec<(String, String)> = Vec::new();
    let split_for = |id: &str| {
        let h = crate::catalog::canonical::sha256_hex(&format!("{}:{id}", opts.seed));
        let x = u64::from_str_radix(&h[..12], 16).unwrap_or(0) as f64 / (1u64 << 48) as f64;
        if x < opts.heldout {
            Split::Heldout
        } else {
            Split::Dev
        }
    };
    let in_scope =
        |name: &str| opts.only.is_empty() || opts.only.iter().any(|o| o.as_str() == name);
    let slots = opts.per_tool + opts.near_miss;
    let total = catalog.tools.iter().filter(|t| in_scope(t.name())).count() * slots
        + usize::from(opts.no_tool > 0);
    // Each slot is several calls (write, judge, rewrites): show where the writer is.
    let bar = crate::progress::bar(total as u64, "requests");
    let mut done = 0u64;
    for (i, tool) in catalog.tools.iter().enumerate() {
        if !in_scope(tool.name()) {
            continue;
        }
        bar.set_message(crate::report::terminal::plain(tool.name()));
        bar.set_position(done);
        done += slots as u64;
        for n in 0..slots {
            bar.set_position(done - (slots - n) as u64);
            let args = match sample_args(tool, opts.seed, n as u64) {
                Ok(a) => a,
                Err(e) => {
                    unsampleable.push((tool.name().to_string(), e));
                    break;
                }
            };
            let near = n >= opts.per_tool;
            let lure = if near {
                sibling[i].map(|(j, _)| catalog.tools[j].name().to_string())
            } else {
                None
            };
            if near && lure.is_none() {
                continue;
            }
            let args_json = Value::Object(args.clone()).to_string();
            let mut prompt = format!(
                "An assistant has a tool described as: \"{}\".\nWrite one request a user would type that makes the assistant call it with exactly these arguments: {args_json}. Mention every value. Do not name the tool or quote its description.",
                tool.description().unwrap_or(tool.name())
            );
            if let Some(l) = &lure {
                let ld = catalog.tool(l).and_then(|t| t.description()).unwrap_or("");
                prompt.push_str(&format!(" Use wording that could make someone think of a different tool (\"{ld}\"), while the request still clearly needs the first one."));
            }
            let (request, warnings) = w.write(tool, &args, &prompt, n as u32).await;
            let Some(request) = request else { continue };
            let id = format!("{}-{}{}", tool.name(), if near { "n" } else { "d" }, n + 1);
            // Echoes and unsolvable requests are not tasks, however many rewrites it took.
            if let Some(w) = warnings
                .iter()
                .find(|w| w.starts_with("echo:") || w.starts_with("unsolvable:"))
            {
                rejected.push((id, w.clone()));
                continue;
            }
            if let Some(first) = tasks
                .iter()
                .find(|t: &&Task| super::quality::near_duplicate(&t.request, &request))
            {
                rejected.push((id, format!("near duplicate of `{}`", first.id)));
                continue;
            }
            tasks.push(Task {
                split: split_for(&id),
                id,
                request,
                kind: if near { Kind::NearMiss } else { Kind::Direct },
                expected: Some(Expected {
                    tool: tool.name().to_string(),
                    arguments: Some(args),
                    acceptable: vec![],
                }),
                lure,
                source: format!("llm:{spec}"),
                review: Some(crate::tasks::task::Review::Pending),
                seed: Some(opts.seed),
                warnings,
            });
        }
    }
    bar.set_position(done);
    if opts.no_tool > 0 {
        bar.set_message("no-tool requests");
        tasks.extend(w.no_tool_tasks(&split_for).await);
    }
    bar.finish_and_clear();
    // Never a suite `validate` rejects (an exact duplicate, a reused id, a leaked name).
    rejected.extend(super::template::keep_valid(catalog, &mut tasks));
    super::template::stratify(&mut tasks, opts);
    Generated {
        tasks,
        unsampleable,
        unphrased: vec![],
        rejected,
    }
}

/// What writing a request needs: the writer (and judge) model, the catalog and its listing,
/// the solvability index, the spec and the options.
struct Writer<'a> {
    writer: &'a LlmModel,
    catalog: &'a Catalog,
    listing: &'a str,
    solve: &'a super::solvable::SolveIndex,
    spec: &'a str,
    opts: &'a GenerateOptions,
}

impl Writer<'_> {
    /// A request for `tool` with `args`, rewritten up to [`MAX_REWRITES`] times while it has
    /// problems; the problems left (or why the writer failed).
    async fn write(
        &self,
        tool: &crate::catalog::Tool,
        args: &serde_json::Map<String, Value>,
        prompt: &str,
        n: u32,
    ) -> (Option<String>, Vec<String>) {
        let mut warnings = Vec::new();
        let mut request = None;
        for attempt in 0..=MAX_REWRITES {
            let text = match self
                .writer
                .complete(WRITER_SYSTEM, prompt, n * 10 + attempt)
                .await
            {
                Ok(t) => clean(&t),
                Err(e) => {
                    warnings = vec![format!("the writer failed: {e}")];
                    break;
                }
            };
            warnings = self.problems(tool, args, prompt, &text).await;
            request = Some(text);
            if warnings.is_empty() {
                break;
            }
        }
        (request, warnings)
    }

    /// What is wrong with `text` as a request for `tool`: it echoes the prompt or the
    /// description, omits a value, cannot be solved from the definitions, names a tool, or
    /// the judge routes it elsewhere.
    async fn problems(
        &self,
        tool: &crate::catalog::Tool,
        args: &serde_json::Map<String, Value>,
        prompt: &str,
        text: &str,
    ) -> Vec<String> {
        let mut problems = Vec::new();
        if let Some(why) = super::quality::echoed(text, prompt) {
            problems.push(format!("echo: {why}"));
        }
        if let Some(why) = super::echo::echo_of(text, tool) {
            problems.push(format!("echo: {why}"));
        }
        let missing = super::quality::missing_values(text, args);
        if !missing.is_empty() {
            problems.push(format!(
                "unsolvable: the request omits {}",
                missing.join(", ")
            ));
        }
        // Kept as a warning for the reviewer when no rewrite mends it.
        if let Some(why) = self.solve.check(self.catalog, text, tool.name()) {
            problems.push(format!("label: {why}"));
        }
        if let Some(t) = self.catalog.tools.iter().find(|t| leaks(text, t.name())) {
            problems.push(format!("the request names `{}`", t.name()));
        }
        match judge(self.writer, self.catalog, self.listing, text).await {
            Ok(Some(routed)) if routed == tool.name() => {}
            Ok(routed) => problems.push(format!(
                "the judge routed it to {}",
                routed
                    .map(|r| format!("`{r}`"))
                    .unwrap_or_else(|| "no tool".into())
            )),
            Err(e) => problems.push(format!("the judge failed: {e}")),
        }
        problems
    }

    /// Requests no tool of the catalog serves, written in one reply.
    async fn no_tool_tasks(&self, split_for: &impl Fn(&str) -> Split) -> Vec<Task> {
        let mut tasks = Vec::new();
        let prompt = format!(
            "An assistant has only these tools:\n{}\n\nWrite {} different requests a user might type that none of these tools can serve (everyday questions, other domains). One per line, no numbering.",
            self.listing, self.opts.no_tool
        );
        if let Ok(text) = self.writer.complete(WRITER_SYSTEM, &prompt, 0).await {
            for (n, line) in text
                .lines()
                .map(clean)
                .filter(|l| !l.is_empty())
                .take(self.opts.no_tool)
                .enumerate()
            {
                let mut warnings = Vec::new();
                if let Ok(Some(routed)) =
                    judge(self.writer, self.catalog, self.listing, &line).await
                {
                    warnings.push(format!("the judge routed it to `{routed}`"));
                }
                let id = format!("no-tool-{}", n + 1);
                tasks.push(Task {
                    split: split_for(&id),
                    id,
                    request: line,
                    kind: Kind::NoTool,
                    expected: None,
                    lure: None,
                    source: format!("llm:{}", self.spec),
                    review: Some(crate::tasks::task::Review::Pending),
                    seed: Some(self.opts.seed),
                    warnings,
                });
            }
        }
        tasks
    }
}

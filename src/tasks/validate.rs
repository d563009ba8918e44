//! `toolgate validate`: checks a task file against a catalog — unknown tools, arguments the
//! schema rejects, requests that name their tool (label leakage), duplicates, thin coverage,
//! malformed lines. Every problem names its line.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::Value;

use super::task::{Kind, Task};
use crate::catalog::Catalog;
use crate::lint::Severity;
use crate::text;

use super::leak::LeakIndex;
pub use super::leak::leaks;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Problem {
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub severity: Severity,
    pub message: String,
}

/// Compiled input-schema validators, one per tool, built on first use.
pub struct ArgChecker<'a> {
    catalog: &'a Catalog,
    cache: HashMap<String, Result<jsonschema::Validator, String>>,
}

impl<'a> ArgChecker<'a> {
    pub fn new(catalog: &'a Catalog) -> Self {
        ArgChecker {
            catalog,
            cache: HashMap::new(),
        }
    }

    /// `Ok(())` when `args` satisfy `tool`'s input schema; `Err(reasons)` otherwise. A schema
    /// that cannot be compiled yields `Err` with that reason.
    pub fn check(&mut self, tool: &str, args: &Value) -> Result<(), Vec<String>> {
        let catalog = self.catalog;
        // Compiled validators are kept for a few tools at a time (requests come grouped by
        // tool): at 10,000 tools, keeping every one held tens of megabytes.
        if self.cache.len() >= 64 && !self.cache.contains_key(tool) {
            self.cache.clear();
        }
        let entry = self.cache.entry(tool.to_string()).or_insert_with(|| {
            let schema = catalog
                .tool(tool)
                .and_then(|t| t.input_schema())
                .cloned()
                .unwrap_or(Value::Bool(true));
            jsonschema::validator_for(&schema)
                .map_err(|e| format!("its input schema does not compile: {e}"))
        });
        match entry {
            Err(e) => Err(vec![e.clone()]),
            Ok(v) => {
                let errors: Vec<String> = v
                    .iter_errors(args)
                    .take(5)
                    .map(|e| {
                        let at = e.instance_path().to_string();
                        if at.is_empty() {
                            e.to_string()
                        } else {
                            format!("{at}: {e}")
                        }
                    })
                    .collect();
                if errors.is_empty() {
                    Ok(())
                } else {
                    Err(errors)
                }
            }
        }
    }
}

/// The request with case, punctuation and numbers folded away, for near-duplicate detection.
fn shape(request: &str) -> String {
    let mut w: Vec<String> = text::words(request)
        .into_iter()
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .collect();
    w.sort();
    w.join(" ")
}

pub fn validate<'t>(
    catalog: &Catalog,
    tasks: impl IntoIterator<Item = (usize, &'t Task)>,
    malformed: &[(usize, String)],
    min_per_tool: usize,
) -> Vec<Problem> {
    let mut out: Vec<Problem> = malformed
        .iter()
        .map(|(line, e)| Problem {
            line: *line,
            id: None,
            severity: Severity::Error,
            message: format!("malformed task: {e}"),
        })
        .collect();
    let mut push = |line: usize, id: &str, severity, message: String| {
        out.push(Problem {
            line,
            id: Some(id.to_string()),
            severity,
            message,
        })
    };
    let mut checker = ArgChecker::new(catalog);
    // Which tools a request names, found without trying every tool on every request.
    let leak_index = LeakIndex::new(catalog.tools.iter().map(|t| t.name()));
    let solve_index = super::solvable::SolveIndex::new(catalog);
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut exact: HashMap<String, usize> = HashMap::new();
    let mut near: HashMap<String, usize> = HashMap::new();
    let mut per_tool: BTreeMap<&str, usize> = catalog.tools.iter().map(|t| (t.name(), 0)).collect();
    for (line, task) in tasks {
        let id = task.id.as_str();
        if let Some(first) = ids.insert(id, line) {
            push(
                line,
                id,
                Severity::Error,
                format!("id `{id}` is already used on line {first}"),
            );
        }
        let norm = task.request.trim().to_lowercase();
        if let Some(first) = exact.get(&norm) {
            push(
                line,
                id,
                Severity::Error,
                format!("exact duplicate of the request on line {first}"),
            );
        } else {
            exact.insert(norm, line);
            let s = shape(&task.request);
            match near.get(&s) {
                Some(first) => push(
                    line,
                    id,
                    Severity::Warning,
                    format!(
                        "near duplicate of the request on line {first} (same words, other numbers or order)"
                    ),
                ),
                None => {
                    near.insert(s, line);
                }
            }
        }
        for i in leak_index.leaked(&task.request) {
            let t = &catalog.tools[i];
            let own = task.expected_tool() == Some(t.name());
            push(
                line,
                id,
                if own {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                format!(
                    "the request names {} tool `{}` (label leakage: a model can match the name instead of the meaning)",
                    if own { "its own" } else { "the" },
                    t.name()
                ),
            );
        }
        for w in &task.warnings {
            push(
                line,
                id,
                Severity::Warning,
                format!("the task carries a warning from its writer: {w}"),
            );
        }
        if let Some(lure) = &task.lure {
            if catalog.tool(lure).is_none() {
                push(
                    line,
                    id,
                    Severity::Error,
                    format!("lure `{lure}` is not a tool of this catalog"),
                );
            }
            if task.kind != Kind::NearMiss {
                push(
                    line,
                    id,
                    Severity::Warning,
                    format!("a {} task has a lure", task.kind.as_str()),
                );
            }
        } else if task.kind == Kind::NearMiss {
            push(
                line,
                id,
                Severity::Warning,
                "a near_miss task has no `lure`".into(),
            );
        }
        let Some(exp) = &task.expected else { continue };
        for name in std::iter::once(&exp.tool).chain(&exp.acceptable) {
            if catalog.tool(name).is_none() {
                push(
                    line,
                    id,
                    Severity::Error,
                    format!("expected tool `{name}` is not a tool of this catalog"),
                );
            }
        }
        let Some(tool) = catalog.tool(&exp.tool) else {
            continue;
        };
        let named = leak_index
            .leaked(&task.request)
            .iter()
            .any(|&i| catalog.tools[i].name() == tool.name());
        if !named && let Some(why) = super::echo::echo_of(&task.request, tool) {
            push(
                line,
                id,
                Severity::Warning,
                format!(
                    "the request echoes `{}`: {why} (a router can match the words instead of the meaning; say what the user wants in their own words)",
                    tool.name()
                ),
            );
        }
        if !named && let Some(why) = solve_index.check(catalog, &task.request, tool.name()) {
            push(line, id, Severity::Warning, why);
        }
        if let Some(n) = per_tool.get_mut(tool.name()) {
            *n += 1;
        }
        if let Some(args) = &exp.arguments
            && let Err(errs) = checker.check(tool.name(), &Value::Object(args.clone()))
        {
            push(
                line,
                id,
                Severity::Error,
                format!(
                    "expected arguments are not valid for `{}`: {}",
                    tool.name(),
                    errs.join("; ")
                ),
            );
        }
    }
    if min_per_tool > 0 {
        for (tool, n) in per_tool {
            if n < min_per_tool {
                out.push(Problem {
                    line: 0,
                    id: None,
                    severity: Severity::Error,
                    message: format!(
                        "`{tool}` has {n} task(s), fewer than --min-per-tool {min_per_tool}"
                    ),
                });
            }
        }
    }
    out.sort_by_key(|p| p.line);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Tool;
    use crate::tasks::task::Numbered;
    use serde_json::json;

    fn catalog() -> Catalog {
        let tools = [
            json!({"name": "book_room", "inputSchema": {"type": "object", "properties": {"room": {"type": "string", "enum": ["Vega", "Orion"]}}, "required": ["room"]}}),
            json!({"name": "echo", "inputSchema": {"type": "object"}}),
        ];
        Catalog {
            tools: tools
                .into_iter()
                .map(|t| Tool::from_value(t, "t").unwrap())
                .collect(),
            ..Default::default()
        }
    }

    fn numbered(tasks: &[Numbered]) -> impl Iterator<Item = (usize, &Task)> {
        tasks.iter().map(|(l, t)| (*l, t))
    }

    fn task(v: Value) -> Task {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn leakage_matches_identifiers_not_english_words() {
        assert!(leaks("please run book_room for Vega", "book_room"));
        assert!(leaks("call bookRoom", "bookRoom"));
        assert!(!leaks("book a room called Vega", "book_room"));
        assert!(!leaks("echo this back to me", "echo"));
        assert!(leaks("use `echo` please", "echo"));
        assert!(leaks("call searchFreeSlots now", "search_free_slots"));
        assert!(leaks("try search-free-slots", "search_free_slots"));
        assert!(!leaks("search free slots on Friday", "search_free_slots"));
    }

    #[test]
    fn finds_each_kind_of_problem_with_its_line() {
        let tasks = vec![
            (
                1,
                task(
                    json!({"id": "a", "request": "Reserve Vega please", "kind": "direct", "expected": {"tool": "book_room", "arguments": {"room": "Vega"}}}),
                ),
            ),
            (
                2,
                task(
                    json!({"id": "b", "request": "reserve vega please", "kind": "direct", "expected": {"tool": "book_room", "arguments": {"room": "Mars"}}}),
                ),
            ),
            (
                3,
                task(
                    json!({"id": "c", "request": "use book_room for Orion 2", "kind": "near_miss", "expected": {"tool": "book_room", "arguments": {}}}),
                ),
            ),
            (
                4,
                task(
                    json!({"id": "d", "request": "send it", "kind": "direct", "expected": {"tool": "send_mail"}}),
                ),
            ),
            (
                5,
                task(json!({"id": "e", "request": "use book_room for Orion 3", "kind": "no_tool"})),
            ),
        ];
        let problems = validate(&catalog(), numbered(&tasks), &[(6, "bad json".into())], 2);
        let text: Vec<String> = problems
            .iter()
            .map(|p| format!("{}:{:?}:{}", p.line, p.severity, p.message))
            .collect();
        let has = |line: usize, needle: &str| {
            text.iter()
                .any(|t| t.starts_with(&format!("{line}:")) && t.contains(needle))
        };
        assert!(
            has(2, "exact duplicate of the request on line 1"),
            "{text:#?}"
        );
        assert!(has(2, "not valid for `book_room`"), "{text:#?}");
        assert!(has(3, "names its own tool `book_room`"), "{text:#?}");
        assert!(has(3, "required property"), "{text:#?}");
        assert!(has(3, "has no `lure`"), "{text:#?}");
        assert!(has(4, "`send_mail` is not a tool"), "{text:#?}");
        assert!(
            has(5, "near duplicate of the request on line 3"),
            "{text:#?}"
        );
        assert!(has(6, "malformed task: bad json"), "{text:#?}");
        assert!(has(0, "`echo` has 0 task(s)"), "{text:#?}");
        // Leakage is said once, not again as echo.
        assert!(!has(3, "echoes"), "{text:#?}");
        let echoing = vec![(
            1,
            task(
                json!({"id": "e", "request": "Book the room Vega", "kind": "direct", "expected": {"tool": "book_room", "arguments": {"room": "Vega"}}}),
            ),
        )];
        let problems = validate(&catalog(), numbered(&echoing), &[], 0);
        assert!(
            problems.iter().any(|p| p.severity == Severity::Warning
                && p.message
                    .contains("echoes `book_room`: it carries every word of the name")),
            "{problems:#?}"
        );
    }
}

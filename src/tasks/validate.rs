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

pub(crate) use super::args::ArgChecker;
use super::leak::LeakIndex;
pub(crate) use super::leak::leaks;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Problem {
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub severity: Severity,
    pub message: String,
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

pub(crate) fn validate<'t>(
    catalog: &Catalog,
    tasks: impl IntoIterator<Item = (usize, &'t Task)>,
    malformed: &[(usize, String)],
    min_per_tool: usize,
) -> Vec<Problem> {
    let mut v = Validator {
        catalog,
        checker: ArgChecker::new(catalog),
        // Which tools a request names, found without trying every tool on every request.
        leak_index: LeakIndex::new(catalog.tools.iter().map(|t| t.name())),
        solve_index: super::solvable::SolveIndex::new(catalog),
        ids: HashMap::new(),
        exact: HashMap::new(),
        near: HashMap::new(),
        per_tool: catalog.tools.iter().map(|t| (t.name(), 0)).collect(),
        out: malformed
            .iter()
            .map(|(line, e)| Problem {
                line: *line,
                id: None,
                severity: Severity::Error,
                message: format!("malformed task: {e}"),
            })
            .collect(),
    };
    for (line, task) in tasks {
        v.unique(line, task);
        v.leaks(line, task);
        for w in &task.warnings {
            v.push(
                line,
                task,
                Severity::Warning,
                format!("the task carries a warning from its writer: {w}"),
            );
        }
        v.lure(line, task);
        v.expected(line, task);
    }
    let mut out = v.out;
    if min_per_tool > 0 {
        for (tool, n) in v.per_tool {
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

/// The checks of one task file, with what they have seen so far.
struct Validator<'c, 't> {
    catalog: &'c Catalog,
    checker: ArgChecker<'c>,
    leak_index: LeakIndex<'c>,
    solve_index: super::solvable::SolveIndex,
    /// Task id → the line it was first used on.
    ids: HashMap<&'t str, usize>,
    /// Normalised request → its first line.
    exact: HashMap<String, usize>,
    /// Request's words without numbers, sorted → its first line.
    near: HashMap<String, usize>,
    /// Tasks expecting each tool.
    per_tool: BTreeMap<&'c str, usize>,
    out: Vec<Problem>,
}

impl<'t> Validator<'_, 't> {
    fn push(&mut self, line: usize, task: &Task, severity: Severity, message: String) {
        self.out.push(Problem {
            line,
            id: Some(task.id.clone()),
            severity,
            message,
        });
    }

    /// A repeated id, an exact duplicate request, or a near one (same words, other numbers or
    /// order).
    fn unique(&mut self, line: usize, task: &'t Task) {
        let id = task.id.as_str();
        if let Some(first) = self.ids.insert(id, line) {
            let message = format!("id `{id}` is already used on line {first}");
            self.push(line, task, Severity::Error, message);
        }
        let norm = task.request.trim().to_lowercase();
        if let Some(first) = self.exact.get(&norm) {
            let message = format!("exact duplicate of the request on line {first}");
            self.push(line, task, Severity::Error, message);
            return;
        }
        self.exact.insert(norm, line);
        let s = shape(&task.request);
        match self.near.get(&s) {
            Some(first) => {
                let message = format!(
                    "near duplicate of the request on line {first} (same words, other numbers or order)"
                );
                self.push(line, task, Severity::Warning, message);
            }
            None => {
                self.near.insert(s, line);
            }
        }
    }

    /// A request that names a tool (its own: an error; another: a warning).
    fn leaks(&mut self, line: usize, task: &Task) {
        for i in self.leak_index.leaked(&task.request) {
            let t = &self.catalog.tools[i];
            let own = task.expected_tool() == Some(t.name());
            let message = format!(
                "the request names {} tool `{}` (label leakage: a model can match the name instead of the meaning)",
                if own { "its own" } else { "the" },
                t.name()
            );
            let severity = if own {
                Severity::Error
            } else {
                Severity::Warning
            };
            self.push(line, task, severity, message);
        }
    }

    /// A lure that is not a tool, a lure on a task that is not a near miss, a near miss
    /// without one.
    fn lure(&mut self, line: usize, task: &Task) {
        let Some(lure) = &task.lure else {
            if task.kind == Kind::NearMiss {
                let message = "a near_miss task has no `lure`".into();
                self.push(line, task, Severity::Warning, message);
            }
            return;
        };
        if self.catalog.tool(lure).is_none() {
            let message = format!("lure `{lure}` is not a tool of this catalog");
            self.push(line, task, Severity::Error, message);
        }
        if task.kind != Kind::NearMiss {
            let message = format!("a {} task has a lure", task.kind.as_str());
            self.push(line, task, Severity::Warning, message);
        }
    }

    /// The expectation: tools of this catalog, a request that neither echoes the tool's
    /// description nor is unsolvable from it, and arguments the tool's schema accepts.
    fn expected(&mut self, line: usize, task: &Task) {
        let Some(exp) = &task.expected else { return };
        for name in std::iter::once(&exp.tool).chain(&exp.acceptable) {
            if self.catalog.tool(name).is_none() {
                let message = format!("expected tool `{name}` is not a tool of this catalog");
                self.push(line, task, Severity::Error, message);
            }
        }
        let catalog = self.catalog;
        let Some(tool) = catalog.tool(&exp.tool) else {
            return;
        };
        let named = self
            .leak_index
            .leaked(&task.request)
            .iter()
            .any(|&i| catalog.tools[i].name() == tool.name());
        if !named && let Some(why) = super::echo::echo_of(&task.request, tool) {
            let message = format!(
                "the request echoes `{}`: {why} (a router can match the words instead of the meaning; say what the user wants in their own words)",
                tool.name()
            );
            self.push(line, task, Severity::Warning, message);
        }
        if !named && let Some(why) = self.solve_index.check(catalog, &task.request, tool.name()) {
            self.push(line, task, Severity::Warning, why);
        }
        if let Some(n) = self.per_tool.get_mut(tool.name()) {
            *n += 1;
        }
        if let Some(args) = &exp.arguments
            && let Err(errs) = self
                .checker
                .check(tool.name(), &Value::Object(args.clone()))
        {
            let message = format!(
                "expected arguments are not valid for `{}`: {}",
                tool.name(),
                errs.join("; ")
            );
            self.push(line, task, Severity::Error, message);
        }
    }
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

//! Grading one decision against its task: the tool choice, then the arguments in layers —
//! schema validity, then values (canonical dates, case- and space-insensitive text, lists in
//! any order, nested objects; free text may sit inside a longer value; identifiers, emails and
//! dates must match exactly).

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::catalog::Catalog;
use crate::models::Decision;
use crate::tasks::Task;
use crate::tasks::validate::ArgChecker;

/// What happened on one task, in the scoring contract's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The expected (or an acceptable) tool was called, or nothing when no tool fits.
    Correct,
    /// Another tool of the catalog was called instead of the expected one.
    Confused,
    /// A tool was expected and nothing was called.
    Missed,
    /// No tool fits and one was called anyway.
    FalseCall,
    /// Transport failure, malformed output, or a tool name the catalog does not have.
    Error,
    /// The intended tool was called, but after a tool that may write (not read-only) which the
    /// task did not ask for: an agent that deletes before it books has not done the task.
    UnaskedWrite,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Graded {
    pub outcome: Outcome,
    /// Arguments valid against the tool's input schema (right tool, arguments given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args_valid: Option<bool>,
    /// Every expected argument value matched (right tool, expected arguments known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args_correct: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// An error's kind, as the model adapter typed it (or an invented tool name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<crate::models::ErrorKind>,
}

pub fn grade(task: &Task, d: &Decision, catalog: &Catalog, checker: &mut ArgChecker) -> Graded {
    let mut g = Graded {
        outcome: Outcome::Correct,
        args_valid: None,
        args_correct: None,
        notes: vec![],
        error_kind: None,
    };
    // Multi-step: the task passes when the intended call is made at any step and nothing
    // before it may have written without being asked; that step's arguments are graded.
    if d.error.is_none()
        && d.steps.len() > 1
        && let Some(exp) = &task.expected
        && let Some(at) = serving_step(task, d)
    {
        let step = &d.steps[at];
        if let Some(w) = d.steps[..at]
            .iter()
            .find(|s| !exp.accepts(&s.tool) && !read_only(catalog, &s.tool))
        {
            g.outcome = Outcome::UnaskedWrite;
            g.notes.push(format!(
                "called `{}` (not marked read-only) before `{}` without being asked",
                w.tool, step.tool
            ));
            return g;
        }
        let single = Decision {
            tool: Some(step.tool.clone()),
            arguments: step.arguments.clone(),
            ..Default::default()
        };
        return grade(task, &single, catalog, checker);
    }
    if let Some(e) = &d.error {
        g.outcome = Outcome::Error;
        g.notes.push(e.clone());
        g.error_kind = d.error_kind;
        return g;
    }
    let Some(called) = &d.tool else {
        g.outcome = if task.expected.is_some() {
            Outcome::Missed
        } else {
            Outcome::Correct
        };
        return g;
    };
    if catalog.tool(called).is_none() {
        g.outcome = Outcome::Error;
        g.notes.push(format!(
            "called `{called}`, which is not a tool of this catalog"
        ));
        g.error_kind = Some(crate::models::ErrorKind::InventedTool);
        return g;
    }
    let Some(exp) = &task.expected else {
        g.outcome = Outcome::FalseCall;
        return g;
    };
    if !exp.accepts(called) {
        g.outcome = Outcome::Confused;
        return g;
    }
    if let Some(args) = &d.arguments {
        let unknown = unknown_keys(args, catalog.tool(called).and_then(|t| t.input_schema()));
        match checker.check(called, &Value::Object(args.clone())) {
            Ok(()) if unknown.is_empty() => g.args_valid = Some(true),
            Ok(()) => {
                g.args_valid = Some(false);
                g.notes.extend(unknown);
            }
            Err(errs) => {
                g.args_valid = Some(false);
                g.notes.extend(errs);
                g.notes.extend(unknown);
            }
        }
        if let Some(want) = &exp.arguments {
            let schema = catalog.tool(called).and_then(|t| t.input_schema());
            let mismatches = compare_args(want, args, schema);
            g.args_correct = Some(mismatches.is_empty());
            g.notes.extend(mismatches);
        }
    }
    g
}

/// The step of a multi-step decision that serves the task: the first error-free call of the
/// expected (or an acceptable) tool.
pub fn serving_step(task: &Task, d: &Decision) -> Option<usize> {
    let exp = task.expected.as_ref()?;
    d.steps
        .iter()
        .position(|s| exp.accepts(&s.tool) && s.error.is_none())
}

/// Whether the server marks `tool` read-only (MCP's default is not read-only).
fn read_only(catalog: &Catalog, tool: &str) -> bool {
    catalog
        .tool(tool)
        .is_some_and(|t| t.hint("readOnlyHint") == Some(true))
}

/// Argument keys the tool's schema does not define (when it defines its properties and does
/// not allow others).
pub fn unknown_keys(args: &Map<String, Value>, schema: Option<&Value>) -> Vec<String> {
    let Some(s) = schema else { return vec![] };
    let Some(props) = s.get("properties").and_then(Value::as_object) else {
        return vec![];
    };
    if s.get("additionalProperties")
        .is_some_and(|a| a != &Value::Bool(false))
        || s.get("patternProperties").is_some()
    {
        return vec![];
    }
    args.keys()
        .filter(|k| !props.contains_key(*k))
        .map(|k| format!("`{k}` is not a parameter of this tool"))
        .collect()
}

/// Differences between expected and actual arguments (empty when every expected value matches).
pub fn compare_args(
    want: &Map<String, Value>,
    got: &Map<String, Value>,
    schema: Option<&Value>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (k, w) in want {
        let prop = schema
            .and_then(|s| s.get("properties"))
            .and_then(|p| p.get(k));
        match got.get(k) {
            None => out.push(format!("`{k}` missing (expected {w})")),
            Some(g) if !values_match(w, g, k, prop) => {
                out.push(format!("`{k}`: expected {w}, got {g}"))
            }
            Some(_) => {}
        }
    }
    out
}

static EMAIL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[^@\s]+@[^@\s]+\.[^@\s]+$").expect("regex"));
static UUID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
        .expect("regex")
});
static DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|z|[+-]\d{2}:?\d{2})?)?$")
        .expect("regex")
});

/// Seconds since 1970-01-01T00:00Z of an ISO 8601 date or date-time (UTC when no offset),
/// with a flag telling whether a time of day was given.
pub fn parse_instant(s: &str) -> Option<(i64, bool)> {
    let c = DATE.captures(s.trim())?;
    let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<i64>().ok());
    let (y, m, d) = (num(1)?, num(2)?, num(3)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm).
    let yy = if m <= 2 { y - 1 } else { y };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let timed = c.get(4).is_some();
    let (hh, mi, ss) = (
        num(4).unwrap_or(0),
        num(5).unwrap_or(0),
        num(6).unwrap_or(0),
    );
    if hh > 23 || mi > 59 || ss > 60 {
        return None;
    }
    let mut seconds = days * 86_400 + hh * 3600 + mi * 60 + ss;
    if let Some(off) = c
        .get(7)
        .map(|m| m.as_str())
        .filter(|o| !o.eq_ignore_ascii_case("z"))
    {
        let sign = if off.starts_with('-') { -1 } else { 1 };
        let digits: String = off.chars().filter(char::is_ascii_digit).collect();
        let h: i64 = digits.get(..2)?.parse().ok()?;
        let mm: i64 = digits.get(2..4)?.parse().ok()?;
        seconds -= sign * (h * 3600 + mm * 60);
    }
    Some((seconds, timed))
}

fn norm_text(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether a string value is an identifier-like value that must match exactly.
fn exact_kind(key: &str, schema: Option<&Value>, want: &str) -> bool {
    let fmt = schema
        .and_then(|s| s.get("format"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let k = key.to_lowercase();
    matches!(
        fmt,
        "email" | "uuid" | "uri" | "url" | "hostname" | "ipv4" | "ipv6"
    ) || schema.is_some_and(|s| s.get("enum").is_some() || s.get("pattern").is_some())
        || k == "id"
        || k.ends_with("_id")
        || k.ends_with("id") && key.ends_with("Id")
        || k.ends_with("ids")
        || EMAIL.is_match(want)
        || UUID.is_match(want)
        || (!want.contains(char::is_whitespace)
            && want.chars().any(|c| c.is_ascii_digit())
            && want.len() >= 4)
}

/// Whether a value is free text that may sit inside a longer value: a message, a body, a
/// query, a title — or any value of three words or more. Names, enums, statuses and other
/// short values compare whole ("paid" is not "unpaid", "Ann" is not "Joanne").
fn free_text(key: &str, want: &str) -> bool {
    const FREE: &[&str] = &[
        "message",
        "body",
        "text",
        "content",
        "query",
        "q",
        "search",
        "prompt",
        "description",
        "notes",
        "note",
        "comment",
        "summary",
        "title",
        "subject",
        "agenda",
        "reason",
    ];
    let k = key.to_lowercase();
    FREE.iter()
        .any(|f| k == *f || k.ends_with(&format!("_{f}")))
        || want.split_whitespace().count() >= 3
}

/// `hay` holds `needle` as whole words.
fn contains_words(hay: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Whether `got` matches `want` for argument `key` (schema `schema`, when known).
pub fn values_match(want: &Value, got: &Value, key: &str, schema: Option<&Value>) -> bool {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            let props = schema.and_then(|s| s.get("properties"));
            w.iter().all(|(k, wv)| {
                g.get(k)
                    .is_some_and(|gv| values_match(wv, gv, k, props.and_then(|p| p.get(k))))
            })
        }
        (Value::Array(w), Value::Array(g)) => {
            if w.len() != g.len() {
                return false;
            }
            let items = schema.and_then(|s| s.get("items"));
            let mut used = vec![false; g.len()];
            w.iter().all(|wv| {
                let hit = g
                    .iter()
                    .enumerate()
                    .find(|(i, gv)| !used[*i] && values_match(wv, gv, key, items));
                match hit {
                    Some((i, _)) => {
                        used[i] = true;
                        true
                    }
                    None => false,
                }
            })
        }
        (Value::Number(w), Value::Number(g)) => match (w.as_f64(), g.as_f64()) {
            (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a.abs().max(1.0),
            _ => w == g,
        },
        (Value::Number(w), Value::String(g)) => g.trim().parse::<f64>().ok() == w.as_f64(),
        (Value::String(w), Value::String(g)) => {
            if let (Some((a, ta)), Some((b, tb))) = (parse_instant(w), parse_instant(g)) {
                return ta == tb && a == b;
            }
            if EMAIL.is_match(w.trim()) {
                return w.trim().eq_ignore_ascii_case(g.trim());
            }
            if exact_kind(key, schema, w) {
                let enum_like = schema.is_some_and(|s| s.get("enum").is_some());
                return if enum_like {
                    w.trim().eq_ignore_ascii_case(g.trim())
                } else {
                    w.trim() == g.trim()
                };
            }
            let (w, g) = (norm_text(w), norm_text(g));
            w == g || (free_text(key, &w) && contains_words(&g, &w))
        }
        (w, g) => w == g,
    }
}

#[cfg(test)]
#[path = "grade_tests.rs"]
mod tests;

//! Grading one decision against its task: the tool choice over every call it made (steps and
//! parallel calls, with the unasked-write policy), then the arguments in layers — schema
//! validity and unknown keys at any depth, then values ([`super::values`]).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::catalog::Catalog;
use crate::models::Decision;
use crate::tasks::Task;
use crate::tasks::validate::ArgChecker;

use super::values::compare_args;
pub(crate) use crate::record::scores::{ArgsLayer, Outcome};

/// What a tool's annotations say about writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WriteRisk {
    /// `readOnlyHint: true`.
    ReadOnly,
    /// `readOnlyHint: false`, or `destructiveHint: true`.
    MayWrite,
    /// Neither hint: the server does not say (MCP's default is "may write").
    Unannotated,
}

/// The write risk of `tool` in `catalog` (`None` when the catalog has no such tool).
pub(crate) fn write_risk(catalog: &Catalog, tool: &str) -> Option<WriteRisk> {
    let t = catalog.tool(tool)?;
    Some(match (t.hint("readOnlyHint"), t.hint("destructiveHint")) {
        (Some(true), _) => WriteRisk::ReadOnly,
        (Some(false), _) | (None, Some(true)) => WriteRisk::MayWrite,
        (None, _) => WriteRisk::Unannotated,
    })
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Graded {
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
    /// The tool called without being asked, for an unasked write or unannotated call (the
    /// confusion matrix's column for the task).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unasked: Option<String>,
}

pub(crate) fn grade(
    task: &Task,
    d: &Decision,
    catalog: &Catalog,
    checker: &mut ArgChecker,
) -> Graded {
    let mut g = Graded {
        outcome: Outcome::Correct,
        args_valid: None,
        args_correct: None,
        notes: vec![],
        error_kind: None,
        unasked: None,
    };
    // Several calls (steps of a multi-step run, or parallel calls in one reply): the task
    // passes when the intended call is made, error-free, and no other call may have written
    // without being asked — before it, after it or beside it; that call's arguments are graded.
    let calls = d.calls();
    if d.error.is_none()
        && calls.len() > 1
        && let Some(exp) = &task.expected
        && let Some(at) = serving_index(exp, &calls)
    {
        let step = &calls[at];
        let mut unannotated = None;
        for (i, other) in calls.iter().enumerate() {
            if i == at || exp.accepts(&other.tool) {
                continue;
            }
            let when = match i.cmp(&at) {
                _ if other.turn.is_some() && other.turn == step.turn => "beside",
                _ if d.steps.is_empty() => "beside",
                std::cmp::Ordering::Less => "before",
                _ => "after",
            };
            match write_risk(catalog, &other.tool) {
                Some(WriteRisk::MayWrite) => {
                    g.outcome = Outcome::UnaskedWrite;
                    g.unasked = Some(other.tool.clone());
                    g.notes.push(format!(
                        "called `{}` (may write) {when} `{}` without being asked",
                        other.tool, step.tool
                    ));
                    return g;
                }
                Some(WriteRisk::Unannotated) if unannotated.is_none() => {
                    unannotated = Some((
                        other.tool.clone(),
                        format!(
                            "called `{}` (no readOnlyHint: assumed to write) {when} `{}` without being asked",
                            other.tool, step.tool
                        ),
                    ));
                }
                Some(_) => {}
                None => g.notes.push(format!(
                    "also called `{}`, not a tool of this catalog",
                    other.tool
                )),
            }
        }
        if let Some((tool, note)) = unannotated {
            g.outcome = Outcome::UnannotatedCall;
            g.unasked = Some(tool);
            g.notes.push(note);
            return g;
        }
        let single = Decision {
            tool: Some(step.tool.clone()),
            arguments: step.arguments.clone(),
            ..Default::default()
        };
        let mut one = grade(task, &single, catalog, checker);
        one.notes.splice(0..0, g.notes);
        return one;
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
            // Validity is the layer under value match: a call its tool would reject is
            // never "arguments correct", whatever its values.
            g.args_correct = Some(g.args_valid != Some(false) && mismatches.is_empty());
            g.notes.extend(mismatches);
        }
    }
    g
}

/// Which layer of argument grading failed, for a graded call of the right tool: `schema`
/// when the tool would reject the call (the values were not the first problem), `values`
/// when it is valid but an expected value differs, `None` when neither failed.
pub(crate) fn args_layer(g: &Graded) -> Option<ArgsLayer> {
    if g.args_valid == Some(false) {
        Some(ArgsLayer::Schema)
    } else if g.args_correct == Some(false) {
        Some(ArgsLayer::Values)
    } else {
        None
    }
}

impl ArgsLayer {
    /// How a report names the layer.
    pub(crate) fn label(self) -> &'static str {
        match self {
            ArgsLayer::Schema => "invalid (schema)",
            ArgsLayer::Values => "wrong value",
        }
    }
}

/// The call that serves the task: the first error-free call of the expected (or an
/// acceptable) tool among every call the decision made ([`Decision::calls`]).
pub(crate) fn serving_call(task: &Task, d: &Decision) -> Option<String> {
    let exp = task.expected.as_ref()?;
    let calls = d.calls();
    serving_index(exp, &calls).map(|i| calls[i].tool.clone())
}

/// Where in `calls` the first error-free call of the expected (or an acceptable) tool is.
fn serving_index(
    exp: &crate::tasks::task::Expected,
    calls: &[crate::models::Step],
) -> Option<usize> {
    calls
        .iter()
        .position(|s| exp.accepts(&s.tool) && s.error.is_none())
}

/// Argument keys the tool's schema does not define (when it defines its properties and does
/// not allow others), at any depth: `filter.stauts` inside a `filter` object whose schema
/// lists its keys is named as well.
pub(crate) fn unknown_keys(args: &Map<String, Value>, schema: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    unknown_in(args, schema, "", 0, &mut out);
    out
}

/// How deep [`unknown_keys`] reads nested arguments (a hostile reply is bounded).
const UNKNOWN_DEPTH: usize = 8;

fn unknown_in(
    args: &Map<String, Value>,
    schema: Option<&Value>,
    at: &str,
    depth: usize,
    out: &mut Vec<String>,
) {
    let Some(s) = schema else { return };
    let Some(props) = s.get("properties").and_then(Value::as_object) else {
        return;
    };
    let open = s
        .get("additionalProperties")
        .is_some_and(|a| a != &Value::Bool(false))
        || s.get("patternProperties").is_some();
    for (k, v) in args {
        let path = if at.is_empty() {
            k.clone()
        } else {
            format!("{at}.{k}")
        };
        let Some(prop) = props.get(k) else {
            if !open && out.len() < 20 {
                out.push(format!("`{path}` is not a parameter of this tool"));
            }
            continue;
        };
        if depth >= UNKNOWN_DEPTH {
            continue;
        }
        match v {
            Value::Object(inner) => unknown_in(inner, Some(prop), &path, depth + 1, out),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate().take(50) {
                    if let Value::Object(inner) = item {
                        let p = format!("{path}[{i}]");
                        unknown_in(inner, prop.get("items"), &p, depth + 1, out);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
#[path = "grade_tests.rs"]
mod tests;

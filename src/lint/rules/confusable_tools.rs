//! ## What it checks
//! Pairs of tools that models confuse, judged on the definitions alone, on a ladder built from
//! what real models did on public servers:
//! - **error**, the models will confuse them:
//!   - the same description (case, spacing and punctuation aside) *and* the same parameters,
//!     with the same types and shapes;
//!   - a deprecated (or "legacy", "superseded") tool listed beside the tool its description
//!     names as its replacement;
//!   - two names that look the same (`export_Iedger` with a capital I beside `export_ledger`).
//! - **warning**, likely confused:
//!   - the same description and the same required parameters but other optional ones;
//!   - names that differ in one word, and there only by a plural or one letter of a long
//!     word (`export_team` / `export_teams`; not `get_` / `set_`), whose descriptions look alike
//!     and whose required parameters are the same;
//!   - descriptions that restate each other almost word for word (a look-alike score of 0.75
//!     or more) over the same required parameters.
//!
//! Two tools with the same description but different required parameters are not reported
//! here: a request that fits one gives what the other cannot take, and models did not confuse
//! such pairs. TG004 still reports the duplicated text.
//!
//! ## Why it matters
//! A model chooses a tool from its name, description and parameters. In published runs of
//! several models on public MCP servers, every model confused two tools that shared both their
//! description and their parameters, and a deprecated tool listed beside its replacement was
//! called in its place every time; two tools with the same text but different required
//! parameters were not confused at all. These definition-level facts predicted real
//! confusions better than any score from generated requests, so this rule can gate a pull
//! request (`--fail-on-new warning` fails on the pairs a change introduces).
//!
//! ## Example
//! ```json
//! {"tools": [
//!   {"name": "search_issues", "description": "Search issues in a repository.",
//!    "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
//!   {"name": "find_issues", "description": "Search issues in a repository.",
//!    "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}]}
//! ```
//!
//! ## How to fix
//! If the two tools do the same job, list one of them (stop listing a deprecated tool once its
//! replacement ships). Otherwise make each description say what it acts on and when to use it
//! instead of the other, and let the parameters show the difference (the identifier each one
//! needs). Rename a tool whose name looks like another's.

use std::collections::BTreeMap;

use super::common::shown_pair;
use super::deprecated_tool::{deprecation, replacement};
use crate::catalog::Tool;
use crate::lint::{Context, Finding, Rule, Scope, Severity, rule_doc};
use crate::text;

pub(crate) const RULE: Rule = Rule {
    code: "TG032",
    slug: "confusable-tools",
    severity: Severity::Error,
    summary: "Two tools that models confuse: same text and same parameters, a deprecated tool beside its replacement, or names that look the same.",
    doc: rule_doc!("confusable_tools"),
    check,
    scope: Scope::Catalog,
};

/// The level of the kinds that take judgement (only optional parameters differ, one-letter
/// slips, restated descriptions): right 1 time in 3 on the held-out corpus of real servers
/// (fixtures/lint-heldout, labelled 2026-12-07), so they are notes; the near-certain kinds
/// (same text and parameters, deprecated beside its replacement, names that look the same)
/// stay errors.
const JUDGEMENT: Severity = Severity::Info;

/// A look-alike score from which two descriptions over the same required parameters are
/// reported (TG005 reports from 0.5).
const RESTATES: f64 = 0.75;
/// "`a` and `b`", each name shown safely.
fn both(a: &str, b: &str) -> String {
    let (a, b) = shown_pair(a, b);
    format!("`{a}` and `{b}`")
}

/// The name as it looks: Unicode's confusable skeleton (UTS #39: `I` and `l`, `0` and `O`,
/// Cyrillic `а` and Latin `a` look the same).
fn look(name: &str) -> String {
    unicode_security::confusable_detection::skeleton(name).collect()
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let tools: Vec<&Tool> = cx.catalog.tools.iter().collect();
    if tools.len() < 2 {
        return;
    }
    // (later tool, earlier tool) pairs already reported, so one pair is one finding.
    let mut seen: std::collections::HashSet<(usize, usize)> = Default::default();
    let mut report = |cx: &Context,
                      out: &mut Vec<Finding>,
                      (i, j): (usize, usize),
                      severity: Severity,
                      pointer: &str,
                      message: String,
                      help: &str| {
        let key = (i.max(j), i.min(j));
        if !seen.insert(key) {
            return;
        }
        let mut f = cx.finding(&RULE, Some(i), pointer, message, help);
        f.severity = severity;
        f.pair = Some(tools[j].name().to_string());
        out.push(f);
    };

    // Deprecated beside the replacement it names.
    for (i, tool) in tools.iter().enumerate() {
        let Some((replaced_by, says_replaced)) = replacement(tool, cx.catalog) else {
            continue;
        };
        let deprecated = deprecation(tool);
        // Deprecated by its own words or flags, or replaced ("superseded by X"); "legacy" or
        // "outdated" alone is not enough ("check for outdated packages").
        if deprecated.is_none() && !says_replaced {
            continue;
        }
        let Some(j) = tools.iter().position(|t| t.name() == replaced_by) else {
            continue;
        };
        let why = deprecated.map_or_else(
            || "its description says it is replaced".to_string(),
            |(_, why)| why,
        );
        report(
            cx,
            out,
            (i, j),
            Severity::Error,
            "/description",
            format!(
                "{}: the first is deprecated ({why}) and listed beside its replacement, so models keep calling the old tool",
                both(tool.name(), replaced_by)
            ),
            "Stop listing the deprecated tool once its replacement ships (keep accepting calls for old clients), or hide it behind a setting.",
        );
    }

    // Names that look the same.
    let mut by_look: BTreeMap<String, usize> = BTreeMap::new();
    for (i, tool) in tools.iter().enumerate() {
        let key = look(tool.name());
        match by_look.get(&key) {
            Some(&j) if tools[j].name() != tool.name() => report(
                cx,
                out,
                (i, j),
                Severity::Error,
                "/name",
                format!(
                    "{}: the two names look the same on screen and to a model reading them",
                    both(tool.name(), tools[j].name())
                ),
                "Rename one of the tools, in plain letters, so the names differ in a word.",
            ),
            Some(_) => {}
            None => {
                by_look.insert(key, i);
            }
        }
    }

    let sigs: Vec<Signature> = tools.iter().map(|t| Signature::of(t)).collect();

    // Same description: grouped by a hash of its words (case and punctuation aside), so the
    // work stays linear in tools and no copy of every description is kept; a group's members
    // are then compared word for word, so a hash collision joins nothing.
    let words = |i: usize| -> Vec<String> {
        text::words(tools[i].description().unwrap_or(""))
            .into_iter()
            .map(|w| w.to_lowercase())
            .collect()
    };
    let mut by_hash: std::collections::HashMap<u64, Vec<usize>> = Default::default();
    for i in 0..tools.len() {
        let w = words(i);
        if !w.is_empty() {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            w.hash(&mut h);
            by_hash.entry(h.finish()).or_default().push(i);
        }
    }
    let mut by_text: BTreeMap<Vec<String>, Vec<usize>> = BTreeMap::new();
    for group in by_hash.into_values().filter(|g| g.len() > 1) {
        for i in group {
            by_text.entry(words(i)).or_default().push(i);
        }
    }
    // Each later copy is paired with the first tool of its text and required parameters, so
    // a group of any size is one finding per copy (linear, and the same in any order of the
    // copies but the first).
    let mut same_text: Vec<(usize, usize)> = Vec::new();
    for group in by_text.values().filter(|g| g.len() > 1) {
        let mut first: BTreeMap<&BTreeMap<String, String>, usize> = BTreeMap::new();
        for &b in group {
            match first.get(&sigs[b].required) {
                Some(&a) => same_text.push((b, a)),
                None => {
                    first.insert(&sigs[b].required, b);
                }
            }
        }
    }
    for (i, j) in same_text {
        let (si, sj) = (&sigs[i], &sigs[j]);
        if si.required != sj.required {
            continue;
        }
        let (severity, what) = if si.optional == sj.optional {
            (Severity::Error, "the same parameters")
        } else {
            (
                JUDGEMENT,
                "the same required parameters (only optional ones differ)",
            )
        };
        report(
            cx,
            out,
            (i, j),
            severity,
            "/description",
            format!(
                "{}: the same description and {what}, so nothing in the definitions tells a model which to call",
                both(tools[i].name(), tools[j].name())
            ),
            "List one tool if both do the same job; otherwise say in each description what sets it apart and when to use the other.",
        );
    }

    // Names one letter apart, descriptions alike (TG005's look-alike pairs, or descriptions
    // that share most of their words), inputs that do not tell them apart. Candidates come from
    // the names alone (one-deletion neighbourhoods, linear in the catalog), so recall does not
    // depend on the look-alike index at any catalog size.
    let alike: std::collections::HashSet<(usize, usize)> = cx
        .lookalikes()
        .iter()
        .map(|p| (p.a.max(p.b), p.a.min(p.b)))
        .collect();
    for (i, j) in slip_candidates(&tools) {
        let (a, b) = (
            tools[i].name().to_lowercase(),
            tools[j].name().to_lowercase(),
        );
        if a.len() < 5
            || sigs[i].required != sigs[j].required
            || !one_edit_apart(&a, &b)
            || !one_word_slip(tools[i].name(), tools[j].name())
            || !(alike.contains(&(i, j)) || shared_words(tools[i], tools[j]) >= SLIP_SHARED)
            || crate::lint::lookalike::inputs_tell_apart(tools[i], tools[j])
        {
            continue;
        }
        report(
            cx,
            out,
            (i, j),
            JUDGEMENT,
            "/name",
            format!(
                "{}: names one letter apart, descriptions alike and the same inputs",
                both(tools[i].name(), tools[j].name())
            ),
            "Rename one tool so the names differ in a word that says what sets it apart, and say it in its description.",
        );
    }

    // Descriptions that restate each other over the same required parameters.
    for p in cx.lookalikes() {
        if p.score < RESTATES {
            continue;
        }
        let (i, j) = (p.a.max(p.b), p.a.min(p.b));
        if sigs[i].required != sigs[j].required
            || (sigs[i].required.is_empty() && sigs[i].optional != sigs[j].optional)
        {
            continue;
        }
        report(
            cx,
            out,
            (i, j),
            JUDGEMENT,
            "/description",
            format!(
                "{}: descriptions that restate each other (look-alike score {:.2}) over the same required parameters",
                both(tools[i].name(), tools[j].name()),
                p.score
            ),
            "Say in each description what sets the tool apart and when to use the other; if both do the same job, list one.",
        );
    }
}

mod signature;
mod slips;
#[cfg(test)]
mod tests;

use signature::Signature;
use slips::{SLIP_SHARED, one_edit_apart, one_word_slip, shared_words, slip_candidates};

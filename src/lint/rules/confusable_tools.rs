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

/// The pairs found so far: one finding per pair (the first check that names a pair reports
/// it).
struct Pairs<'a, 'c> {
    cx: &'a Context<'c>,
    tools: Vec<&'a Tool>,
    sigs: Vec<Signature>,
    /// (later tool, earlier tool) pairs already reported.
    seen: std::collections::HashSet<(usize, usize)>,
    out: &'a mut Vec<Finding>,
}

impl Pairs<'_, '_> {
    fn report(
        &mut self,
        (i, j): (usize, usize),
        severity: Severity,
        pointer: &str,
        message: String,
        help: &str,
    ) {
        if !self.seen.insert((i.max(j), i.min(j))) {
            return;
        }
        let mut f = self.cx.finding(&RULE, Some(i), pointer, message, help);
        f.severity = severity;
        f.pair = Some(self.tools[j].name().to_string());
        self.out.push(f);
    }

    fn both(&self, i: usize, j: usize) -> String {
        both(self.tools[i].name(), self.tools[j].name())
    }
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let tools: Vec<&Tool> = cx.catalog.tools.iter().collect();
    if tools.len() < 2 {
        return;
    }
    let sigs: Vec<Signature> = tools.iter().map(|t| Signature::of(t)).collect();
    let mut p = Pairs {
        cx,
        tools,
        sigs,
        seen: Default::default(),
        out,
    };
    deprecated_beside_replacement(&mut p);
    names_that_look_the_same(&mut p);
    same_description(&mut p);
    one_letter_slips(&mut p);
    restatements(&mut p);
}

/// A deprecated tool listed beside the replacement it names.
fn deprecated_beside_replacement(p: &mut Pairs) {
    for i in 0..p.tools.len() {
        let tool = p.tools[i];
        let Some((replaced_by, says_replaced)) = replacement(tool, p.cx.catalog) else {
            continue;
        };
        let deprecated = deprecation(tool);
        // Deprecated by its own words or flags, or replaced ("superseded by X"); "legacy" or
        // "outdated" alone is not enough ("check for outdated packages").
        if deprecated.is_none() && !says_replaced {
            continue;
        }
        let Some(j) = p.tools.iter().position(|t| t.name() == replaced_by) else {
            continue;
        };
        let why = deprecated.map_or_else(
            || "its description says it is replaced".to_string(),
            |(_, why)| why,
        );
        p.report(
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
}

/// Names that look the same (their confusable skeletons are equal).
fn names_that_look_the_same(p: &mut Pairs) {
    let mut by_look: BTreeMap<String, usize> = BTreeMap::new();
    for i in 0..p.tools.len() {
        let key = look(p.tools[i].name());
        match by_look.get(&key) {
            Some(&j) if p.tools[j].name() != p.tools[i].name() => {
                let message = format!(
                    "{}: the two names look the same on screen and to a model reading them",
                    p.both(i, j)
                );
                p.report(
                    (i, j),
                    Severity::Error,
                    "/name",
                    message,
                    "Rename one of the tools, in plain letters, so the names differ in a word.",
                );
            }
            Some(_) => {}
            None => {
                by_look.insert(key, i);
            }
        }
    }
}

/// Same description and the same required parameters: an error when every parameter is the
/// same, a judgement when only optional ones differ.
fn same_description(p: &mut Pairs) {
    for (i, j) in same_text_pairs(p) {
        let (si, sj) = (&p.sigs[i], &p.sigs[j]);
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
        let message = format!(
            "{}: the same description and {what}, so nothing in the definitions tells a model which to call",
            p.both(i, j)
        );
        p.report(
            (i, j),
            severity,
            "/description",
            message,
            "List one tool if both do the same job; otherwise say in each description what sets it apart and when to use the other.",
        );
    }
}

/// Tools with the same description (its words, case and punctuation aside) and the same
/// required parameters: each later copy paired with the first of its text. Grouped by a hash
/// of the words, so the work stays linear in tools and no copy of every description is kept;
/// a group's members are then compared word for word, so a hash collision joins nothing.
fn same_text_pairs(p: &Pairs) -> Vec<(usize, usize)> {
    let words = |i: usize| -> Vec<String> {
        text::words(p.tools[i].description().unwrap_or(""))
            .into_iter()
            .map(|w| w.to_lowercase())
            .collect()
    };
    let mut by_hash: std::collections::HashMap<u64, Vec<usize>> = Default::default();
    for i in 0..p.tools.len() {
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
    // One finding per copy (linear, and the same in any order of the copies but the first).
    let mut same_text: Vec<(usize, usize)> = Vec::new();
    for group in by_text.values().filter(|g| g.len() > 1) {
        let mut first: BTreeMap<&BTreeMap<String, String>, usize> = BTreeMap::new();
        for &b in group {
            match first.get(&p.sigs[b].required) {
                Some(&a) => same_text.push((b, a)),
                None => {
                    first.insert(&p.sigs[b].required, b);
                }
            }
        }
    }
    same_text
}

/// Names one letter apart, descriptions alike (TG005's look-alike pairs, or descriptions that
/// share most of their words), inputs that do not tell them apart. Candidates come from the
/// names alone (one-deletion neighbourhoods, linear in the catalog), so recall does not
/// depend on the look-alike index at any catalog size.
fn one_letter_slips(p: &mut Pairs) {
    let cx = p.cx;
    let alike: std::collections::HashSet<(usize, usize)> = cx
        .lookalikes()
        .iter()
        .map(|l| (l.a.max(l.b), l.a.min(l.b)))
        .collect();
    for (i, j) in slip_candidates(&p.tools) {
        let (ti, tj) = (p.tools[i], p.tools[j]);
        let (a, b) = (ti.name().to_lowercase(), tj.name().to_lowercase());
        if a.len() < 5
            || p.sigs[i].required != p.sigs[j].required
            || !one_edit_apart(&a, &b)
            || !one_word_slip(ti.name(), tj.name())
            || !(alike.contains(&(i, j)) || shared_words(ti, tj) >= SLIP_SHARED)
            || crate::lint::lookalike::inputs_tell_apart(ti, tj)
        {
            continue;
        }
        let message = format!(
            "{}: names one letter apart, descriptions alike and the same inputs",
            p.both(i, j)
        );
        p.report(
            (i, j),
            JUDGEMENT,
            "/name",
            message,
            "Rename one tool so the names differ in a word that says what sets it apart, and say it in its description.",
        );
    }
}

/// Descriptions that restate each other over the same required parameters.
fn restatements(p: &mut Pairs) {
    let cx = p.cx;
    for l in cx.lookalikes() {
        if l.score < RESTATES {
            continue;
        }
        let (i, j) = (l.a.max(l.b), l.a.min(l.b));
        let (si, sj) = (&p.sigs[i], &p.sigs[j]);
        if si.required != sj.required || (si.required.is_empty() && si.optional != sj.optional) {
            continue;
        }
        let message = format!(
            "{}: descriptions that restate each other (look-alike score {:.2}) over the same required parameters",
            p.both(i, j),
            l.score
        );
        p.report(
            (i, j),
            JUDGEMENT,
            "/description",
            message,
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

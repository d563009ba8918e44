//! The lint stage: rules over a catalog produce findings; one stage applies the user's
//! configuration (rules off, severities remapped, tools ignored); renderers live in `report`.

pub mod belt;
mod configure;
pub(crate) mod finding;
mod host_schema;
pub(crate) mod hosts;
mod lookalike;
pub(crate) mod report;
mod rule;
mod rules;
pub(crate) mod settings;

pub(crate) use finding::{DOCS_BASE, FindingGroup, docs_url};
pub use finding::{Finding, Severity};
pub(crate) use lookalike::lookalike_pairs;
pub use rule::Context;
pub(crate) use rule::rule_doc;
pub(crate) use rule::{Rule, Scope};
pub use rules::RULES;
/// The one local `$ref` resolver (JSON pointers, `$anchor`, `$id`), shared with the sampler.
pub(crate) use rules::resolve_ref;
pub(crate) use settings::Level;
pub use settings::LintSettings;

use crate::catalog::Catalog;

/// Finds a rule by code (`TG005`, case-insensitive) or slug.
pub(crate) fn rule(id: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|r| r.code.eq_ignore_ascii_case(id) || r.slug == id)
}

/// Starts compiling the lint rules' patterns and the tokenizer's on another thread, so the work
/// overlaps the server's start and listing (call it before connecting; linting later waits
/// for what is not done yet). One plain thread, not the rayon pool: a pool's idle workers spin
/// while they wait, which cost a small server's `inspect` a third more CPU than the work.
pub(crate) fn warm_up() {
    let spawned = std::thread::Builder::new()
        .name("toolgate-warm-up".into())
        .spawn(|| {
            rules::warm_up();
            crate::tokens::count("warm");
        });
    // Without the thread the patterns compile on first use instead.
    drop(spawned);
}

/// Catalogs up to this many tools are linted rule after rule on the calling thread: their rules
/// take a few milliseconds, less than waking a thread pool costs.
const SEQUENTIAL_TOOLS: usize = 64;

/// Runs every rule, then applies the configuration. Findings come sorted by tool order,
/// then code.
pub fn run(catalog: &Catalog, settings: &LintSettings) -> Vec<Finding> {
    run_in(&Context::new(catalog, settings))
}

/// Like [`run`], over a context the caller already built (and reuses for token counts).
pub fn run_in(cx: &Context) -> Vec<Finding> {
    run_accepting(cx).0
}

/// Like [`run_in`], and also the findings a `[[lint.accept]]` entry accepted, each with its
/// reason (after ignores and severity remapping, in the same order).
pub(crate) fn run_accepting(cx: &Context) -> (Vec<Finding>, Vec<(Finding, String)>) {
    use rayon::prelude::*;
    if !cx.catalog.tools.is_empty() {
        rules::warm_up();
    }
    let settings = cx.settings;
    // Rules are independent readers of the context, so they run on every core; most of a small
    // catalog's lint is compiling the rules' patterns, which then happens side by side. The
    // findings are joined in rule order, so the result does not depend on the schedule.
    let wanted = |rule: &&Rule| cx.runs(rule) && settings.level_of(rule.code) != Some(Level::Off);
    let check = |rule: &Rule| {
        let mut found = Vec::new();
        (rule.check)(cx, &mut found);
        found
    };
    let per_rule: Vec<Vec<Finding>> = if cx.catalog.tools.len() <= SEQUENTIAL_TOOLS {
        RULES.iter().filter(wanted).map(check).collect()
    } else {
        RULES.par_iter().filter(wanted).map(check).collect()
    };
    let all: Vec<Finding> = per_rule.into_iter().flatten().collect();
    // In a belt each server is one section; an entry may be about another server's tool.
    let unused = if cx.in_belt {
        vec![]
    } else {
        settings.unused_accepts(&all)
    };
    for i in unused {
        let a = &settings.accept[i];
        crate::elog!(
            "note: [[lint.accept]] entry {} ({} on `{}`) matches no finding any more: remove it",
            i + 1,
            a.rule,
            crate::lint::rules::common::shown_name(&a.tool)
        );
    }
    let mut kept: Vec<Finding> = Vec::new();
    let mut accepted: Vec<(Finding, String)> = Vec::new();
    for f in all {
        let reason = settings.accepted_reason(&f).map(str::to_string);
        match (settings.apply_unaccepted(f), reason) {
            (Some(f), Some(why)) => accepted.push((f, why)),
            (Some(f), None) => kept.push(f),
            (None, _) => {}
        }
    }
    let order = |a: &Finding| {
        (
            a.tool_index.unwrap_or(usize::MAX),
            a.code.clone(),
            a.pointer.clone(),
        )
    };
    kept.sort_by_key(order);
    accepted.sort_by_key(|(f, _)| order(f));
    (kept, accepted)
}

#[cfg(test)]
mod tests;

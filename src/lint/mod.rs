//! The lint stage: rules over a catalog produce findings; one stage applies the user's
//! configuration (rules off, severities remapped, tools ignored); renderers live in `report`.

pub mod belt;
pub mod finding;
mod host_schema;
pub mod hosts;
mod lookalike;
pub mod lookalike_bench;
pub mod precision_bench;
pub mod report;
mod rules;
pub mod settings;

use std::sync::OnceLock;

use serde_json::json;

pub use finding::{Finding, FindingGroup, Severity};
pub(crate) use lookalike::lookalike_pairs;
pub use rules::RULES;
/// The one local `$ref` resolver (JSON pointers, `$anchor`, `$id`), shared with the sampler.
pub(crate) use rules::resolve_ref;
pub use settings::{Level, LintSettings, RuleConfig};

use crate::catalog::{Catalog, Tool};
use crate::text::{self, SimilarPair};

/// Where rule pages are published.
pub const DOCS_BASE: &str = "https://github.com/toolgate-dev/toolgate/blob/main/docs/rules";

pub fn docs_url(code: &str, slug: &str) -> String {
    format!("{DOCS_BASE}/{code}-{slug}.md")
}

/// Includes the doc comment that build.rs extracted from a rule file.
macro_rules! rule_doc {
    ($stem:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/rule_docs/", $stem, ".md"))
    };
}
pub(crate) use rule_doc;

/// A lint rule: identity, default severity, docs, and the check itself.
pub struct Rule {
    /// `TG` + three digits; never reused.
    pub code: &'static str,
    /// Kebab-case name of the problem.
    pub slug: &'static str,
    pub severity: Severity,
    /// One line.
    pub summary: &'static str,
    /// The rule file's doc comment (What it checks / Why it matters / Example / How to fix).
    pub doc: &'static str,
    pub check: fn(&Context, &mut Vec<Finding>),
    /// Where the rule looks: one catalog, or across a belt's servers too.
    pub scope: Scope,
}

/// What a rule checks: the lint stage runs each rule where its scope says, so no caller
/// picks rules out by code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// One catalog; in a belt, each server's catalog.
    Catalog,
    /// One catalog alone; in a belt it is checked once across every server instead (the belt
    /// stage's check replaces each server's own).
    CatalogOrBelt,
    /// Only across a belt's servers (a catalog alone has nothing to check).
    Belt,
}

impl Rule {
    /// The rule's Markdown page (docs/rules/CODE-slug.md).
    pub fn page(&self) -> String {
        format!(
            "# {} {}\n\nDefault severity: **{}**. {}\n\n{}",
            self.code, self.slug, self.severity, self.summary, self.doc
        )
    }
}

/// Finds a rule by code (`TG005`, case-insensitive) or slug.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|r| r.code.eq_ignore_ascii_case(id) || r.slug == id)
}

/// What rules see: the catalog, settings, and shared precomputed facts.
pub struct Context<'a> {
    pub catalog: &'a Catalog,
    pub settings: &'a LintSettings,
    /// Token cost of each tool's definition, and whether the count is exact.
    pub tool_tokens: Vec<(usize, bool)>,
    pairs: OnceLock<Vec<SimilarPair>>,
    lookalikes: OnceLock<Vec<SimilarPair>>,
    content: OnceLock<Vec<Vec<String>>>,
    /// Unit-length embedding of each tool (tool order), when an embedding model is configured.
    semantic: Option<Vec<Vec<f32>>>,
    /// The catalog is one server of a belt: rules of [`Scope::CatalogOrBelt`] are left to the
    /// belt stage, which checks them across every server.
    in_belt: bool,
    /// The server's name in the client config it came from (a belt's key): what hosts prefix
    /// its tools' names with.
    pub config_key: Option<&'a str>,
}

/// The JSON a function-calling API sends the model for a tool (name, description, schema).
pub fn wire_text(tool: &Tool) -> String {
    let v = json!({
        "name": tool.name(),
        "description": tool.description().unwrap_or(""),
        "parameters": tool.input_schema().cloned().unwrap_or(json!({})),
    });
    serde_json::to_string(&v).unwrap_or_default()
}

impl<'a> Context<'a> {
    pub fn new(catalog: &'a Catalog, settings: &'a LintSettings) -> Self {
        if !catalog.tools.is_empty() {
            rules::warm_up();
        }
        let tool_tokens = catalog
            .tools
            .iter()
            .map(|t| crate::tokens::count(&wire_text(t)))
            .collect();
        Context {
            catalog,
            settings,
            tool_tokens,
            pairs: OnceLock::new(),
            lookalikes: OnceLock::new(),
            content: OnceLock::new(),
            semantic: None,
            in_belt: false,
            config_key: catalog.config_key.as_deref(),
        }
    }

    /// The context of a server read under `key` of a client config.
    pub fn named(mut self, key: &'a str) -> Self {
        self.config_key = Some(key);
        self
    }

    /// The context of one server of a belt (see [`Scope`]).
    pub fn in_belt(mut self) -> Self {
        self.in_belt = true;
        self
    }

    /// Whether `rule` runs in this context.
    fn runs(&self, rule: &Rule) -> bool {
        match rule.scope {
            Scope::Catalog => true,
            Scope::CatalogOrBelt => !self.in_belt,
            Scope::Belt => false,
        }
    }

    /// Adds each tool's unit-length embedding (one per tool, in catalog order): look-alike
    /// pairs then need an embedding cosine of at least `embed_floor` as well.
    pub fn with_semantic(mut self, vectors: Vec<Vec<f32>>) -> Self {
        if vectors.len() == self.catalog.tools.len() {
            self.semantic = Some(vectors);
            self.lookalikes = OnceLock::new();
        }
        self
    }

    /// The embedding cosine of tools `a` and `b`, when embeddings were added.
    pub fn cosine(&self, a: usize, b: usize) -> Option<f32> {
        let v = self.semantic.as_ref()?;
        Some(v.get(a)?.iter().zip(v.get(b)?).map(|(x, y)| x * y).sum())
    }

    pub fn tools(&self) -> impl Iterator<Item = (usize, &'a Tool)> {
        self.catalog.tools.iter().enumerate()
    }

    pub fn total_tokens(&self) -> usize {
        self.tool_tokens.iter().map(|t| t.0).sum::<usize>()
            + self
                .catalog
                .instructions
                .as_deref()
                .map_or(0, |i| crate::tokens::count(i).0)
    }

    /// The content words (stop words dropped, stemmed) of tool `i`'s description, worked out
    /// once for every rule that reads them.
    pub fn content_words(&self, i: usize) -> &[String] {
        let all = self.content.get_or_init(|| {
            self.catalog
                .tools
                .iter()
                .map(|t| text::content_words(t.description().unwrap_or("")))
                .collect()
        });
        all.get(i).map_or(&[], Vec::as_slice)
    }

    /// Look-alike tool pairs at or above the configured threshold, most alike first.
    pub fn similar(&self) -> &[SimilarPair] {
        self.pairs.get_or_init(|| {
            if self.catalog.tools.len() < 2 {
                return Vec::new();
            }
            let docs: Vec<_> = self
                .catalog
                .tools
                .iter()
                .enumerate()
                .map(|(i, t)| text::similarity_doc_of(t.name(), self.content_words(i)))
                .collect();
            text::similar_pairs(&docs, self.settings.lookalike_threshold)
        })
    }

    /// The look-alike pairs TG005 and TG006 report: pairs at or above the threshold once verb
    /// and object-noun synonyms are folded, without pairs that plainly do different jobs
    /// ([`text::distinct_jobs`]) and without pairs that share one name (TG001's business).
    /// With embeddings ([`Context::with_semantic`]), a pair also needs an embedding cosine of
    /// at least `embed_floor`. [`Context::similar`] keeps every alike pair, for the task
    /// sampler's near-miss lures.
    pub fn lookalikes(&self) -> &[SimilarPair] {
        self.lookalikes.get_or_init(|| {
            // No pairs in a one-tool catalog: nor the content words they would be built from.
            if self.catalog.tools.len() < 2 {
                return Vec::new();
            }
            let tools: Vec<&Tool> = self.catalog.tools.iter().collect();
            let content: Vec<&[String]> = (0..tools.len()).map(|i| self.content_words(i)).collect();
            let mut pairs =
                lookalike_pairs(&tools, &content, self.settings.lookalike_threshold, true);
            pairs.retain(|p| {
                self.cosine(p.a, p.b)
                    .is_none_or(|c| f64::from(c) >= self.settings.embed_floor)
            });
            pairs
        })
    }

    /// Builds a finding of `rule` about tool `idx` (or the catalog when `None`).
    pub fn finding(
        &self,
        rule: &Rule,
        idx: Option<usize>,
        pointer: &str,
        message: String,
        help: &str,
    ) -> Finding {
        Finding {
            group: None,
            code: rule.code.into(),
            slug: rule.slug.into(),
            severity: rule.severity,
            tool: idx.map(|i| self.catalog.tools[i].name().to_string()),
            tool_index: idx,
            pointer: pointer.into(),
            message,
            help: help.into(),
            related: Vec::new(),
            pair: None,
        }
    }
}

/// Starts compiling the lint rules' patterns and the tokenizer's on another thread, so the work
/// overlaps the server's start and listing (call it before connecting; linting later waits
/// for what is not done yet). One plain thread, not the rayon pool: a pool's idle workers spin
/// while they wait, which cost a small server's `inspect` a third more CPU than the work.
pub fn warm_up() {
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
pub fn run_accepting(cx: &Context) -> (Vec<Finding>, Vec<(Finding, String)>) {
    use rayon::prelude::*;
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

//! What a lint rule is (its identity, default severity, docs and check) and what it sees
//! when it runs: the catalog, the settings and the facts rules share (token counts, similar
//! pairs, look-alikes), computed once per catalog.

use std::sync::OnceLock;

use serde_json::json;

use super::finding::Finding;
use super::lookalike::lookalike_pairs;
use super::settings::LintSettings;
use crate::catalog::{Catalog, Tool};
use crate::record::lint::Severity;
use crate::text::{self, SimilarPair};

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
    pub(super) in_belt: bool,
    /// The server's name in the client config it came from (a belt's key): what hosts prefix
    /// its tools' names with.
    pub config_key: Option<&'a str>,
}

/// The JSON a function-calling API sends the model for a tool (name, description, schema).
pub(crate) fn wire_text(tool: &Tool) -> String {
    let v = json!({
        "name": tool.name(),
        "description": tool.description().unwrap_or(""),
        "parameters": tool.input_schema().cloned().unwrap_or(json!({})),
    });
    serde_json::to_string(&v).unwrap_or_default()
}

impl<'a> Context<'a> {
    pub fn new(catalog: &'a Catalog, settings: &'a LintSettings) -> Self {
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
    pub(super) fn runs(&self, rule: &Rule) -> bool {
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

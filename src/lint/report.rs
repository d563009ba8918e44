//! The lint stage's product: the versioned lint report (`toolgate.lint/v1`, a record type)
//! built from a catalog's (or a belt's) findings, each located in the snapshot or lock file
//! when one is known. The renderers (`crate::report`) only read it.

use crate::catalog::Catalog;
use crate::catalog::locate::Locator;
use crate::lint::{Finding, Severity};
pub(crate) use crate::record::lint::{
    AcceptedFinding, LINT_SCHEMA, LintReport, LintSummary, RelatedLocation, ReportFinding,
};

impl LintReport {
    /// Lints `catalog` and builds the report, pointing findings at `locate_in`'s lines when
    /// given (a snapshot or lock file), else at the snapshot the catalog was read from.
    /// With `settings.embed_model`, the tools are embedded first (look-alikes' second signal).
    pub fn for_catalog(
        catalog: &Catalog,
        settings: &crate::lint::LintSettings,
        locate_in: Option<&std::path::Path>,
    ) -> anyhow::Result<Self> {
        let mut cx = crate::lint::Context::new(catalog, settings);
        if let Some(dir) = &settings.embed_model {
            let vectors = crate::models::embed::tool_embeddings(dir, catalog).map_err(|e| {
                e.context(format!("[lint] embed_model / --embed: the model in {dir}"))
            })?;
            cx = cx.with_semantic(vectors);
        }
        Ok(Self::for_context(&cx, locate_in))
    }

    /// Like [`LintReport::for_catalog`], over a lint context the caller already built.
    pub fn for_context(cx: &crate::lint::Context, locate_in: Option<&std::path::Path>) -> Self {
        let catalog = cx.catalog;
        let (findings, accepted) = crate::lint::run_accepting(cx);
        let file = locate_in
            .map(std::path::Path::to_path_buf)
            .or_else(|| catalog.snapshot_path.clone());
        let locator = file.as_deref().and_then(Locator::from_file);
        let mut report = LintReport::new(catalog, &findings, cx.total_tokens(), locator.as_ref());
        let (found, reasons): (Vec<Finding>, Vec<String>) = accepted.into_iter().unzip();
        let located = LintReport::new(catalog, &found, 0, locator.as_ref());
        report.accepted = located
            .findings
            .into_iter()
            .zip(reasons)
            .map(|(finding, reason)| AcceptedFinding { finding, reason })
            .collect();
        report.summary.accepted = report.accepted.len();
        report
    }

    /// A belt's report: findings across servers first (they concern every server named), then
    /// each server's own, keyed `server/tool` (a catalog-wide finding names its server in the
    /// message and points at the server's section of a belt lock). `catalogs` are the
    /// servers' catalogs in the lint's order.
    pub fn for_belt(
        source: String,
        catalog_sha256: String,
        tool_count: usize,
        lint: &crate::lint::belt::BeltLint,
        catalogs: &[&Catalog],
    ) -> Self {
        let total_tokens = lint.servers.iter().map(|(_, _, s)| s.tokens).sum();
        let mut out = LintReport::new(
            &Catalog {
                source,
                ..Default::default()
            },
            &[],
            total_tokens,
            None,
        );
        out.catalog_sha256 = catalog_sha256;
        out.tool_count = tool_count;
        for ((name, findings, share), catalog) in lint.servers.iter().zip(catalogs) {
            let locator = catalog
                .snapshot_path
                .as_deref()
                .and_then(Locator::from_file);
            let r = LintReport::new(catalog, findings, share.tokens, locator.as_ref());
            out.summary.errors += r.summary.errors;
            out.summary.warnings += r.summary.warnings;
            out.summary.infos += r.summary.infos;
            for mut f in r.findings {
                match &f.tool {
                    Some(t) => f.tool = Some(crate::catalog::belt::key(name, t)),
                    None => {
                        f.message = format!("server `{name}`: {}", f.message);
                        f.related.push(RelatedLocation {
                            key: name.to_string(),
                            file: None,
                            line: None,
                        });
                    }
                }
                out.findings.push(f);
            }
        }
        let extra = LintReport::new(&Catalog::default(), &lint.across, 0, None);
        out.summary.errors += extra.summary.errors;
        out.summary.warnings += extra.summary.warnings;
        out.summary.infos += extra.summary.infos;
        out.findings.splice(0..0, extra.findings);
        out
    }

    pub fn new(
        catalog: &Catalog,
        findings: &[Finding],
        total_tokens: usize,
        locator: Option<&Locator>,
    ) -> Self {
        let mut summary = LintSummary::default();
        let findings = findings
            .iter()
            .map(|f| {
                match f.severity {
                    Severity::Error => summary.errors += 1,
                    Severity::Warning => summary.warnings += 1,
                    Severity::Info => summary.infos += 1,
                }
                let line =
                    locator.and_then(|l| l.line(f.tool.as_deref(), f.tool_index, &f.pointer));
                ReportFinding {
                    code: f.code.clone(),
                    slug: f.slug.clone(),
                    severity: f.severity,
                    tool: f.tool.clone(),
                    pointer: f.pointer.clone(),
                    message: f.message.clone(),
                    help: f.help.clone(),
                    docs_url: f.docs_url(),
                    file: line.and(locator.map(|l| l.file.clone())),
                    line,
                    related: f
                        .related
                        .iter()
                        .map(|key| RelatedLocation {
                            key: key.clone(),
                            file: None,
                            line: None,
                        })
                        .collect(),
                    pair: f.pair.clone(),
                    group: f.group.clone(),
                }
            })
            .collect();
        LintReport {
            schema_version: LINT_SCHEMA.into(),
            toolgate_version: env!("CARGO_PKG_VERSION").into(),
            source: catalog.source.clone(),
            catalog_sha256: crate::catalog::canonical::catalog_hash(catalog),
            tool_count: catalog.tools.len(),
            tokenizer: crate::tokens::TOKENIZER.into(),
            total_tokens,
            summary,
            findings,
            accepted: Vec::new(),
        }
    }

    /// True when some finding is at or above `threshold`.
    pub fn fails(&self, threshold: Severity) -> bool {
        self.findings.iter().any(|f| f.severity >= threshold)
    }
}

/// Findings as shown to a person: one problem in many tools (the same rule and group) is one
/// entry naming every tool, at the place of its first finding.
pub(crate) struct Shown<'a> {
    pub first: &'a ReportFinding,
    /// The tools of every finding of the entry, in order (one for an ungrouped finding).
    pub tools: Vec<&'a str>,
    /// The first finding's message, or for a group of several the problem with its tools.
    pub message: String,
}

/// Tools named in a grouped message before "and N more".
const GROUP_TOOLS_SHOWN: usize = 8;

/// `findings` with each group folded into one entry (first-appearance order kept).
pub(crate) fn grouped<'a>(findings: &[&'a ReportFinding]) -> Vec<Shown<'a>> {
    let mut entries: Vec<(&ReportFinding, Vec<&str>)> = Vec::new();
    let mut index: std::collections::HashMap<(&str, &str), usize> = Default::default();
    for f in findings {
        let tool = f.tool.as_deref().unwrap_or("catalog");
        match f.group.as_ref() {
            Some(g) => match index.get(&(f.code.as_str(), g.key.as_str())) {
                // A tool with several findings in one group (two parameters of one shared
                // definition) is counted and named once.
                Some(&i) => {
                    if !entries[i].1.contains(&tool) {
                        entries[i].1.push(tool);
                    }
                }
                None => {
                    index.insert((&f.code, &g.key), entries.len());
                    entries.push((f, vec![tool]));
                }
            },
            None => entries.push((f, vec![tool])),
        }
    }
    entries
        .into_iter()
        .map(|(first, tools)| {
            let message = match (&first.group, tools.len()) {
                (Some(g), n) if n > 1 => {
                    let names: Vec<String> = tools.iter().map(|t| format!("`{t}`")).collect();
                    format!(
                        "{} in {n} tools (one shared definition): {}",
                        g.message,
                        crate::text::list_some(&names, GROUP_TOOLS_SHOWN)
                    )
                }
                _ => first.message.clone(),
            };
            Shown {
                first,
                tools,
                message,
            }
        })
        .collect()
}

#[cfg(test)]
mod grouping_tests {
    use super::*;

    fn finding(tool: &str, group: Option<&str>) -> ReportFinding {
        ReportFinding {
            code: "TG007".into(),
            slug: "undocumented-parameter".into(),
            severity: Severity::Warning,
            tool: Some(tool.into()),
            pointer: "/inputSchema/properties/path".into(),
            message: format!("`{tool}` parameter `path` has no description"),
            help: "Add a description.".into(),
            docs_url: String::new(),
            file: None,
            line: None,
            related: vec![],
            pair: None,
            group: group.map(|k| crate::lint::FindingGroup {
                key: k.into(),
                message: "parameter `path` has no description".into(),
            }),
        }
    }

    #[test]
    fn one_shared_definition_is_one_entry_and_different_ones_stay_apart() {
        let fs = [
            finding("a", Some("param:path:1")),
            finding("b", None),
            finding("c", Some("param:path:1")),
            finding("d", Some("param:path:2")),
        ];
        let all: Vec<&ReportFinding> = fs.iter().collect();
        let shown = grouped(&all);
        assert_eq!(shown.len(), 3);
        assert_eq!(shown[0].tools, ["a", "c"]);
        assert_eq!(
            shown[0].message,
            "parameter `path` has no description in 2 tools (one shared definition): `a`, `c`"
        );
        // Alone in its group, a finding keeps its own message.
        assert_eq!(shown[2].message, "`d` parameter `path` has no description");
        assert_eq!(shown[1].tools, ["b"]);
    }

    /// Issue 43: a tool with two findings in one group (24 tools named "in 48 tools") counts
    /// once.
    #[test]
    fn a_tool_counts_once_in_its_group() {
        let fs = [
            finding("a", Some("param:path:1")),
            finding("a", Some("param:path:1")),
            finding("c", Some("param:path:1")),
        ];
        let all: Vec<&ReportFinding> = fs.iter().collect();
        let shown = grouped(&all);
        assert_eq!(shown[0].tools, ["a", "c"]);
        assert!(
            shown[0].message.contains("in 2 tools"),
            "{}",
            shown[0].message
        );
    }
}

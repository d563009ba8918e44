//! The look-alike benchmark: labelled catalogs (`NAME.json` beside `NAME.labels.json`, under
//! fixtures/lookalike/) scored by the precision and recall of TG005 and TG006. Run it with
//! `cargo run --example lookalike_bench`; tests/rules.rs holds the bar.

// Shared by the examples and the integration tests; each uses part of it.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::Deserialize;

use toolgate::testing::catalog::{Catalog, snapshot};
use toolgate::testing::lint::{self, LintSettings};

/// The hand (or generator) labels of one catalog.
#[derive(Debug, Deserialize)]
pub struct Labels {
    /// The true look-alike pairs, by tool name.
    pub lookalikes: Vec<LabelledPair>,
    /// Tools of true pairs whose description already says when to use which (TG006 must stay
    /// quiet on them).
    #[serde(default)]
    pub disambiguated: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub struct LabelledPair {
    pub pair: [String; 2],
}

/// Counts of one rule on one catalog.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    pub true_pos: usize,
    pub false_pos: usize,
    pub false_neg: usize,
}

impl Score {
    pub fn precision(&self) -> f64 {
        let flagged = self.true_pos + self.false_pos;
        if flagged == 0 {
            1.0
        } else {
            self.true_pos as f64 / flagged as f64
        }
    }

    pub fn recall(&self) -> f64 {
        let truth = self.true_pos + self.false_neg;
        if truth == 0 {
            1.0
        } else {
            self.true_pos as f64 / truth as f64
        }
    }

    pub fn add(&mut self, o: Score) {
        self.true_pos += o.true_pos;
        self.false_pos += o.false_pos;
        self.false_neg += o.false_neg;
    }
}

/// The result on one catalog.
#[derive(Debug)]
pub struct CatalogScore {
    pub name: String,
    /// The catalog file.
    pub path: String,
    pub tools: usize,
    /// TG005 over unordered tool pairs.
    pub tg005: Score,
    /// TG006 over tools.
    pub tg006: Score,
    /// Pairs TG005 flagged that are not labelled, and labelled pairs it missed.
    pub false_pairs: Vec<(String, String)>,
    pub missed_pairs: Vec<(String, String)>,
}

fn pair(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

/// The other tool a TG005 message names: "`B` looks like `A` (…".
fn other_of(message: &str, tool: &str) -> Option<String> {
    let rest = message.strip_prefix(&format!("`{tool}` looks like `"))?;
    Some(rest.split('`').next()?.to_string())
}

/// Each tool's embedding for a catalog, or `None` to lint on words alone.
pub type Semantic<'a> = &'a dyn Fn(&Catalog) -> anyhow::Result<Option<Vec<Vec<f32>>>>;

/// Lints `catalog` (a snapshot file) with default settings and scores it against `labels`.
pub fn score(catalog: &Path, labels: &Labels) -> anyhow::Result<CatalogScore> {
    score_with(catalog, labels, &|_| Ok(None))
}

/// Like [`score`], with the embeddings `semantic` gives as TG005's second signal.
pub fn score_with(
    catalog: &Path,
    labels: &Labels,
    semantic: Semantic,
) -> anyhow::Result<CatalogScore> {
    let cat = snapshot::read(catalog)?;
    let settings = LintSettings::default();
    let mut cx = lint::Context::new(&cat, &settings);
    if let Some(v) = semantic(&cat)? {
        cx = cx.with_semantic(v);
    }
    let findings = lint::run_in(&cx);
    let truth: BTreeSet<(String, String)> = labels
        .lookalikes
        .iter()
        .map(|p| pair(&p.pair[0], &p.pair[1]))
        .collect();
    let flagged: BTreeSet<(String, String)> = findings
        .iter()
        .filter(|f| f.code == "TG005")
        .filter_map(|f| {
            let tool = f.tool.as_deref()?;
            Some(pair(tool, &other_of(&f.message, tool)?))
        })
        .collect();
    let tg005 = Score {
        true_pos: flagged.intersection(&truth).count(),
        false_pos: flagged.difference(&truth).count(),
        false_neg: truth.difference(&flagged).count(),
    };
    let want: BTreeSet<&str> = truth
        .iter()
        .flat_map(|(a, b)| [a.as_str(), b.as_str()])
        .filter(|t| !labels.disambiguated.iter().any(|d| d == t))
        .collect();
    let got: BTreeSet<&str> = findings
        .iter()
        .filter(|f| f.code == "TG006")
        .filter_map(|f| f.tool.as_deref())
        .collect();
    let tg006 = Score {
        true_pos: got.intersection(&want).count(),
        false_pos: got.difference(&want).count(),
        false_neg: want.difference(&got).count(),
    };
    Ok(CatalogScore {
        name: catalog
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        path: catalog.display().to_string(),
        tools: cat.tools.len(),
        tg005,
        tg006,
        false_pairs: flagged.difference(&truth).cloned().collect(),
        missed_pairs: truth.difference(&flagged).cloned().collect(),
    })
}

/// Every `*.labels.json` under `dir` (recursively), with the catalog beside it.
pub fn labelled_catalogs(dir: &Path) -> anyhow::Result<Vec<(PathBuf, PathBuf)>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Some(stem) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".labels.json"))
            {
                out.push((path.with_file_name(format!("{stem}.json")), path));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Scores every labelled catalog under `dir`.
pub fn run(dir: &Path) -> anyhow::Result<Vec<CatalogScore>> {
    run_with(dir, &|_| Ok(None))
}

/// Like [`run`], with embeddings as TG005's second signal.
pub fn run_with(dir: &Path, semantic: Semantic) -> anyhow::Result<Vec<CatalogScore>> {
    labelled_catalogs(dir)?
        .into_iter()
        .map(|(catalog, labels)| {
            let text = std::fs::read_to_string(&labels)
                .with_context(|| format!("reading {}", labels.display()))?;
            let labels: Labels = serde_json::from_str(&text)
                .with_context(|| format!("parsing {}", labels.display()))?;
            score_with(&catalog, &labels, semantic)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_other_tool_from_a_tg005_message() {
        assert_eq!(
            other_of("`b_x` looks like `a_y` (similarity 0.7; …)", "b_x").as_deref(),
            Some("a_y")
        );
        assert_eq!(other_of("something else", "b"), None);
        let s = Score {
            true_pos: 3,
            false_pos: 1,
            false_neg: 0,
        };
        assert_eq!((s.precision(), s.recall()), (0.75, 1.0));
    }
}

//! The lint precision corpus: every warning- or error-level finding the rules report on a
//! folder of real catalogs (`NAME.json` tools/list snapshots, by default the bundled
//! ecosystem's 35 servers), matched against a reviewed labels file that says, for each one,
//! whether it is right and why. The bench prints per-rule precision; tests/it/rules.rs holds the
//! bar (every finding labelled, every rule at warning/error ≥ 0.9).
//!
//! ```text
//! cargo run --example lint_precision [-- CATALOG_DIR LABELS_FILE] [--verbose]
//! ```

// Shared by the examples and the integration tests; each uses part of it.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use toolgate::testing::catalog::snapshot;
use toolgate::testing::lint::{self, Finding, LintSettings, Severity};

/// Whether a reviewer judged a finding right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Right,
    Wrong,
}

/// One reviewed finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Label {
    #[serde(flatten)]
    pub key: Key,
    pub verdict: Verdict,
    /// The reviewer's reason, in a sentence.
    pub why: String,
}

/// What identifies a finding across runs: server (file stem), rule, tool, pointer, and the other
/// tools its message names (a pair rule's second tool).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Key {
    pub server: String,
    pub code: String,
    #[serde(default)]
    pub tool: String,
    #[serde(default)]
    pub pointer: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<String>,
}

/// The labels file.
#[derive(Debug, Default, Deserialize, Serialize)]
pub struct Labels {
    pub labels: Vec<Label>,
}

/// A finding of the corpus with its key and message (for review).
#[derive(Clone, Debug, Serialize)]
pub struct Seen {
    pub key: Key,
    pub severity: Severity,
    pub message: String,
}

/// Counts of one rule over the corpus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleScore {
    pub right: usize,
    pub wrong: usize,
    pub unlabelled: usize,
}

impl RuleScore {
    /// Right over labelled findings; 1.0 when nothing was labelled.
    pub fn precision(&self) -> f64 {
        let n = self.right + self.wrong;
        if n == 0 {
            1.0
        } else {
            self.right as f64 / n as f64
        }
    }
}

/// The bench's result.
#[derive(Debug, Default)]
pub struct Outcome {
    pub per_rule: BTreeMap<String, RuleScore>,
    /// The same counts per rule and level: an error must be near-certain (≥ 0.97), a warning
    /// right at least 9 times in 10, and a rule may report at both levels.
    pub per_level: BTreeMap<(String, Severity), RuleScore>,
    /// Servers with at least one error-level finding labelled wrong: they would fail
    /// `toolgate lint` and `toolgate ci` on a false error.
    pub false_errors: BTreeMap<String, usize>,
    /// Findings no label covers (they must be reviewed).
    pub unlabelled: Vec<Seen>,
    /// Findings labelled wrong.
    pub wrong: Vec<(Seen, String)>,
    /// Labels no finding matches any more (a rule changed; drop or re-review them).
    pub stale: Vec<Key>,
    pub catalogs: usize,
}

/// The backticked catalog tool names in a message other than the finding's own tool.
fn others(f: &Finding, names: &BTreeSet<&str>) -> Vec<String> {
    let own = f.tool.as_deref().unwrap_or("");
    let mut out: BTreeSet<String> = BTreeSet::new();
    for (i, part) in f.message.split('`').enumerate() {
        if i % 2 == 1 && part != own && names.contains(part) {
            out.insert(part.to_string());
        }
    }
    out.into_iter().collect()
}

/// The findings of one snapshot at every level, keyed.
pub fn findings_of(path: &Path) -> anyhow::Result<Vec<Seen>> {
    let server = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    let catalog = snapshot::read(path)?;
    let names: BTreeSet<&str> = catalog.tools.iter().map(|t| t.name()).collect();
    let findings = lint::run(&catalog, &LintSettings::default());
    Ok(findings
        .iter()
        .map(|f| Seen {
            key: Key {
                server: server.clone(),
                code: f.code.clone(),
                tool: f.tool.clone().unwrap_or_default(),
                pointer: f.pointer.clone(),
                with: others(f, &names),
            },
            severity: f.severity,
            message: f.message.clone(),
        })
        .collect())
}

/// The snapshots of `dir` (every `*.json` but `manifest.json` and `labels.json`), sorted.
pub fn catalogs(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let p = entry?.path();
        let is_json = p.extension().is_some_and(|e| e == "json");
        let is_manifest = p
            .file_name()
            .is_some_and(|n| n == "manifest.json" || n == "labels.json");
        if is_json && !is_manifest {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
}

/// Reads a labels file, naming it on error; a key labelled twice is an error.
pub fn read_labels(path: &Path) -> anyhow::Result<Labels> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let labels: Labels =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let mut seen = BTreeSet::new();
    for l in &labels.labels {
        if !seen.insert(&l.key) {
            anyhow::bail!("{}: {:?} is labelled twice", path.display(), l.key);
        }
    }
    Ok(labels)
}

/// Lints every catalog of `dir` and scores the findings against `labels`.
pub fn run(dir: &Path, labels: &Labels) -> anyhow::Result<Outcome> {
    let by_key: BTreeMap<&Key, &Label> = labels.labels.iter().map(|l| (&l.key, l)).collect();
    let mut matched = BTreeSet::new();
    let mut out = Outcome::default();
    for path in catalogs(dir)? {
        out.catalogs += 1;
        for seen in findings_of(&path)? {
            if seen.severity < Severity::Warning {
                // An informational finding is not scored; its label (kept from when the rule
                // warned, or for raising it again) is not stale.
                if by_key.contains_key(&seen.key) {
                    matched.insert(seen.key.clone());
                }
                continue;
            }
            let level = (seen.key.code.clone(), seen.severity);
            let verdict = by_key.get(&seen.key).map(|l| (l.verdict, l.why.clone()));
            for score in [
                out.per_rule.entry(seen.key.code.clone()).or_default(),
                out.per_level.entry(level).or_default(),
            ] {
                match &verdict {
                    Some((Verdict::Right, _)) => score.right += 1,
                    Some((Verdict::Wrong, _)) => score.wrong += 1,
                    None => score.unlabelled += 1,
                }
            }
            match verdict {
                Some((v, why)) => {
                    matched.insert(seen.key.clone());
                    if v == Verdict::Wrong {
                        if seen.severity == Severity::Error {
                            *out.false_errors.entry(seen.key.server.clone()).or_default() += 1;
                        }
                        out.wrong.push((seen, why));
                    }
                }
                None => out.unlabelled.push(seen),
            }
        }
    }
    out.stale = labels
        .labels
        .iter()
        .filter(|l| !matched.contains(&l.key))
        .map(|l| l.key.clone())
        .collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_finding_is_keyed_by_its_other_tool() {
        let f = Finding {
            code: "TG005".into(),
            slug: "look-alike-tools".into(),
            severity: Severity::Warning,
            tool: Some("b".into()),
            tool_index: None,
            pointer: "/description".into(),
            message: "`b` looks like `a` (shared words: `x`)".into(),
            help: String::new(),
            related: vec![],
            pair: None,
            group: None,
        };
        let names: BTreeSet<&str> = ["a", "b"].into_iter().collect();
        assert_eq!(others(&f, &names), vec!["a".to_string()]);
    }

    #[test]
    fn precision_counts_only_labelled_findings() {
        let s = RuleScore {
            right: 9,
            wrong: 1,
            unlabelled: 5,
        };
        assert!((s.precision() - 0.9).abs() < 1e-12);
        assert_eq!(RuleScore::default().precision(), 1.0);
    }
}

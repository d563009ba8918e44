//! Lint configuration (`[lint]` in toolgate.toml): thresholds, rules switched off or given
//! another severity, tools ignored — applied in one place after the rules ran.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Finding, Severity};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Off,
    Info,
    Warning,
    Error,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleConfig {
    /// `off`, `info`, `warning` or `error`.
    pub level: Option<Level>,
    /// Tools this rule does not report on.
    #[serde(default)]
    pub ignore_tools: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LintSettings {
    /// A single tool definition above this many tokens is oversized (TG012).
    pub max_tool_tokens: usize,
    /// The whole tool list above this many tokens is over budget (TG022).
    pub max_catalog_tokens: usize,
    /// Catalog size at which hosts start to struggle (TG021 warning; Cursor's limit).
    pub warn_tools: usize,
    /// Catalog size no major host accepts in one request (TG021 error; OpenAI's limit).
    pub max_tools: usize,
    /// Combined similarity at which two tools count as look-alikes (TG005, TG006).
    pub lookalike_threshold: f64,
    /// Descriptions with fewer words are too short (TG003).
    pub min_description_words: usize,
    /// Tools no rule reports on.
    pub ignore_tools: Vec<String>,
    /// Per-rule settings, keyed by code (`TG003`) or slug (`short-description`).
    pub rules: BTreeMap<String, RuleConfig>,
    /// A sentence-embedding model folder (as for `-m embed:<dir>`): when set, TG005/TG006 take
    /// the embedding cosine of each look-alike pair as a second signal (`lint --embed DIR`).
    pub embed_model: Option<String>,
    /// With `embed_model`: a lexically alike pair whose embedding cosine is below this is not
    /// reported (the model reads the two tools as different jobs).
    pub embed_floor: f64,
}

/// The embedding cosine under which a look-alike pair is dropped: on the look-alike benchmark
/// (docs/benchmarks.md) 0.7 drops a false pair and no true one; 0.8 starts dropping true pairs.
pub const DEFAULT_EMBED_FLOOR: f64 = 0.7;

impl Default for LintSettings {
    fn default() -> Self {
        LintSettings {
            max_tool_tokens: 1000,
            max_catalog_tokens: 10_000,
            warn_tools: 40,
            max_tools: 128,
            lookalike_threshold: 0.5,
            min_description_words: 5,
            ignore_tools: Vec::new(),
            rules: BTreeMap::new(),
            embed_model: None,
            embed_floor: DEFAULT_EMBED_FLOOR,
        }
    }
}

impl LintSettings {
    /// `lint --select/--ignore`: switches off every rule not in `select` (when given) and every
    /// rule in `ignore`. Each entry is a code or slug; an unknown one is an error naming it.
    pub fn restrict(&mut self, select: &[String], ignore: &[String]) -> anyhow::Result<()> {
        let find = |flag: &str, id: &String| {
            let id = id.trim();
            crate::lint::rule(id)
                .ok_or_else(|| anyhow::anyhow!("{flag} {id}: no such rule (see `toolgate rules`)"))
        };
        let selected = select
            .iter()
            .filter(|s| !s.trim().is_empty())
            .map(|s| find("--select", s).map(|r| r.code))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let ignored = ignore
            .iter()
            .filter(|s| !s.trim().is_empty())
            .map(|s| find("--ignore", s).map(|r| r.code))
            .collect::<anyhow::Result<Vec<_>>>()?;
        for rule in crate::lint::RULES {
            let off = (!selected.is_empty() && !selected.contains(&rule.code))
                || ignored.contains(&rule.code);
            if off {
                // A slug key for the same rule would be applied too; the code key wins by
                // being set to off.
                self.rules.entry(rule.code.to_string()).or_default().level = Some(Level::Off);
            }
        }
        Ok(())
    }

    /// Checks that every key under `rules` names a rule.
    pub fn validate(&self) -> anyhow::Result<()> {
        for key in self.rules.keys() {
            if super::rule(key).is_none() {
                anyhow::bail!(
                    "[lint.rules.{key}]: no rule has this code or slug (see `toolgate rules`)"
                );
            }
        }
        if !(0.0..=1.0).contains(&self.lookalike_threshold) {
            anyhow::bail!("[lint] lookalike_threshold must be between 0 and 1");
        }
        if !(-1.0..=1.0).contains(&self.embed_floor) {
            anyhow::bail!("[lint] embed_floor must be a cosine between -1 and 1");
        }
        Ok(())
    }

    fn config_of(&self, code: &str) -> Option<&RuleConfig> {
        let rule = super::rule(code)?;
        self.rules
            .get(rule.code)
            .or_else(|| self.rules.get(rule.slug))
    }

    pub fn level_of(&self, code: &str) -> Option<Level> {
        self.config_of(code).and_then(|c| c.level)
    }

    /// Applies ignores and severity remapping; `None` drops the finding.
    pub fn apply(&self, mut f: Finding) -> Option<Finding> {
        if let Some(tool) = &f.tool
            && self.ignore_tools.contains(tool)
        {
            return None;
        }
        if let Some(c) = self.config_of(&f.code) {
            if let Some(tool) = &f.tool
                && c.ignore_tools.contains(tool)
            {
                return None;
            }
            f.severity = match c.level {
                Some(Level::Off) => return None,
                Some(Level::Info) => Severity::Info,
                Some(Level::Warning) => Severity::Warning,
                Some(Level::Error) => Severity::Error,
                None => f.severity,
            };
        }
        Some(f)
    }
}

#[cfg(test)]
mod restrict_tests {
    use super::*;

    #[test]
    fn select_keeps_only_its_rules_and_ignore_drops_its_own() {
        let mut s = LintSettings::default();
        s.restrict(
            &["TG005".into(), "hidden-unicode".into()],
            &["TG005".into()],
        )
        .expect("known rules");
        assert_eq!(s.level_of("TG005"), Some(Level::Off));
        assert_eq!(s.level_of("TG017"), None);
        assert_eq!(s.level_of("TG018"), Some(Level::Off));
        let err = LintSettings::default()
            .restrict(&[], &["TG999".into()])
            .expect_err("unknown rule");
        assert!(err.to_string().contains("--ignore TG999"), "{err}");
    }
}

//! Lint configuration (`[lint]` in toolgate.toml): thresholds, rules switched off or given
//! another severity, tools ignored — applied in one place after the rules ran.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
    /// Findings a person reviewed and accepted, each with the reason (`[[lint.accept]]`):
    /// they are not reported and do not fail the gate; an entry that matches nothing any more
    /// is said on stderr so it can be removed.
    pub accept: Vec<Accepted>,
    /// Hosts whose documented limits TG030 (host-limits) checks: `claude-code`, `vscode`,
    /// `cursor`, `openai-strict`, `gemini`, `anthropic` (`lint --host`). None by default.
    pub hosts: Vec<String>,
    /// The server's name as hosts put it in tool-name prefixes (`mcp__<name>__<tool>`): the
    /// key users give it in their MCP config. Default: the server's own name.
    pub host_server_name: Option<String>,
}

/// One accepted finding: the rule (code or slug), the tool, optionally the pointer (all of
/// the rule's findings on that tool when absent), and why it is accepted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Accepted {
    pub rule: String,
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    pub reason: String,
}

/// The embedding cosine under which a look-alike pair is dropped: on the look-alike benchmark
/// (docs/benchmarks.md) 0.7 drops a false pair and no true one; 0.8 starts dropping true pairs.
pub(crate) const DEFAULT_EMBED_FLOOR: f64 = 0.7;

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
            accept: Vec::new(),
            hosts: Vec::new(),
            host_server_name: None,
        }
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

#[cfg(test)]
mod accept_tests;

//! `toolgate.toml`: project settings read once; command-line flags override them.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::lint::LintSettings;

pub const DEFAULT_CONFIG: &str = "toolgate.toml";
pub const DEFAULT_LOCK: &str = "toolgate.lock";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// The server to check when no SERVER argument is given.
    pub server: Option<String>,
    /// Lock file path (default `toolgate.lock`).
    pub lock: Option<PathBuf>,
    pub connect: ConnectConfig,
    pub lint: LintSettings,
    pub ci: CiConfig,
}

/// `[ci]`: what `toolgate ci` does when no flag says otherwise. Every key has a flag of the
/// same name (`fail_under` ↔ `--fail-under`), and flags win.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CiConfig {
    /// Task file (JSONL). Without one, tasks are generated from the catalog with templates.
    pub tasks: Option<PathBuf>,
    /// Model specs (default `["bm25"]`).
    pub models: Option<Vec<String>>,
    pub trials: Option<u32>,
    pub split: Option<crate::tasks::SplitArg>,
    pub fail_under: Option<f64>,
    pub min_tool_accuracy: Option<f64>,
    /// `"K:RATE"`: a ranking model's recall@K must reach RATE.
    pub fail_under_recall: Option<crate::record::gate::RecallFloor>,
    /// Lint findings at or above this fail the gate (default `error`).
    pub lint_fail_on: Option<crate::record::gate::LintFailOn>,
    /// What a lock mismatch does (default `fail`).
    pub lock_check: Option<crate::record::gate::LockCheck>,
    /// Output directory (default `toolgate-out`).
    pub out: Option<PathBuf>,
    pub badge: Option<PathBuf>,
    /// A baseline file or a base run directory to compare with.
    pub base: Option<PathBuf>,
    /// Post or update the pull-request comment.
    pub comment: Option<bool>,
    /// Tells several toolgate comments on one pull request apart.
    pub comment_id: Option<String>,
    /// Login whose comments toolgate may edit (default: the token's user, else
    /// `github-actions[bot]`).
    pub comment_author: Option<String>,
    /// Significance level of the paired tests against the base.
    pub alpha: Option<f64>,
    pub max_calls: Option<usize>,
    pub max_steps: Option<u32>,
    pub concurrency: Option<usize>,
    pub timeout: Option<f64>,
    pub base_url: Option<String>,
    pub seed: Option<u64>,
    /// A run with a larger share of errors cannot pass (default 0.05).
    pub max_error_rate: Option<f64>,
    /// A significant regression against the base fails the gate (default true).
    pub fail_on_regression: Option<bool>,
    /// The gate fails when the score drops more than this against the base (0–1).
    pub max_drop: Option<f64>,
    /// A significant per-tool regression fails the gate too (default false).
    pub fail_on_tool_regression: Option<bool>,
    /// Do not read or write the response cache.
    pub no_cache: Option<bool>,
    /// Evaluate inside this belt (`ecosystem`, an MCP config, a belt lock, snapshots).
    pub belt: Option<String>,
    /// With a belt: measure the distractor curve (`true`: LLMs too; `false`: never; unset:
    /// offline models only).
    pub curve: Option<bool>,
    /// With a belt: the curve's sizes, e.g. `"0,10,50,all"`.
    pub curve_sizes: Option<String>,
    /// The MCP client config to read the server from (`--mcp-config`); `--server` names it.
    pub mcp_config: Option<PathBuf>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ConnectConfig {
    /// HTTP headers (`"Name: value"`) for URL servers.
    pub headers: Vec<String>,
    /// Name of the environment variable that holds a bearer token for URL servers.
    pub bearer_env: Option<String>,
    pub connect_timeout: Option<f64>,
    pub request_timeout: Option<f64>,
    pub max_pages: Option<usize>,
    /// Credential variables the server process may see although toolgate strips them.
    pub pass_env: Vec<String>,
}

impl Config {
    /// Reads `path`, or `./toolgate.toml` when it exists and no path was given.
    pub fn load(path: Option<&Path>) -> anyhow::Result<(Config, Option<PathBuf>)> {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None if Path::new(DEFAULT_CONFIG).is_file() => PathBuf::from(DEFAULT_CONFIG),
            None => return Ok((Config::default(), None)),
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("could not read the config file {}", path.display()))?;
        let config: Config = toml::from_str(&text).map_err(|e| config_error(&path, &text, &e))?;
        config
            .lint
            .validate()
            .with_context(|| format!("in {}", path.display()))?;
        Ok((config, Some(path)))
    }
}

/// A TOML error as a typed config error: an unknown key is named with its line.
fn config_error(path: &Path, text: &str, e: &toml::de::Error) -> crate::error::ConfigError {
    let msg = e.message().to_string();
    let line = e
        .span()
        .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
    if let Some(rest) = msg.strip_prefix("unknown field `")
        && let Some((key, tail)) = rest.split_once('`')
    {
        let expected = tail
            .split_once("expected ")
            .map(|(_, x)| x.trim().to_string())
            .unwrap_or_default();
        return crate::error::ConfigError::UnknownKey {
            path: path.to_path_buf(),
            key: key.to_string(),
            line,
            expected,
        };
    }
    let at = line
        .and_then(|l| text.lines().nth(l - 1))
        .map(|t| format!("line {}: `{}`: ", line.unwrap_or(0), t.trim()))
        .unwrap_or_default();
    crate::error::ConfigError::Invalid {
        path: path.to_path_buf(),
        message: format!("{at}{}", msg.trim()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_errors_with_the_key_named() {
        let e = toml::from_str::<Config>("[lint]\nmax_tool_tokenz = 3\n").unwrap_err();
        assert!(e.to_string().contains("max_tool_tokenz"), "{e}");
    }

    #[test]
    fn rule_settings_parse() {
        let c: Config = toml::from_str(
            "server = \"python3 s.py\"\n[lint]\nignore_tools = [\"x\"]\n[lint.rules.TG003]\nlevel = \"off\"\n[lint.rules.look-alike-tools]\nlevel = \"error\"\nignore_tools = [\"a\"]\n",
        )
        .unwrap();
        assert_eq!(c.server.as_deref(), Some("python3 s.py"));
        assert!(c.lint.validate().is_ok());
        assert_eq!(c.lint.level_of("TG003"), Some(crate::lint::Level::Off));
        assert_eq!(c.lint.level_of("TG005"), Some(crate::lint::Level::Error));
    }

    #[test]
    fn unknown_rules_are_named() {
        let c: Config = toml::from_str("[lint.rules.TG999]\nlevel = \"off\"\n").unwrap();
        assert!(c.lint.validate().unwrap_err().to_string().contains("TG999"));
    }
}

//! `toolgate.toml`: project settings read once; command-line flags override them.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::lint::LintSettings;

mod discover;
pub use discover::discover;

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
    /// The folder of the file these settings came from, when it is not the current folder:
    /// relative paths in it were resolved against it, and a stdio `server` command runs there.
    #[serde(skip)]
    pub dir: Option<PathBuf>,
}

/// `[ci]`: what `toolgate ci` does when no flag says otherwise. Every key has a flag of the
/// same name (`fail_under` ↔ `--fail-under`), and flags win.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields, default)]
pub struct CiConfig {
    /// Read the server from an MCP client config (Claude Desktop, Claude Code `.mcp.json`,
    /// Cursor, VS Code `.vscode/mcp.json`); --server names one of its servers (needed when the
    /// file has several).
    #[arg(long, env = "TOOLGATE_MCP_CONFIG", value_name = "FILE")]
    pub mcp_config: Option<PathBuf>,
    /// What a lock mismatch does [default: fail]. A missing lock file is reported, never fatal.
    #[arg(long, env = "TOOLGATE_LOCK_CHECK", value_enum)]
    pub lock_check: Option<crate::record::gate::LockCheck>,
    /// Lint findings at or above this severity fail the gate [default: error].
    #[arg(long, env = "TOOLGATE_LINT_FAIL_ON", value_enum)]
    pub lint_fail_on: Option<crate::record::gate::LintFailOn>,
    /// Task file (JSONL). Without one, tasks are generated from the catalog (templates, seed 1):
    /// fine for a first look, but commit a task file for comparable before/after numbers.
    #[arg(short = 't', long, env = "TOOLGATE_TASKS", value_name = "FILE")]
    pub tasks: Option<PathBuf>,
    /// Model spec (repeatable or comma-separated) [default: bm25]: `bm25[:<min_score>]`,
    /// `toolsearch[:k]` / `toolsearch-names[:k]` (a host's tool search, emulated),
    /// `replay:<file.jsonl>`, or `<provider>:<model>` with provider one of openai, anthropic,
    /// openrouter, ollama, vllm, llamacpp, lmstudio, openai-compat, or `local:<file.gguf>` (a
    /// llama-server toolgate starts; see `toolgate run --help`).
    #[arg(
        short = 'm',
        long = "model",
        env = "TOOLGATE_MODEL",
        value_delimiter = ',',
        value_name = "SPEC"
    )]
    pub models: Option<Vec<String>>,
    /// Trials per task for models that are not deterministic [default: 1].
    #[arg(long, env = "TOOLGATE_TRIALS", value_name = "N")]
    pub trials: Option<u32>,
    /// Which tasks to run [default: all].
    #[arg(long, env = "TOOLGATE_SPLIT", value_enum)]
    pub split: Option<crate::tasks::SplitArg>,
    /// Fail when a model's overall tool accuracy is below this (0–1).
    #[arg(long, env = "TOOLGATE_FAIL_UNDER", value_name = "RATE")]
    pub fail_under: Option<f64>,
    /// Fail when a ranking model's recall@K is below RATE, e.g. `5:0.9` (K one of 1, 3, 5,
    /// 10); exit 2 when no model of the run ranks tools.
    #[arg(long, env = "TOOLGATE_FAIL_UNDER_RECALL", value_name = "K:RATE")]
    pub fail_under_recall: Option<crate::record::gate::RecallFloor>,
    /// Fail when any tool's accuracy is below this (0–1).
    #[arg(long, env = "TOOLGATE_MIN_TOOL_ACCURACY", value_name = "RATE")]
    pub min_tool_accuracy: Option<f64>,
    /// Output directory for every report [default: toolgate-out].
    #[arg(long, env = "TOOLGATE_OUT", value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also write the SVG badge here, and its shields.io endpoint document beside it (FILE.json);
    /// both are always written to the output directory.
    #[arg(long, env = "TOOLGATE_BADGE", value_name = "FILE")]
    pub badge: Option<PathBuf>,
    /// Compare with this base: a baseline file (from --write-baseline) or a base output
    /// directory (e.g. the base branch's downloaded artifact, or a `toolgate run` directory).
    #[arg(long, env = "TOOLGATE_BASE", value_name = "PATH")]
    pub base: Option<PathBuf>,
    /// Post or update the pull-request comment (GitHub only; needs GITHUB_TOKEN with
    /// pull-requests: write) [default: true on GitHub Actions (GITHUB_ACTIONS=true, unless
    /// --no-github), false elsewhere; a run with no pull request posts nothing and says why].
    #[arg(long, env = "TOOLGATE_COMMENT", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub comment: Option<bool>,
    /// Tells several toolgate comments on one pull request apart (e.g. one per server).
    #[arg(long, env = "TOOLGATE_COMMENT_ID", value_name = "KEY")]
    pub comment_id: Option<String>,
    /// Login whose comments toolgate may edit [default: the token's user, else github-actions[bot]].
    #[arg(long, env = "TOOLGATE_COMMENT_AUTHOR", value_name = "LOGIN")]
    pub comment_author: Option<String>,
    /// Significance level of every paired test: against the base, alone vs in the belt, the
    /// distractor curve's points [default: 0.05].
    #[arg(long, env = "TOOLGATE_ALPHA", value_name = "ALPHA")]
    pub alpha: Option<f64>,
    /// Stop after this many provider calls; the run is marked partial and cannot pass.
    #[arg(long, env = "TOOLGATE_MAX_CALLS", value_name = "N")]
    pub max_calls: Option<usize>,
    /// Calls a model may make per task [default: 1].
    #[arg(long, env = "TOOLGATE_MAX_STEPS", value_name = "N")]
    pub max_steps: Option<u32>,
    /// Requests in flight at once, per provider [default: 4; 1 for an endpoint on this machine].
    #[arg(long, env = "TOOLGATE_CONCURRENCY", value_name = "N")]
    pub concurrency: Option<usize>,
    /// Seconds to wait for one model reply [default: 60].
    #[arg(long, env = "TOOLGATE_TIMEOUT", value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Retries of a failed model request (429, 5xx, timeouts), with backoff [default: 4].
    #[arg(long, env = "TOOLGATE_RETRIES", value_name = "N")]
    pub retries: Option<u32>,
    /// Base URL for the (single) LLM provider; its key comes from the provider's own variable.
    #[arg(long, env = "TOOLGATE_BASE_URL", value_name = "URL")]
    pub base_url: Option<String>,
    /// Seed passed to APIs that accept one.
    #[arg(long, env = "TOOLGATE_SEED", value_name = "N")]
    pub seed: Option<u64>,
    /// A run whose share of errored decisions (connection refused, HTTP errors, malformed
    /// replies) is over this cannot pass: exit 2 [default: 0.05].
    #[arg(long, env = "TOOLGATE_MAX_ERROR_RATE", value_name = "RATE")]
    pub max_error_rate: Option<f64>,
    /// Fail when the exact paired test against the base says the change is worse
    /// [default: true].
    #[arg(long, env = "TOOLGATE_FAIL_ON_REGRESSION", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub fail_on_regression: Option<bool>,
    /// Fail when tool accuracy drops by more than this against the base (0–1, e.g. 0.05 for
    /// 5 points), significant or not.
    #[arg(long, env = "TOOLGATE_MAX_DROP", value_name = "RATE")]
    pub max_drop: Option<f64>,
    /// Fail on a significant per-tool regression too (otherwise it is reported) [default: false].
    #[arg(long, env = "TOOLGATE_FAIL_ON_TOOL_REGRESSION", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub fail_on_tool_regression: Option<bool>,
    /// Do not read or write the response cache.
    #[arg(long, env = "TOOLGATE_NO_CACHE", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub no_cache: Option<bool>,
    /// Evaluate your tasks inside a belt: the model chooses among your tools and every tool of
    /// the belt (named `<server>__<tool>`); the gate applies to your tasks' scores in the belt,
    /// and the reports say which servers took your tasks. `ecosystem` (built in, offline), an
    /// MCP client config, a belt lock, a snapshot file or a folder of snapshots.
    #[arg(long, env = "TOOLGATE_BELT", value_name = "SPEC")]
    pub belt: Option<String>,
    /// With --belt: measure the distractor curve (accuracy as the belt's tools join yours, and
    /// the breaking point in the comment). Default: for offline models only; `true` measures
    /// LLMs too (each size is a whole run of the suite), `false` skips it.
    #[arg(long, env = "TOOLGATE_CURVE", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub curve: Option<bool>,
    /// With --belt: distractor tools per point of the curve, comma-separated (`all`: every tool
    /// of the belt) [default: 0,10,50,100,200,500,all; each capped at the belt's size].
    #[arg(long, env = "TOOLGATE_CURVE_SIZES", value_name = "N,…")]
    pub curve_sizes: Option<String>,
    /// Run the suite again without descriptions and with neutral tool names, and show in the
    /// comment what the score measures (a suite that scores as well without descriptions does
    /// not measure them). Default: for offline models only; `true` measures LLMs too (two more
    /// calls per task), `false` skips it.
    #[arg(long, env = "TOOLGATE_ABLATION", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub ablation: Option<bool>,
    /// Also run the contract tests in the sandbox (`toolgate contract`): read-only tools get
    /// schema-invalid arguments (a readable isError is expected) and sampled valid ones
    /// (structuredContent is checked against the outputSchema); a failed call fails the gate.
    #[arg(long, env = "TOOLGATE_CONTRACT", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub contract: Option<bool>,
    /// With --contract: also call tools that may write (without readOnlyHint: true).
    #[arg(long, env = "TOOLGATE_ALLOW_WRITES", num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub allow_writes: Option<bool>,
    /// With --contract: seconds allowed for each tool call [default: 10].
    #[arg(long, env = "TOOLGATE_CALL_TIMEOUT", value_name = "SECS")]
    pub call_timeout: Option<f64>,
}

/// `[connect]` and the connection flags of every command that reaches a server: one
/// spelling for the flag, its variable and its key.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields, default)]
pub struct ConnectConfig {
    /// Extra HTTP header for URL servers, `'Name: value'` (repeatable; one per line in the variable).
    #[arg(
        long = "header",
        short = 'H',
        env = "TOOLGATE_HEADERS",
        value_delimiter = '\n',
        value_name = "K: V",
        hide_env_values = true
    )]
    pub headers: Vec<String>,
    /// Environment variable holding a bearer token for URL servers (the value is never printed).
    #[arg(long, env = "TOOLGATE_BEARER_ENV", value_name = "VAR")]
    pub bearer_env: Option<String>,
    /// Seconds allowed for start-up and the MCP handshake (over HTTP, a handshake refused or
    /// cut before a reply, as by a service still starting, is tried again within them).
    #[arg(long, env = "TOOLGATE_CONNECT_TIMEOUT", value_name = "SECS")]
    pub connect_timeout: Option<f64>,
    /// Seconds allowed for each tools/list page.
    #[arg(long, env = "TOOLGATE_REQUEST_TIMEOUT", value_name = "SECS")]
    pub request_timeout: Option<f64>,
    /// Most tools/list pages to read.
    #[arg(long, env = "TOOLGATE_MAX_PAGES", value_name = "N")]
    pub max_pages: Option<usize>,
    /// Let the server process see this credential variable, which toolgate strips by default
    /// (e.g. GITHUB_TOKEN) (repeatable or comma-separated).
    #[arg(
        long,
        env = "TOOLGATE_PASS_ENV",
        value_delimiter = ',',
        value_name = "VAR"
    )]
    pub pass_env: Vec<String>,
    /// How a stdio server is confined: `standard` (no privileges or capabilities, another uid
    /// when toolgate is root, writes only to a private temp dir), `strict` (also no network)
    /// or `off` [default: standard].
    #[arg(long, env = "TOOLGATE_SANDBOX", value_name = "MODE")]
    pub sandbox: Option<crate::sandbox::SandboxMode>,
    /// The uid (and gid) a root toolgate runs the server as [default: 65534, nobody]; 0 keeps
    /// root's uid (still without capabilities).
    #[arg(long, env = "TOOLGATE_SANDBOX_UID", value_name = "UID")]
    pub sandbox_uid: Option<u32>,
    /// A directory the sandboxed server may also write beneath (repeatable or comma-separated).
    #[arg(
        long,
        env = "TOOLGATE_SANDBOX_WRITE",
        value_delimiter = ',',
        value_name = "DIR"
    )]
    pub sandbox_write: Vec<PathBuf>,
}

impl Config {
    /// Reads `path` (a toolgate.toml, or a pyproject.toml's `[tool.toolgate]` table); without
    /// one, the nearest `toolgate.toml` (or pyproject.toml with `[tool.toolgate]`) in the current
    /// folder or a parent up to the repository's top. Relative paths inside are resolved
    /// against the file's folder.
    pub fn load(path: Option<&Path>) -> anyhow::Result<(Config, Option<PathBuf>)> {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None => match discover(&std::env::current_dir().unwrap_or_default()) {
                Some(p) => {
                    if p.parent().is_some_and(|d| !d.as_os_str().is_empty()) {
                        crate::elog!("note: using the settings in {}", p.display());
                    }
                    p
                }
                None => return Ok((Config::default(), None)),
            },
        };
        let config = Self::read(&path)?;
        Ok((config, Some(path)))
    }

    /// Parses one settings file (see [`Config::load`]) and resolves its relative paths.
    pub fn read(path: &Path) -> anyhow::Result<Config> {
        let text = crate::fsio::read_text(path)
            .with_context(|| format!("could not read the config file {}", path.display()))?;
        let mut config = Self::parse(path, &text)?;
        config
            .lint
            .validate()
            .with_context(|| format!("in {}", path.display()))?;
        config
            .check_numbers()
            .with_context(|| format!("in {}", path.display()))?;
        config.resolve_paths(path.parent().unwrap_or(Path::new("")));
        Ok(config)
    }

    /// `text` as the settings file `path` (names it in errors): a pyproject.toml is read for
    /// its `[tool.toolgate]` table.
    pub fn parse(path: &Path, text: &str) -> anyhow::Result<Config> {
        if is_pyproject(path) {
            let doc: toml::Table =
                toml::from_str(text).map_err(|e| config_error(path, text, &e))?;
            let Some(table) = doc
                .get("tool")
                .and_then(|t| t.get("toolgate"))
                .and_then(|t| t.as_table())
            else {
                anyhow::bail!(
                    "{} has no [tool.toolgate] table: put toolgate's settings there, or in a toolgate.toml",
                    path.display()
                );
            };
            // Re-read the table's own text so errors keep their key names (lines are the
            // table's, so the file is named with the table).
            let inner = toml::to_string(table).map_err(|e| {
                anyhow::anyhow!("{} [tool.toolgate] could not be read: {e}", path.display())
            })?;
            return toml::from_str(&inner).map_err(|e| {
                let shown = PathBuf::from(format!("{} [tool.toolgate]", path.display()));
                config_error(&shown, &inner, &e).into()
            });
        }
        Ok(toml::from_str(text).map_err(|e| config_error(path, text, &e))?)
    }

    /// Rates between 0 and 1 and positive finite durations: `inf` or `nan` in a settings file
    /// is refused (it would also not survive a comparison with the base revision's settings).
    pub fn check_numbers(&self) -> anyhow::Result<()> {
        let c = &self.ci;
        for (key, v) in [
            ("[ci] fail_under", c.fail_under),
            ("[ci] min_tool_accuracy", c.min_tool_accuracy),
            ("[ci] max_drop", c.max_drop),
            ("[ci] max_error_rate", c.max_error_rate),
            ("[ci] alpha", c.alpha),
            (
                "[ci] fail_under_recall",
                c.fail_under_recall.as_ref().map(|r| r.min),
            ),
        ] {
            if let Some(v) = v
                && !(0.0..=1.0).contains(&v)
            {
                anyhow::bail!("{key} = {v} is not a rate between 0 and 1");
            }
        }
        for (key, v) in [
            ("[ci] timeout", c.timeout),
            ("[ci] call_timeout", c.call_timeout),
            ("[connect] connect_timeout", self.connect.connect_timeout),
            ("[connect] request_timeout", self.connect.request_timeout),
        ] {
            if let Some(v) = v
                && !(v.is_finite() && v > 0.0)
            {
                anyhow::bail!("{key} = {v} is not a number of seconds above 0");
            }
        }
        Ok(())
    }

    /// Makes every relative path of these settings relative to `dir` (the settings file's
    /// folder) instead of the current folder: lock, tasks, base, out, badge, MCP config, belt
    /// and sandbox-write paths, replay and local model files, and a snapshot `server`. A
    /// stdio `server` command runs in `dir` (see [`Config::dir`]).
    pub fn resolve_paths(&mut self, dir: &Path) {
        if dir.as_os_str().is_empty() || dir == Path::new(".") {
            return;
        }
        let join = |p: &mut PathBuf| {
            if p.is_relative() {
                *p = dir.join(&*p);
            }
        };
        let join_opt = |p: &mut Option<PathBuf>| {
            if let Some(p) = p {
                join(p);
            }
        };
        join_opt(&mut self.lock);
        join_opt(&mut self.ci.mcp_config);
        join_opt(&mut self.ci.tasks);
        join_opt(&mut self.ci.out);
        join_opt(&mut self.ci.badge);
        join_opt(&mut self.ci.base);
        self.connect.sandbox_write.iter_mut().for_each(join);
        if let Some(b) = &mut self.ci.belt
            && b != "ecosystem"
            && Path::new(b.as_str()).is_relative()
            && dir.join(b.as_str()).exists()
        {
            *b = dir.join(b.as_str()).display().to_string();
        }
        if let Some(models) = &mut self.ci.models {
            for m in models.iter_mut() {
                for prefix in ["replay:", "local:"] {
                    if let Some(file) = m.strip_prefix(prefix)
                        && Path::new(file).is_relative()
                    {
                        *m = format!("{prefix}{}", dir.join(file).display());
                    }
                }
            }
        }
        if let Some(server) = &mut self.server {
            let t = server.trim();
            let lower = t.to_ascii_lowercase();
            if !lower.starts_with("http://")
                && !lower.starts_with("https://")
                && lower.ends_with(".json")
                && !t.contains(char::is_whitespace)
                && Path::new(t).is_relative()
                && dir.join(t).is_file()
            {
                *server = dir.join(t).display().to_string();
            }
        }
        self.dir = Some(dir.to_path_buf());
    }
}

fn is_pyproject(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "pyproject.toml")
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
mod tests;

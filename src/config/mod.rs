//! `toolgate.toml`: project settings read once; command-line flags override them.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::lint::LintSettings;

mod ci;
mod layer;
pub(crate) use layer::layered;
mod discover;
pub(crate) use ci::CiConfig;
pub(crate) use discover::discover;

pub(crate) const DEFAULT_CONFIG: &str = "toolgate.toml";
pub(crate) const DEFAULT_LOCK: &str = "toolgate.lock";

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
    /// A file or directory the sandboxed server may also read (repeatable or comma-separated):
    /// besides the system folders, the workspace without git's configuration, its program's installation and
    /// the paths its arguments name.
    #[arg(
        long,
        env = "TOOLGATE_SANDBOX_READ",
        value_delimiter = ',',
        value_name = "PATH"
    )]
    pub sandbox_read: Vec<PathBuf>,
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

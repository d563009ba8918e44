//! What the user named as a server: a command line (stdio), an http(s) URL (Streamable HTTP)
//! or a snapshot file, and how to connect to it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};

impl ServerSpec {
    /// Parses `SERVER`: a URL, an existing `.json` file, or a shell-quoted command line.
    /// Extra words after SERVER (e.g. `toolgate inspect -- npx -y pkg`) are appended.
    pub fn parse(text: &str, extra: &[String]) -> anyhow::Result<Self> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            bail!("SERVER is empty: give a command line, an http(s) URL or a snapshot .json file");
        }
        let lower = trimmed.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            if !extra.is_empty() {
                bail!("extra words after a URL server: {}", extra.join(" "));
            }
            reqwest::Url::parse(trimmed)
                .with_context(|| format!("SERVER `{trimmed}` is not a valid URL"))?;
            return Ok(ServerSpec::Http {
                url: trimmed.to_string(),
            });
        }
        let path = Path::new(trimmed);
        let single_word = !trimmed.contains(char::is_whitespace);
        if extra.is_empty()
            && (lower.ends_with(".json") || lower.ends_with(".lock"))
            && (single_word || path.is_file())
        {
            if !path.is_file() {
                bail!("snapshot file `{trimmed}` does not exist");
            }
            // A registry `server.json` describes how to start the server, not its tools.
            if lower.ends_with(".json")
                && let Ok(text) = crate::fsio::read_text(path)
                && let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
                && super::server_json::looks_like(&v)
            {
                let (spec, notes) = super::server_json::spec(&v, trimmed)?;
                for n in notes {
                    crate::elog!("note: {n}");
                }
                return Ok(spec);
            }
            return Ok(ServerSpec::Snapshot(path.to_path_buf()));
        }
        let mut words = shell_words::split(trimmed)
            .with_context(|| format!("could not split the server command line `{trimmed}`"))?;
        words.extend(extra.iter().cloned());
        if words.is_empty() {
            bail!("SERVER `{trimmed}` has no command in it");
        }
        let program = words.remove(0);
        Ok(ServerSpec::Command {
            program,
            args: words,
        })
    }

    /// A printable form that carries no secrets (URLs lose user-info and query strings).
    pub fn display(&self) -> String {
        match self {
            ServerSpec::Command { program, args } => {
                let mut all = vec![program.clone()];
                all.extend(args.iter().cloned());
                shell_words::join(redact_words(&all, &crate::secrets::secret_values()))
            }
            ServerSpec::Http { url } => redact_url(url),
            ServerSpec::Snapshot(p) => p.display().to_string(),
        }
    }
}

fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "token",
        "key",
        "secret",
        "password",
        "passwd",
        "auth",
        "credential",
        "bearer",
    ]
    .iter()
    .any(|w| n.contains(w))
}

fn secret_looking(word: &str) -> bool {
    [
        "sk-",
        "ghp_",
        "ghs_",
        "gho_",
        "github_pat_",
        "xoxb-",
        "xoxp-",
        "glpat-",
    ]
    .iter()
    .any(|p| word.starts_with(p))
}

/// Masks what looks like a credential in a command line before it is shown or stored:
/// the value after a `--token`-like flag, `NAME=value` where NAME sounds secret, well-known
/// token prefixes, URL user-info and queries, and the values of credential variables set in
/// this environment (`known`).
pub(crate) fn redact_words(words: &[String], known: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(words.len());
    let mut mask_next = false;
    for w in words {
        if mask_next {
            mask_next = false;
            out.push("***".to_string());
            continue;
        }
        let mut w = w.clone();
        for k in known {
            if w.contains(k.as_str()) {
                w = w.replace(k.as_str(), "***");
            }
        }
        let lower = w.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            out.push(redact_url(&w));
            continue;
        }
        if let Some((name, value)) = w.split_once('=')
            && secret_name(name)
            && !value.is_empty()
        {
            out.push(format!("{name}=***"));
            continue;
        }
        if w.starts_with('-') && secret_name(&w) {
            mask_next = true;
            out.push(w);
            continue;
        }
        if secret_looking(&w) {
            out.push("***".to_string());
            continue;
        }
        out.push(w);
    }
    out
}

pub(crate) use super::spec::ServerSpec;
use crate::secrets::redact_url;

/// How to connect: timeouts, limits, HTTP headers and which secrets the server may see.
#[derive(Clone, Debug)]
pub struct ConnectOptions {
    /// The server's key in the MCP client config it was read from (`--mcp-config`): the name
    /// hosts put in front of its tools' names.
    pub config_key: Option<String>,
    /// Time for the process to start and finish the `initialize` handshake.
    pub connect_timeout: Duration,
    /// Time for each `tools/list` page.
    pub request_timeout: Duration,
    /// Most `tools/list` pages read before giving up.
    pub max_pages: usize,
    /// Largest single message accepted from a server, in bytes.
    pub max_message_bytes: usize,
    /// Extra HTTP headers (`K: V`), for URL servers.
    pub headers: Vec<(String, String)>,
    /// Bearer token value (already read from its environment variable), for URL servers.
    pub bearer_token: Option<String>,
    /// Environment variables the server process may keep although toolgate would strip them.
    pub pass_env: Vec<String>,
    /// Variables an MCP config's `env` sets for this server (the user asked for them; they
    /// are set after toolgate's credentials were stripped).
    pub env: Vec<(String, String)>,
    /// Working directory for a stdio server (an MCP config's `cwd`).
    pub cwd: Option<PathBuf>,
    /// How a stdio server is confined (`--sandbox`).
    pub sandbox: crate::sandbox::SandboxOptions,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            config_key: None,
            connect_timeout: Duration::from_secs(60),
            request_timeout: Duration::from_secs(30),
            max_pages: 100,
            max_message_bytes: 32 * 1024 * 1024,
            headers: Vec::new(),
            bearer_token: None,
            pass_env: Vec::new(),
            env: Vec::new(),
            cwd: None,
            sandbox: Default::default(),
        }
    }
}

/// Parses a `--header 'K: V'` value.
pub(crate) fn parse_header(text: &str) -> anyhow::Result<(String, String)> {
    let Some((k, v)) = text.split_once(':') else {
        bail!("--header `{text}` is not of the form 'Name: value'");
    };
    let (k, v) = (k.trim(), v.trim());
    if k.is_empty() {
        bail!("--header `{text}` has an empty name");
    }
    reqwest::header::HeaderName::from_bytes(k.as_bytes())
        .with_context(|| format!("--header `{k}` is not a valid HTTP header name"))?;
    reqwest::header::HeaderValue::from_str(v)
        .with_context(|| format!("--header `{k}` has a value that is not valid in HTTP"))?;
    Ok((k.to_string(), v.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_lose_their_secrets_when_shown() {
        let words: Vec<String> = [
            "npx",
            "server",
            "--api-key",
            "abc123",
            "--token=xyz",
            "API_TOKEN=q",
            "ghp_abcdef",
            "https://u:p@h/x?key=1",
            "--port",
            "8080",
            "--verbose",
            "has-envsecret-inside",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let shown = redact_words(&words, &["envsecret".to_string()]).join(" ");
        assert_eq!(
            shown,
            "npx server --api-key *** --token=*** API_TOKEN=*** *** https://h/x?… --port 8080 --verbose has-***-inside"
        );
    }

    #[test]
    fn parses_each_kind() {
        assert_eq!(
            ServerSpec::parse("npx -y '@scope/server' .", &[]).unwrap(),
            ServerSpec::Command {
                program: "npx".into(),
                args: vec!["-y".into(), "@scope/server".into(), ".".into()]
            }
        );
        assert!(matches!(
            ServerSpec::parse("https://example.com/mcp", &[]).unwrap(),
            ServerSpec::Http { .. }
        ));
        assert!(ServerSpec::parse("missing-file.json", &[]).is_err());
        assert!(matches!(
            ServerSpec::parse("python3 server.py catalog.json", &[]).unwrap(),
            ServerSpec::Command { .. }
        ));
        assert!(ServerSpec::parse("  ", &[]).is_err());
    }

    #[test]
    fn extra_words_are_appended() {
        let spec = ServerSpec::parse("python3", &["server.py".into(), "--x".into()]).unwrap();
        assert_eq!(spec.display(), "python3 server.py --x");
    }

    #[test]
    fn urls_are_redacted() {
        assert_eq!(
            redact_url("https://user:pw@example.com/mcp?key=secret"),
            "https://example.com/mcp?…"
        );
    }

    #[test]
    fn headers_parse() {
        assert_eq!(
            parse_header("X-Api: a:b").unwrap(),
            ("X-Api".to_string(), "a:b".to_string())
        );
        assert!(parse_header("nocolon").is_err());
        assert!(parse_header(": v").is_err());
    }
}

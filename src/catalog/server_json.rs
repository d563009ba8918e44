//! `server.json` (the MCP Registry's description of a server) as a SERVER: a file whose JSON
//! has `packages` or `remotes` (and usually a `$schema` naming `server.schema.json`) is turned
//! into what a client would run — the first stdio package as its registry's one-shot command
//! (`npx -y <id>@<version>`, `uvx <id>==<version>`, `docker run -i --rm <image>:<version>`,
//! `dnx <id>@<version>`), with its runtime and package arguments; else the first Streamable
//! HTTP remote. A server only reachable over the legacy SSE transport is refused with a clear
//! message. Required environment variables that are not set are named.

use anyhow::{Context, bail};
use serde_json::Value;

use super::ServerSpec;

/// True when `v` is a registry server description rather than a `tools/list` snapshot.
pub(crate) fn looks_like(v: &Value) -> bool {
    let schema = v
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|s| s.contains("server.schema"));
    let shaped = v.get("tools").is_none()
        && (v.get("packages").is_some_and(Value::is_array)
            || v.get("remotes").is_some_and(Value::is_array));
    schema || shaped
}

/// The argument list of `args` (runtime or package arguments): positional values, named
/// `--name value` (or the bare flag), each from `value`, else `default`; an argument with
/// neither is skipped unless required (an error naming it).
fn arguments(args: Option<&Value>, what: &str) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    for (i, a) in args
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .take(64)
    {
        let value = a
            .get("value")
            .or_else(|| a.get("default"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let required = a
            .get("isRequired")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let name = a.get("name").and_then(Value::as_str).unwrap_or("");
        match a
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("positional")
        {
            "named" => {
                if name.is_empty() {
                    bail!("{what}[{i}] is a named argument without a `name`");
                }
                match value {
                    Some(v) => {
                        out.push(name.to_string());
                        out.push(v);
                    }
                    None if required => bail!(
                        "{what}[{i}] `{name}` is required and has no value or default: give the server on the command line instead"
                    ),
                    None => {}
                }
            }
            _ => match value {
                Some(v) => out.push(v),
                None if required => bail!(
                    "{what}[{i}]{} is required and has no value or default: give the server on the command line instead",
                    if name.is_empty() {
                        String::new()
                    } else {
                        format!(" `{name}`")
                    }
                ),
                None => {}
            },
        }
    }
    Ok(out)
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// The spec a client would run for `v` (read from `path`, named in errors), and notes (the
/// package chosen, required variables that are not set).
pub(crate) fn spec(v: &Value, path: &str) -> anyhow::Result<(ServerSpec, Vec<String>)> {
    let mut notes = Vec::new();
    let packages = v
        .get("packages")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let stdio = packages.iter().enumerate().find(|(_, p)| {
        p.pointer("/transport/type")
            .and_then(Value::as_str)
            .is_none_or(|t| t == "stdio")
    });
    if let Some((i, p)) = stdio {
        let at = format!("{path}: packages[{i}]");
        let kind = str_of(p, "registryType").unwrap_or("npm");
        let id = str_of(p, "identifier").with_context(|| format!("{at} has no `identifier`"))?;
        let version = str_of(p, "version");
        let mut words: Vec<String> = match kind {
            "npm" => vec![
                "npx".into(),
                "-y".into(),
                version.map_or(id.to_string(), |ver| format!("{id}@{ver}")),
            ],
            "pypi" => vec![
                "uvx".into(),
                version.map_or(id.to_string(), |ver| format!("{id}=={ver}")),
            ],
            "oci" => vec![
                "docker".into(),
                "run".into(),
                "-i".into(),
                "--rm".into(),
                match version {
                    Some(ver) if !id.contains(':') && !id.contains('@') => format!("{id}:{ver}"),
                    _ => id.to_string(),
                },
            ],
            "nuget" => vec![
                "dnx".into(),
                version.map_or(id.to_string(), |ver| format!("{id}@{ver}")),
                "--yes".into(),
            ],
            other => bail!(
                "{at}: registryType `{other}` is not one toolgate can start (npm, pypi, oci, nuget): give the server's command line instead"
            ),
        };
        // Runtime arguments go before the package (`docker run -e …`), package ones after.
        let runtime = arguments(p.get("runtimeArguments"), &format!("{at}.runtimeArguments"))?;
        let package = arguments(p.get("packageArguments"), &format!("{at}.packageArguments"))?;
        let program = words.remove(0);
        let mut args = Vec::new();
        args.extend(runtime);
        args.extend(words);
        args.extend(package);
        let missing: Vec<&str> = p
            .get("environmentVariables")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|e| {
                e.get("isRequired")
                    .and_then(Value::as_bool)
                    .unwrap_or(false)
            })
            .filter(|e| e.get("default").is_none() && e.get("value").is_none())
            .filter_map(|e| str_of(e, "name"))
            .filter(|n| std::env::var_os(n).is_none())
            .collect();
        if !missing.is_empty() {
            notes.push(format!(
                "{path}: the server needs {} set (required by its server.json)",
                missing.join(", ")
            ));
        }
        notes.push(format!("{path}: started as the {kind} package `{id}`"));
        return Ok((ServerSpec::Command { program, args }, notes));
    }
    let remotes = v
        .get("remotes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if let Some(r) = remotes
        .iter()
        .find(|r| str_of(r, "type") == Some("streamable-http"))
    {
        let url = str_of(r, "url").with_context(|| format!("{path}: a remote without a `url`"))?;
        if url.contains('{') {
            bail!(
                "{path}: the remote URL `{url}` has template variables: give the URL itself instead"
            );
        }
        reqwest::Url::parse(url)
            .with_context(|| format!("{path}: the remote URL `{url}` is not a URL"))?;
        notes.push(format!("{path}: its Streamable HTTP remote"));
        return Ok((
            ServerSpec::Http {
                url: url.to_string(),
            },
            notes,
        ));
    }
    if remotes.iter().any(|r| str_of(r, "type") == Some("sse"))
        || packages
            .iter()
            .any(|p| p.pointer("/transport/type").and_then(Value::as_str) == Some("sse"))
    {
        bail!(
            "{path} offers the server only over the legacy HTTP+SSE transport, which toolgate does not speak (Streamable HTTP or stdio only)"
        );
    }
    bail!("{path} has no stdio package and no Streamable HTTP remote toolgate can start")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn command(v: Value) -> (String, Vec<String>) {
        match spec(&v, "server.json").unwrap().0 {
            ServerSpec::Command { program, args } => (program, args),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn packages_become_the_registry_one_shot_command() {
        let (p, a) = command(
            json!({"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
            "name": "io.github.x/memory", "packages": [{"registryType": "npm",
            "identifier": "@modelcontextprotocol/server-memory", "version": "2026.8.31",
            "transport": {"type": "stdio"},
            "packageArguments": [{"type": "positional", "value": "/data"},
                                 {"type": "named", "name": "--mode", "default": "fast"}]}]}),
        );
        assert_eq!(p, "npx");
        assert_eq!(
            a,
            [
                "-y",
                "@modelcontextprotocol/server-memory@2026.8.31",
                "/data",
                "--mode",
                "fast"
            ]
        );
        let (p, a) = command(
            json!({"packages": [{"registryType": "pypi", "identifier": "mcp-server-time", "version": "1.0.0"}]}),
        );
        assert_eq!(
            (p.as_str(), a),
            ("uvx", vec!["mcp-server-time==1.0.0".to_string()])
        );
        let (p, a) = command(
            json!({"packages": [{"registryType": "oci", "identifier": "ghcr.io/o/s", "version": "2",
            "runtimeArguments": [{"type": "named", "name": "-e", "value": "X=1"}]}]}),
        );
        assert_eq!(p, "docker");
        assert_eq!(a, ["-e", "X=1", "run", "-i", "--rm", "ghcr.io/o/s:2"]);
    }

    #[test]
    fn remotes_and_refusals() {
        let v = json!({"remotes": [{"type": "sse", "url": "https://x/sse"}, {"type": "streamable-http", "url": "https://x/mcp"}]});
        assert!(
            matches!(spec(&v, "s").unwrap().0, ServerSpec::Http { url } if url == "https://x/mcp")
        );
        let e = spec(
            &json!({"remotes": [{"type": "sse", "url": "https://x/sse"}]}),
            "s",
        )
        .unwrap_err();
        assert!(e.to_string().contains("legacy HTTP+SSE"), "{e}");
        let e = spec(
            &json!({"packages": [{"registryType": "npm", "identifier": "x",
            "packageArguments": [{"type": "positional", "isRequired": true, "name": "dir"}]}]}),
            "s",
        )
        .unwrap_err();
        assert!(format!("{e:#}").contains("`dir` is required"), "{e:#}");
        assert!(looks_like(&json!({"packages": []})));
        assert!(!looks_like(&json!({"tools": []})));
    }
}

//! One server entry of an MCP config, read into a [`Transport`]: its type, command, arguments,
//! `env`, `cwd`, `url` and `headers`, each `${…}` expanded, every error naming the field's JSON
//! path.

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::{MAX_ITEMS, Transport, Vars, expand};
use crate::catalog::kind;

/// `.name`, or `["odd name"]` when the name is not a plain identifier.
pub(super) fn segment(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        format!(".{name}")
    } else {
        format!("[{}]", serde_json::to_string(name).unwrap_or_default())
    }
}

pub(super) fn server(
    entry: &Map<String, Value>,
    at: &str,
    vars: &Vars,
) -> Result<Transport, String> {
    let kind = opt_str(entry, "type", at)?;
    let has_url = entry.contains_key("url") || entry.contains_key("serverUrl");
    let url_key = if entry.contains_key("url") {
        "url"
    } else {
        "serverUrl"
    };
    match kind.as_deref() {
        Some("stdio") => stdio(entry, at, vars),
        None if entry.contains_key("command") => stdio(entry, at, vars),
        Some("http" | "streamable-http" | "streamableHttp") | None if has_url => {
            let url = expand::expand(&req_str(entry, url_key, at)?, &field(at, url_key), vars)?;
            let headers = string_map(entry, "headers", at, vars)?;
            Ok(Transport::Http { url, headers })
        }
        Some("sse") => {
            let url = expand::expand(&req_str(entry, url_key, at)?, &field(at, url_key), vars)?;
            Ok(Transport::Sse { url })
        }
        Some("http" | "streamable-http" | "streamableHttp") => Err(format!(
            "{at}: a `{}` server needs a `url`",
            kind.unwrap_or_default()
        )),
        Some(other) => Err(format!(
            "{}: `{other}` is not a server type toolgate knows (stdio, http, sse)",
            field(at, "type")
        )),
        None => Err(format!(
            "{at}: neither a `command` (a local server) nor a `url` (a remote one)"
        )),
    }
}

fn stdio(entry: &Map<String, Value>, at: &str, vars: &Vars) -> Result<Transport, String> {
    if entry.contains_key("envFile") {
        return Err(format!(
            "{}: toolgate does not read env files; put the variables in `env`",
            field(at, "envFile")
        ));
    }
    let command = expand::expand(&req_str(entry, "command", at)?, &field(at, "command"), vars)?;
    if command.trim().is_empty() {
        return Err(format!("{}: the command is empty", field(at, "command")));
    }
    let mut args = Vec::new();
    match entry.get("args") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            if items.len() > MAX_ITEMS {
                return Err(format!("{at}.args: more than {MAX_ITEMS} arguments"));
            }
            for (i, v) in items.iter().enumerate() {
                let here = format!("{at}.args[{i}]");
                let Value::String(s) = v else {
                    return Err(format!("{here}: expected a string, found {}", kind(v)));
                };
                args.push(expand::expand(s, &here, vars)?);
            }
        }
        Some(other) => {
            return Err(format!(
                "{at}.args: expected an array of strings, found {}",
                kind(other)
            ));
        }
    }
    let env = string_map(entry, "env", at, vars)?;
    let cwd = match opt_str(entry, "cwd", at)? {
        Some(c) => Some(PathBuf::from(expand::expand(&c, &field(at, "cwd"), vars)?)),
        None => None,
    };
    Ok(Transport::Stdio {
        command,
        args,
        env,
        cwd,
    })
}

fn field(at: &str, key: &str) -> String {
    format!("{at}.{key}")
}

fn opt_str(entry: &Map<String, Value>, key: &str, at: &str) -> Result<Option<String>, String> {
    match entry.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!(
            "{}: expected a string, found {}",
            field(at, key),
            kind(other)
        )),
    }
}

fn req_str(entry: &Map<String, Value>, key: &str, at: &str) -> Result<String, String> {
    opt_str(entry, key, at)?.ok_or_else(|| format!("{}: missing", field(at, key)))
}

/// `env` or `headers`: an object of strings (numbers and booleans are written as text, as
/// the hosts do), each value expanded.
fn string_map(
    entry: &Map<String, Value>,
    key: &str,
    at: &str,
    vars: &Vars,
) -> Result<Vec<(String, String)>, String> {
    let here = field(at, key);
    let map = match entry.get(key) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(format!(
                "{here}: expected an object of strings, found {}",
                kind(other)
            ));
        }
    };
    if map.len() > MAX_ITEMS {
        return Err(format!("{here}: more than {MAX_ITEMS} entries"));
    }
    let mut out = Vec::with_capacity(map.len());
    for (k, v) in map {
        let there = format!("{here}{}", segment(k));
        if k.is_empty() || k.contains('=') || k.contains('\0') {
            return Err(format!("{there}: not a valid variable or header name"));
        }
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            other => {
                return Err(format!("{there}: expected a string, found {}", kind(other)));
            }
        };
        let value = expand::expand(&text, &there, vars)?;
        if value.contains('\0') {
            return Err(format!("{there}: the value holds a NUL byte"));
        }
        out.push((k.clone(), value));
    }
    Ok(out)
}

//! `${…}` expansion in MCP client configs, as the hosts define it: `${VAR}` and
//! `${VAR:-default}` (Claude Code's `.mcp.json`), `${env:VAR}`, `${workspaceFolder}`,
//! `${userHome}` and `${pathSeparator}` (VS Code). `${input:ID}` (a VS Code prompt) and every
//! other `${kind:…}` cannot be resolved outside the editor: an error names them. A bare `$VAR`
//! is left as written (no host expands it).

/// Where a variable's value comes from. `Err` refuses a variable (a credential toolgate keeps
/// from servers); `Ok(None)` means it is not set.
pub(crate) type Lookup<'a> = &'a dyn Fn(&str) -> Result<Option<String>, String>;

/// What `${…}` can refer to besides the environment.
pub(crate) struct Vars<'a> {
    pub lookup: Lookup<'a>,
    /// `${workspaceFolder}`: the folder holding `.vscode/` (or the config file's folder).
    pub workspace: String,
}

/// Expands every `${…}` in `text`, read from the field `at` (named in errors).
pub(crate) fn expand(text: &str, at: &str, vars: &Vars) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            return Err(format!(
                "{at}: `${{` is never closed with `}}` (write a variable as ${{NAME}})"
            ));
        };
        out.push_str(&one(&after[..end], at, vars)?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

fn get(name: &str, at: &str, vars: &Vars) -> Result<Option<String>, String> {
    (vars.lookup)(name).map_err(|why| format!("{at}: `${{{name}}}` {why}"))
}

/// One `${inner}`.
fn one(inner: &str, at: &str, vars: &Vars) -> Result<String, String> {
    match inner {
        "workspaceFolder" => return Ok(vars.workspace.clone()),
        "pathSeparator" | "/" => return Ok(std::path::MAIN_SEPARATOR.to_string()),
        "userHome" => {
            return get("HOME", at, vars)?
                .ok_or_else(|| format!("{at}: `${{userHome}}` needs HOME, which is not set"));
        }
        _ => {}
    }
    if let Some((name, default)) = inner.split_once(":-")
        && valid_name(name)
    {
        return Ok(get(name, at, vars)?
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| default.to_string()));
    }
    if valid_name(inner) {
        return get(inner, at, vars)?.ok_or_else(|| {
            format!(
                "{at}: `${{{inner}}}` is not set (set it, or give a default: ${{{inner}:-value}})"
            )
        });
    }
    if let Some(name) = inner.strip_prefix("env:") {
        if !valid_name(name) {
            return Err(format!("{at}: `${{{inner}}}` is not a variable name"));
        }
        // VS Code reads an unset variable as empty.
        return Ok(get(name, at, vars)?.unwrap_or_default());
    }
    if let Some(id) = inner.strip_prefix("input:") {
        return Err(format!(
            "{at}: `${{input:{id}}}` is a VS Code prompt, which toolgate cannot answer offline: \
             write the value, or an environment variable (${{env:NAME}}), in its place"
        ));
    }
    Err(format!(
        "{at}: `${{{inner}}}` cannot be resolved outside the editor (toolgate expands ${{VAR}}, \
         ${{VAR:-default}}, ${{env:VAR}}, ${{workspaceFolder}} and ${{userHome}})"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Result<Option<String>, String> {
        match name {
            "HOME" => Ok(Some("/home/u".into())),
            "EMPTY" => Ok(Some(String::new())),
            "OPENAI_API_KEY" => Err("is a credential toolgate keeps from servers".into()),
            "X" => Ok(Some("x-value".into())),
            _ => Ok(None),
        }
    }

    fn run(text: &str) -> Result<String, String> {
        let vars = Vars {
            lookup: &lookup,
            workspace: "/ws".into(),
        };
        expand(text, "servers.a.args[0]", &vars)
    }

    #[test]
    fn every_form_the_hosts_define() {
        assert_eq!(run("plain $X text").unwrap(), "plain $X text");
        assert_eq!(run("${X}/${env:X}").unwrap(), "x-value/x-value");
        assert_eq!(run("${MISSING:-dflt}").unwrap(), "dflt");
        assert_eq!(run("${EMPTY:-dflt}").unwrap(), "dflt");
        assert_eq!(run("${X:-dflt}").unwrap(), "x-value");
        assert_eq!(run("${env:MISSING}").unwrap(), "");
        assert_eq!(
            run("${workspaceFolder}/data ${userHome}").unwrap(),
            "/ws/data /home/u"
        );
    }

    #[test]
    fn what_cannot_be_resolved_is_an_error_naming_the_field() {
        for (text, says) in [
            ("${MISSING}", "`${MISSING}` is not set"),
            ("${input:api-key}", "VS Code prompt"),
            ("${command:pick}", "cannot be resolved outside the editor"),
            ("${X", "never closed"),
            ("${env:1bad}", "not a variable name"),
            ("${OPENAI_API_KEY}", "credential toolgate keeps"),
            ("${OPENAI_API_KEY:-x}", "credential toolgate keeps"),
            ("${env:OPENAI_API_KEY}", "credential toolgate keeps"),
        ] {
            let e = run(text).unwrap_err();
            assert!(e.starts_with("servers.a.args[0]: "), "{e}");
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}

//! TG029 (tool-shadowing) over a belt: each tool's text read with the other servers' tool and
//! server names in view. A sentence that names another server's tool or server and steers the
//! model about it is an error naming both servers; generic "prefer this tool" wording stays a
//! warning (as in a single server's lint); a bare mention of another server's tool is info.
//! One finding per tool, the most severe. The work is one pass over each text's words with
//! hash lookups (no pair of tools is compared).

use std::collections::HashMap;

use super::super::rules::tool_shadowing::{prefers, quoted, sentences, steers, texts};
use super::super::{Finding, LintSettings, Severity};
use crate::catalog::Catalog;
use crate::catalog::belt::key;

/// Words that, right after a one-word name, mark it as a server's name ("the GitHub server",
/// "GitHub's tools").
const SERVER_MARKS: &[&str] = &["server", "mcp", "integration", "tools", "tool", "'s", "’s"];

/// Words that, right after a one-word name, mark it as a tool's name ("the search tool"). Quotes
/// do not: a quoted `'search'` or `'query'` is far more often a value than another server's tool.
const TOOL_MARKS: &[&str] = &["tool"];

/// True when `after` (lower-cased, trimmed) starts with one of `marks` as a whole word.
fn marked_by(after: &str, marks: &[&str]) -> bool {
    marks.iter().any(|m| {
        after.starts_with(m)
            && after[m.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// What the belt's names point at, lower-cased: tool name → (server, name as listed); server
/// name → server.
struct Names<'a> {
    tools: HashMap<String, Vec<(usize, &'a str)>>,
    servers: HashMap<String, usize>,
    /// Each server's tool names, lower-cased.
    own: Vec<Vec<String>>,
}

impl<'a> Names<'a> {
    fn of(servers: &[(&'a str, &'a Catalog)]) -> Self {
        let mut tools: HashMap<String, Vec<(usize, &str)>> = HashMap::new();
        let mut names: HashMap<String, usize> = HashMap::new();
        for (s, (name, catalog)) in servers.iter().enumerate() {
            for t in &catalog.tools {
                let list = tools.entry(t.name().to_lowercase()).or_default();
                if !list.iter().any(|(x, _)| *x == s) {
                    list.push((s, t.name()));
                }
            }
            for n in std::iter::once(*name).chain(catalog.server.name.as_deref()) {
                let n = n.to_lowercase();
                if n.chars().count() >= 3 && !matches!(n.as_str(), "mcp" | "server") {
                    names.entry(n).or_insert(s);
                }
            }
        }
        let own = servers
            .iter()
            .map(|(_, c)| c.tools.iter().map(|t| t.name().to_lowercase()).collect())
            .collect();
        Names {
            tools,
            servers: names,
            own,
        }
    }

    /// True when one of server `s`'s own tools ends with `name` after a separator: a
    /// description saying `update_issue` for its own `jira_update_issue`.
    fn suffix_of_own(&self, s: usize, name: &str) -> bool {
        self.own.get(s).is_some_and(|tools| {
            tools.iter().any(|t| {
                t.len() > name.len()
                    && t.ends_with(name)
                    && t[..t.len() - name.len()].ends_with(['_', '-', '.'])
            })
        })
    }
}

/// A name that cannot be an ordinary word: it has `_`, `-` or `.` inside, or a capital after
/// a small letter (`getUser`).
fn distinctive(name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    name.chars().count() >= 4
        && (name.contains(['_', '-', '.'])
            || chars
                .windows(2)
                .any(|w| w[0].is_lowercase() && w[1].is_uppercase()))
}

/// The other servers' tools (`server/tool`) and servers (`server`) that `sentence` names,
/// without `own`'s (nor names `own` lists itself).
fn named_in(
    sentence: &str,
    own: usize,
    names: &Names,
    servers: &[(&str, &Catalog)],
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let is_word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    let mut rest = sentence;
    let mut offset = 0;
    while let Some(start) = rest.find(|c: char| is_word(c)) {
        let len = rest[start..]
            .find(|c: char| !is_word(c))
            .unwrap_or(rest.len() - start);
        let raw = &rest[start..start + len];
        let abs = offset + start;
        rest = &rest[start + len..];
        offset = abs + len;
        let token = raw.trim_matches(|c| matches!(c, '.' | '-' | '/'));
        if token.is_empty() {
            continue;
        }
        let after = sentence[offset..].trim_start().to_lowercase();
        // Mid-sentence capital: a proper noun ("GitHub", "Slack").
        let proper = abs > 0 && token.chars().next().is_some_and(char::is_uppercase);
        let lower = token.to_lowercase();
        let mut hit = |k: String| {
            if !out.contains(&k) {
                out.push(k);
            }
        };
        // `server/tool` or `server.tool`.
        if let Some((s, t)) = lower.split_once(['/', '.'])
            && let Some(&si) = names.servers.get(s)
            && si != own
            && let Some(list) = names.tools.get(t)
            && let Some((_, shown)) = list.iter().find(|(x, _)| *x == si)
        {
            hit(key(servers[si].0, shown));
            continue;
        }
        if let Some(list) = names.tools.get(&lower)
            && (distinctive(token) || marked_by(&after, TOOL_MARKS))
            && !list.iter().any(|(x, _)| *x == own)
            && !names.suffix_of_own(own, &lower)
        {
            for (si, shown) in list {
                hit(key(servers[*si].0, shown));
            }
            continue;
        }
        if let Some(&si) = names.servers.get(&lower)
            && si != own
            && (marked_by(&after, SERVER_MARKS) || (proper && lower.chars().count() >= 4))
        {
            hit(servers[si].0.to_string());
        }
    }
    out
}

/// TG029 findings across the belt; `servers` are (name, catalog) in config order.
pub fn shadowing(servers: &[(&str, &Catalog)], settings: &LintSettings) -> Vec<Finding> {
    let rule = &super::super::rules::tool_shadowing::RULE;
    if settings.level_of(rule.code) == Some(super::super::Level::Off) {
        return Vec::new();
    }
    let names = Names::of(servers);
    let mut out = Vec::new();
    for (own, (server, catalog)) in servers.iter().enumerate() {
        for tool in &catalog.tools {
            let mut best: Option<(Severity, String, String, Vec<String>)> = None;
            'texts: for (pointer, text) in texts(tool) {
                for s in sentences(text) {
                    let named = named_in(s, own, &names, servers);
                    let found = if !named.is_empty() && steers(s) {
                        Some((
                            Severity::Error,
                            format!(
                                "names {} and steers the model about it: \"{}\"",
                                listed(&named),
                                quoted(s)
                            ),
                            named,
                        ))
                    } else if prefers(s).is_some() {
                        Some((
                            Severity::Warning,
                            format!(
                                "tells the model to prefer this tool over other tools: \"{}\"",
                                quoted(s)
                            ),
                            named,
                        ))
                    } else if named.iter().any(|k| k.contains('/')) {
                        Some((
                            Severity::Info,
                            format!(
                                "names {}, a tool of another server: \"{}\"",
                                listed(&named),
                                quoted(s)
                            ),
                            named,
                        ))
                    } else {
                        None
                    };
                    if let Some((sev, msg, named)) = found
                        && best.as_ref().is_none_or(|b| sev > b.0)
                    {
                        let done = sev == Severity::Error;
                        best = Some((sev, msg, pointer.clone(), named));
                        if done {
                            break 'texts;
                        }
                    }
                }
            }
            let Some((severity, message, pointer, related)) = best else {
                continue;
            };
            let others: Vec<&str> = related
                .iter()
                .map(|k| k.split_once('/').map_or(k.as_str(), |(s, _)| s))
                .collect();
            let help = match severity {
                Severity::Error => format!(
                    "Describe what `{server}`'s tool does as facts about itself; never tell the model to avoid, replace or distrust `{}`'s tools. If you did not write this text, treat `{server}` as compromised.",
                    others.first().copied().unwrap_or_default()
                ),
                Severity::Warning => "Say what the tool does and when it fits, as facts about this tool; leave the choice between tools to the model and the user.".to_string(),
                Severity::Info => format!(
                    "A description that depends on another server's tool breaks when `{}` is not loaded or renames it: say what this tool needs as data (\"an issue URL\"), not as another server's tool.",
                    others.first().copied().unwrap_or_default()
                ),
            };
            let f = Finding {
                group: None,
                code: rule.code.into(),
                slug: rule.slug.into(),
                severity,
                tool: Some(key(server, tool.name())),
                tool_index: None,
                pointer,
                message: format!(
                    "`{}` {message}",
                    key(
                        server,
                        &super::super::rules::common::shown_name(tool.name())
                    )
                ),
                help,
                related,
                pair: None,
            };
            out.extend(settings.apply(f));
        }
    }
    out
}

/// "`github/create_issue` (server `github`)", "server `github`", joined.
fn listed(named: &[String]) -> String {
    let parts: Vec<String> = named
        .iter()
        .take(5)
        .map(|k| match k.split_once('/') {
            Some((s, _)) => format!("`{k}` of server `{s}`"),
            None => format!("server `{k}`"),
        })
        .collect();
    let more = named.len().saturating_sub(5);
    if more > 0 {
        format!("{} and {more} more", parts.join(", "))
    } else {
        parts.join(", ")
    }
}

//! Host profiles: how each host presents a server's tools to its model, and the limits it
//! documents — the name the model sees (with the host's prefix) and its length and characters,
//! how many tools one request may carry, which JSON Schema subset the model API accepts, and
//! the token size at which the host stops showing schemas. Each limit cites the page that
//! documents it; `lint --host <id>,…` (or `[lint] hosts`) checks them (TG030, host-limits).

/// One documented limit and where it is documented.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limit<T: 'static> {
    pub value: T,
    pub source: &'static str,
}

/// A character rule: said in words, and the test.
pub(crate) type CharRule = (&'static str, fn(char) -> bool);

/// A host's profile.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Host {
    /// What `--host` takes.
    pub id: &'static str,
    pub name: &'static str,
    /// The name the model sees for a server's tool: `{server}` and `{tool}` are replaced.
    pub exposed: Limit<&'static str>,
    /// The host cuts the server's name to this many characters (lower-cased) in the prefix.
    pub server_max: Option<usize>,
    /// The host turns `.` in names into `_`.
    pub dots_to_underscores: bool,
    /// Longest exposed name the host (or its model API) accepts.
    pub max_name: Option<Limit<usize>>,
    /// The host cuts longer names silently instead of refusing them (then two tools can end
    /// up with one name), in the style of [`Host::cut`].
    pub truncates: bool,
    /// How a name over `max_name` is cut when `truncates`.
    pub cut: Cut,
    /// The host replaces characters outside `name_chars` with `_` instead of refusing the
    /// name: the model sees another name (and two names can meet).
    pub sanitizes: bool,
    /// Longest description the host (or its model API) takes.
    pub max_description: Option<Limit<usize>>,
    /// The characters a name may use, said in words, and the test.
    pub name_chars: Option<Limit<CharRule>>,
    /// What a name must start with, said in words, and the test.
    pub first_char: Option<Limit<CharRule>>,
    /// Most tools one request may carry.
    pub max_tools: Option<Limit<usize>>,
    /// Over `max_tools` the host drops the rest (a warning) rather than refusing (an error).
    pub tools_soft: bool,
    pub schema: Option<Limit<SchemaSubset>>,
    /// Catalog tokens from which the host defers schemas behind a search (0: always).
    pub defer_tokens: Option<Limit<usize>>,
}

/// How a host shortens a name that is too long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cut {
    /// Keeps the first characters.
    Tail,
    /// Keeps the start and the end around `___` (Gemini CLI).
    Middle,
    /// Keeps a prefix and appends a hash of the whole name (Codex): unique, but the model
    /// reads a hash where the tool's name was.
    Hash,
}

fn api_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn gemini_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-')
}

fn gemini_cli_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

fn letter_or_underscore(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

const ANTHROPIC_TOOLS: &str =
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools";
const ANTHROPIC_TOOL_SEARCH: &str =
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool";
const CLAUDE_CODE_MCP: &str = "https://code.claude.com/docs/en/mcp";
const OPENAI_FUNCTIONS: &str = "https://platform.openai.com/docs/api-reference/chat/create";
const OPENAI_STRICT: &str =
    "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas";
const VSCODE_TOOLS: &str = "https://code.visualstudio.com/docs/copilot/agents/agent-tools";
const VSCODE_NAMES: &str =
    "https://github.com/microsoft/vscode/blob/main/src/vs/workbench/contrib/mcp/common/mcpTypes.ts";
const CURSOR_MCP: &str = "https://docs.cursor.com/context/model-context-protocol";
/// No Cursor page documents the 60-character rule; its own warning does ("Combined server and
/// tool name length (60) exceeds 60 characters"), as reported here.
const CURSOR_NAMES: &str = "https://github.com/ComposioHQ/composio/issues/2788";
const GEMINI_NAMES: &str =
    "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration";
const GEMINI_SCHEMA: &str = "https://ai.google.dev/api/caching#Schema";
/// The Gemini API's function declarations: names of at most 64 characters, descriptions of at
/// most 1,024, and `parametersJsonSchema` (JSON Schema with `$ref`, `$defs` and
/// `additionalProperties`) beside the OpenAPI-subset `parameters`.
const GEMINI_FUNCTIONS: &str = "https://ai.google.dev/gemini-api/docs/function-calling";
/// Codex qualifies MCP tools as `mcp__<server>__<tool>`, replaces characters outside
/// `[A-Za-z0-9_-]` and, past 64 characters, keeps a prefix and appends a SHA-1 of the name.
const CODEX_MCP: &str =
    "https://github.com/openai/codex/blob/main/codex-rs/core/src/mcp_connection_manager.rs";
/// Gemini CLI registers a tool under its own name (`<server>__<tool>` when two servers share
/// it), replaces characters outside `[A-Za-z0-9_.-]` with `_`, cuts names over 63 characters
/// in the middle (`___`), and sends `parametersJsonSchema`.
const GEMINI_CLI: &str =
    "https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/tools/mcp-tool.ts";
/// GitHub Copilot CLI sends tool names as they are and its API refuses the whole request when
/// one breaks `^[a-zA-Z0-9_-]{1,128}$`.
const COPILOT_CLI: &str = "https://github.com/github/copilot-cli/issues/1879";

const fn at<T>(value: T, source: &'static str) -> Limit<T> {
    Limit { value, source }
}

/// The profiles `--host` knows.
pub(crate) const HOSTS: &[Host] = &[
    Host {
        id: "claude-code",
        name: "Claude Code",
        exposed: at("mcp__{server}__{tool}", CLAUDE_CODE_MCP),
        server_max: None,
        dots_to_underscores: false,
        // The Anthropic API's rule, and the 64-character cap of tool search's references.
        max_name: Some(at(64, ANTHROPIC_TOOLS)),
        truncates: false,
        cut: Cut::Tail,
        sanitizes: false,
        max_description: None,
        name_chars: Some(at(("A-Z a-z 0-9 _ -", api_name_char), ANTHROPIC_TOOLS)),
        first_char: None,
        max_tools: None,
        tools_soft: false,
        schema: None,
        // Deferred loading (tool search) is on by default; `ENABLE_TOOL_SEARCH=auto` defers
        // only past 10% of the context.
        defer_tokens: Some(at(0, CLAUDE_CODE_MCP)),
    },
    Host {
        id: "vscode",
        name: "VS Code (GitHub Copilot)",
        exposed: at("mcp_{server}_{tool}", VSCODE_NAMES),
        server_max: Some(13),
        dots_to_underscores: true,
        max_name: Some(at(64, VSCODE_NAMES)),
        truncates: true,
        cut: Cut::Tail,
        sanitizes: false,
        max_description: None,
        name_chars: None,
        first_char: None,
        max_tools: Some(at(128, VSCODE_TOOLS)),
        tools_soft: false,
        schema: None,
        defer_tokens: None,
    },
    Host {
        id: "cursor",
        name: "Cursor",
        // Cursor counts the server's and the tool's names together.
        exposed: at("{server}{tool}", CURSOR_NAMES),
        server_max: None,
        dots_to_underscores: false,
        max_name: Some(at(59, CURSOR_NAMES)),
        truncates: false,
        cut: Cut::Tail,
        sanitizes: false,
        max_description: None,
        name_chars: None,
        first_char: None,
        // Cursor warns past 80 tools across its servers and sends no more than it shows.
        max_tools: Some(at(80, CURSOR_MCP)),
        tools_soft: true,
        schema: None,
        defer_tokens: None,
    },
    Host {
        id: "openai-strict",
        name: "OpenAI (strict function calling)",
        exposed: at("{tool}", OPENAI_FUNCTIONS),
        server_max: None,
        dots_to_underscores: false,
        max_name: Some(at(64, OPENAI_FUNCTIONS)),
        truncates: false,
        cut: Cut::Tail,
        sanitizes: false,
        max_description: None,
        name_chars: Some(at(("A-Z a-z 0-9 _ -", api_name_char), OPENAI_FUNCTIONS)),
        first_char: None,
        max_tools: Some(at(128, OPENAI_FUNCTIONS)),
        tools_soft: false,
        schema: Some(at(SchemaSubset::OpenAiStrict, OPENAI_STRICT)),
        defer_tokens: None,
    },
    Host {
        id: "gemini",
        name: "Gemini (JSON Schema parameters)",
        exposed: at("{tool}", GEMINI_FUNCTIONS),
        server_max: None,
        dots_to_underscores: false,
        max_name: Some(at(64, GEMINI_FUNCTIONS)),
        truncates: false,
        cut: Cut::Tail,
        sanitizes: false,
        max_description: Some(at(1024, GEMINI_FUNCTIONS)),
        name_chars: Some(at(("A-Z a-z 0-9 _ . : -", gemini_name_char), GEMINI_NAMES)),
        first_char: Some(at(("a letter or `_`", letter_or_underscore), GEMINI_NAMES)),
        max_tools: Some(at(512, GEMINI_NAMES)),
        tools_soft: false,
        // `parametersJsonSchema` takes `$ref`, `$defs` and `additionalProperties`.
        schema: None,
        defer_tokens: None,
    },
    Host {
        id: "gemini-openapi",
        name: "Gemini (OpenAPI-subset parameters)",
        exposed: at("{tool}", GEMINI_FUNCTIONS),
        server_max: None,
        dots_to_underscores: false,
        max_name: Some(at(64, GEMINI_FUNCTIONS)),
        truncates: false,
        cut: Cut::Tail,
        sanitizes: false,
        max_description: Some(at(1024, GEMINI_FUNCTIONS)),
        name_chars: Some(at(("A-Z a-z 0-9 _ . : -", gemini_name_char), GEMINI_NAMES)),
        first_char: Some(at(("a letter or `_`", letter_or_underscore), GEMINI_NAMES)),
        max_tools: Some(at(512, GEMINI_NAMES)),
        tools_soft: false,
        schema: Some(at(SchemaSubset::Gemini, GEMINI_SCHEMA)),
        defer_tokens: None,
    },
    Host {
        id: "gemini-cli",
        name: "Gemini CLI",
        exposed: at("{tool}", GEMINI_CLI),
        server_max: None,
        dots_to_underscores: false,
        max_name: Some(at(63, GEMINI_CLI)),
        truncates: true,
        cut: Cut::Middle,
        sanitizes: true,
        max_description: Some(at(1024, GEMINI_FUNCTIONS)),
        name_chars: Some(at(("A-Z a-z 0-9 _ . -", gemini_cli_name_char), GEMINI_CLI)),
        first_char: None,
        max_tools: Some(at(512, GEMINI_NAMES)),
        tools_soft: false,
        schema: None,
        defer_tokens: None,
    },
    Host {
        id: "codex",
        name: "Codex",
        exposed: at("mcp__{server}__{tool}", CODEX_MCP),
        server_max: None,
        dots_to_underscores: false,
        max_name: Some(at(64, CODEX_MCP)),
        truncates: true,
        cut: Cut::Hash,
        sanitizes: true,
        max_description: None,
        name_chars: Some(at(("A-Z a-z 0-9 _ -", api_name_char), CODEX_MCP)),
        first_char: None,
        max_tools: None,
        tools_soft: false,
        schema: None,
        defer_tokens: None,
    },
    Host {
        id: "copilot-cli",
        name: "GitHub Copilot CLI",
        exposed: at("{tool}", COPILOT_CLI),
        server_max: None,
        dots_to_underscores: false,
        max_name: Some(at(128, COPILOT_CLI)),
        truncates: false,
        cut: Cut::Tail,
        sanitizes: false,
        max_description: None,
        name_chars: Some(at(("A-Z a-z 0-9 _ -", api_name_char), COPILOT_CLI)),
        first_char: None,
        max_tools: None,
        tools_soft: false,
        schema: None,
        defer_tokens: None,
    },
    Host {
        id: "anthropic",
        name: "Anthropic API",
        exposed: at("{tool}", ANTHROPIC_TOOLS),
        server_max: None,
        dots_to_underscores: false,
        max_name: Some(at(64, ANTHROPIC_TOOLS)),
        truncates: false,
        cut: Cut::Tail,
        sanitizes: false,
        max_description: None,
        name_chars: Some(at(("A-Z a-z 0-9 _ -", api_name_char), ANTHROPIC_TOOLS)),
        first_char: None,
        // With tool search: at most 10,000 tools in the catalog.
        max_tools: Some(at(10_000, ANTHROPIC_TOOL_SEARCH)),
        tools_soft: false,
        schema: None,
        defer_tokens: None,
    },
];

/// The profile of `id`.
pub(crate) fn host(id: &str) -> Option<&'static Host> {
    HOSTS.iter().find(|h| h.id.eq_ignore_ascii_case(id.trim()))
}

/// Every id `--host` takes, for errors.
pub(crate) fn ids() -> String {
    HOSTS.iter().map(|h| h.id).collect::<Vec<_>>().join(", ")
}

impl Host {
    /// The name the model sees for `tool` of `server`, before any truncation.
    pub(crate) fn exposed_name(&self, server: &str, tool: &str) -> String {
        let server: String = match self.server_max {
            Some(n) => server.to_lowercase().chars().take(n).collect(),
            None => server.to_string(),
        };
        let name = self
            .exposed
            .value
            .replace("{server}", &server)
            .replace("{tool}", tool);
        let name = if self.dots_to_underscores {
            name.replace('.', "_")
        } else {
            name
        };
        match (self.sanitizes, self.name_chars) {
            (true, Some(l)) => name
                .chars()
                .map(|c| if (l.value.1)(c) { c } else { '_' })
                .collect(),
            _ => name,
        }
    }

    /// The name after the host's silent truncation, when it truncates.
    pub(crate) fn final_name(&self, server: &str, tool: &str) -> String {
        let name = self.exposed_name(server, tool);
        let (true, Some(l)) = (self.truncates, self.max_name) else {
            return name;
        };
        let chars: Vec<char> = name.chars().collect();
        let max = l.value;
        if chars.len() <= max {
            return name;
        }
        match self.cut {
            Cut::Tail => chars[..max].iter().collect(),
            Cut::Middle => {
                let keep = max.saturating_sub(3);
                let head = keep / 2;
                let tail = keep - head;
                let mut out: String = chars[..head].iter().collect();
                out.push_str("___");
                out.extend(&chars[chars.len() - tail..]);
                out
            }
            Cut::Hash => {
                use sha2::{Digest, Sha256};
                let digest = Sha256::digest(name.as_bytes());
                let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
                let keep = max.saturating_sub(hex.len());
                let mut out: String = chars[..keep].iter().collect();
                out.push_str(&hex);
                out
            }
        }
    }
}

pub(crate) use super::host_schema::{SchemaSubset, schema_problems};

#[cfg(test)]
mod tests;

//! TG018's orders about other tools ("when using send_email, always BCC …", "before calling
//! any other tool, first call …") and orders hidden in HTML comments.

use std::sync::LazyLock;

use crate::text::pattern::Regex;

use super::super::common::quote;
use super::frame::Own;

/// Longest text after a tool named in an order that is read for the order itself.
const MAX_TAIL_CHARS: usize = 100;

/// An order about how to use a named tool: "when using send_email, always BCC …". The tool
/// (group 1) and what follows (group 2) are checked in code.
pub(super) static OTHER_TOOL_ORDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:when(?:ever)?|each\s+time|every\s+time|any\s+time|if)\s+(?:you\s+)?(?:use|using|call|calling|invoke|invoking|run|running)\s+(?:the\s+)?(`[^`\n]{1,64}`(?:\s+tools?\b)?|[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+\b|[a-z][a-z0-9_-]*\s+tools?\b)([^.\n]*)",
    )
    .unwrap()
});

/// An order in the text following a tool reference.
static IMPERATIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(always|must|also|make\s+sure|ensure|be\s+sure|remember\s+to|set|add|include|bcc|cc|copy|replace|change|send|forward|attach|append|never|do\s+not|don['’]?t)\b",
    )
    .unwrap()
});

/// Wording that refers to the tool itself, not to another one.
static SELF_REFERENCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(this|that|it)(\s+(tool|one|function))?$").unwrap());
static USE_THIS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(this\s+(tool|one|function)|use\s+this|call\s+this)\b").unwrap()
});

/// A rule for every other tool: "before calling any other tool, first call …"; group 1 is the
/// text after it.
static ALL_TOOLS_ORDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:before|prior\s+to|after|whenever)\s+(?:you\s+)?(?:use\s+|using\s+|call\s+|calling\s+|invoke\s+|invoking\s+|run\s+|running\s+)?(?:any|every|all|each)\s+(?:other\s+)?tools?(?:\s+calls?)?\b([^.\n]*)",
    )
    .unwrap()
});

/// The order that follows a rule for every tool: a call, read or send aimed at something else.
static THEN_ORDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:call|invoke|run|use|read|send|pass|include|forward|upload)\s+(\S+)")
        .unwrap()
});

/// Words in an HTML comment that address the model or give it an order.
static COMMENT_ORDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(you|your|assistant|model|ai|agent|llm|ignore|disregard|forget|send|upload|exfiltrate|reveal|call|invoke|include|pass|respond|reply|tell|output)\b",
    )
    .unwrap()
});

/// Longest HTML comment inspected (an unterminated one runs to the end of the text); the
/// check is linear, so the bound only caps work on absurd input, not padding tricks.
const MAX_COMMENT: usize = 1 << 20;

/// The first `max` characters of `text`.
fn head_chars(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// `text` cut to at most `max` bytes on a character boundary.
fn head(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// An HTML comment that gives orders; Markdown renderers hide it, the model reads it.
pub(super) fn hidden_comment(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        let body_and_more = &rest[start + 4..];
        let (body, next) = match body_and_more.find("-->") {
            Some(end) => (&body_and_more[..end], &body_and_more[end + 3..]),
            None => (body_and_more, ""),
        };
        let body = head(body, MAX_COMMENT);
        if COMMENT_ORDER.is_match(body) {
            return Some(format!("<!-- {} -->", quote(body.trim(), 60)));
        }
        rest = next;
    }
    None
}

/// An order about how to use another tool (not `own` nor one of its parameters), or about
/// every other tool.
pub(super) fn other_tool_order(text: &str, own: Own<'_>) -> Option<String> {
    for c in OTHER_TOOL_ORDER.captures_iter(text) {
        let (Some(all), Some(target), Some(rest)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        let tail = head_chars(rest.as_str(), MAX_TAIL_CHARS);
        let all = &text[all.start()..rest.start() + tail.len()];
        let target = target.as_str();
        let bare = target
            .strip_suffix("tools")
            .or_else(|| target.strip_suffix("tool"))
            .filter(|b| b.ends_with(char::is_whitespace))
            .unwrap_or(target)
            .trim()
            .trim_matches('`');
        if own.is_self(bare)
            || SELF_REFERENCE.is_match(target)
            || USE_THIS.is_match(tail)
            || !IMPERATIVE.is_match(tail)
        {
            continue;
        }
        return Some(all.to_string());
    }
    for c in ALL_TOOLS_ORDER.captures_iter(text) {
        let (Some(all), Some(rest)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let tail = head_chars(rest.as_str(), 80);
        let all = &text[all.start()..rest.start() + tail.len()];
        let orders_another = THEN_ORDER.captures_iter(tail).any(|t| {
            t.get(1).is_some_and(|w| {
                let w = w.as_str().trim_matches(|c: char| !c.is_alphanumeric());
                !["this", "it", "me", "here"].contains(&w.to_lowercase().as_str())
            })
        });
        if orders_another {
            return Some(all.to_string());
        }
    }
    None
}

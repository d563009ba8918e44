//! A fixer's reply, read as a proposed description: what to strip, and when it is not a
//! description at all.

/// Words that open a preface to the description rather than the description itself.
const PREFACES: &[&str] = &[
    "here is",
    "here's",
    "sure",
    "certainly",
    "of course",
    "absolutely",
    "okay",
    "ok",
    "new description",
    "improved description",
    "updated description",
    "rewritten description",
    "revised description",
    "better description",
    "description",
];

/// A fixer's reply as a description: a Markdown code fence's content, a preface ("Sure! Here is
/// a better description:"), Markdown emphasis and surrounding quotes dropped.
pub(crate) fn proposed(reply: &str) -> String {
    let mut t = reply.trim();
    // ```text … ``` : the fence's content.
    if let Some(start) = t.find("```") {
        let after = &t[start + 3..];
        let body_start = after.find('\n').map_or(0, |i| i + 1);
        if let Some(end) = after[body_start..].find("```") {
            t = after[body_start..body_start + end].trim();
        }
    }
    // A preface: a first sentence or line ending in ':' that opens with a preface word.
    let lower = t.to_lowercase();
    let opens = PREFACES.iter().any(|p| {
        lower.starts_with(p)
            && lower[p.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric())
    });
    if opens && let Some((_, rest)) = t.split_once(':') {
        let rest = rest.trim();
        if !rest.is_empty() {
            t = rest;
        }
    }
    let t = t
        .trim()
        .trim_start_matches("**")
        .trim_end_matches("**")
        .trim();
    let quotes = ['"', '“', '”', '`', '\''];
    // Matched surrounding quotes only: an apostrophe inside the text stays.
    let t = match (t.chars().next(), t.chars().last()) {
        (Some(a), Some(b))
            if quotes.contains(&a) && quotes.contains(&b) && t.chars().count() > 1 =>
        {
            let inner: &str = &t[a.len_utf8()..t.len() - b.len_utf8()];
            inner.trim()
        }
        _ => t,
    };
    t.to_string()
}

/// Why a fixer's reply is not a description to measure: empty, a refusal or an apology, or a
/// question back. A refusal measured as a description would be scored — and could even "win"
/// by making the model call nothing.
pub(crate) fn not_a_description(text: &str) -> Option<String> {
    const REFUSALS: &[&str] = &[
        "i'm sorry",
        "i am sorry",
        "sorry but",
        "i can't",
        "i cannot",
        "i can not",
        "i won't",
        "i will not",
        "i'm unable",
        "i am unable",
        "unable to help",
        "unable to assist",
        "cannot assist",
        "can't assist",
        "can't help",
        "cannot help",
        "as an ai",
        "i apologize",
        "i'm not able",
        "i am not able",
        "not able to help",
    ];
    let lower = text.trim().to_lowercase().replace('’', "'");
    if lower.is_empty() {
        return Some("the fixer answered with no text".into());
    }
    // Whole words only: "the API cannot delete" is not "I cannot".
    let spaced: String = lower
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' {
                c
            } else {
                ' '
            }
        })
        .collect();
    let spaced = format!(
        " {} ",
        spaced.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    if let Some(r) = REFUSALS.iter().find(|r| spaced.contains(&format!(" {r} "))) {
        return Some(format!(
            "the fixer refused or apologised (\"{r}\"), which is not a description"
        ));
    }
    if lower.ends_with('?') {
        return Some("the fixer asked a question instead of writing a description".into());
    }
    // What is left still talks about the description instead of being one.
    let talks = [
        "here is",
        "here's",
        "better description",
        "new description",
        "i've rewritten",
        "i have rewritten",
    ];
    if let Some(w) = talks.iter().find(|w| lower.contains(*w)) {
        return Some(format!(
            "the reply talks about the description (\"{w}\") instead of being one"
        ));
    }
    if lower.contains("```") {
        return Some("the reply is not one description (an unclosed code fence)".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefaces_and_quotes_are_dropped_refusals_are_not_descriptions() {
        assert_eq!(
            proposed("Here is a better description: \"List open tickets.\""),
            "List open tickets."
        );
        assert_eq!(proposed("  “Close a ticket.”  "), "Close a ticket.");
        assert_eq!(
            proposed("Note: only open tickets"),
            "Note: only open tickets"
        );
        // Issue 41: prefaces, fences, emphasis and quotes around the description.
        for reply in [
            "Sure! Here is a better description: \"List open tickets.\"",
            "Certainly. Here's the improved description:\n\nList open tickets.",
            "```text\nList open tickets.\n```",
            "Sure, here it is:\n```\nList open tickets.\n```",
            "**List open tickets.**",
            "'List open tickets.'",
        ] {
            assert_eq!(proposed(reply), "List open tickets.", "{reply:?}");
            assert!(not_a_description(&proposed(reply)).is_none(), "{reply:?}");
        }
        assert_eq!(
            proposed("Lists the user's open tickets."),
            "Lists the user's open tickets."
        );
        // What still talks about the description is refused, with the reason.
        let r = not_a_description(&proposed(
            "I rewrote it. Here is the new one, shorter and clearer.",
        ));
        assert!(r.is_some_and(|r| r.contains("talks about")), "refused");
        for r in [
            "I'm sorry, I can't help with that.",
            "I cannot rewrite this.",
            "As an AI, I…",
            "",
            "Which tool do you mean?",
            "I’m unable to assist.",
        ] {
            assert!(not_a_description(r).is_some(), "{r}");
        }
        assert!(
            not_a_description("Close a resolved ticket; for stale cases use archive_ticket.")
                .is_none()
        );
    }
}

//! A fixer's reply, read as a proposed description: what to strip, and when it is not a
//! description at all.

/// A fixer's reply as a description: surrounding quotes and a "Here is …:" preface dropped.
pub(crate) fn proposed(reply: &str) -> String {
    let t = reply.trim();
    let lower = t.to_lowercase();
    let t = match t.split_once(':') {
        Some((_, rest))
            if (lower.starts_with("here is")
                || lower.starts_with("here's")
                || lower.starts_with("new description"))
                && !rest.trim().is_empty() =>
        {
            rest
        }
        _ => t,
    };
    t.trim()
        .trim_matches(['"', '“', '”', '`'])
        .trim()
        .to_string()
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

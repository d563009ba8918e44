//! What a model's score measures, named from the model's spec as run files record it. A router
//! (`bm25`, `toolsearch…`, `embed`, `hybrid`) ranks tools by text similarity to a request and
//! "calls" its first result: its score is **findability@1** (would a search over the
//! definitions put the right tool first?), never tool accuracy. Only a model that chooses (an
//! LLM endpoint, a local model, a replayed agent log) earns the name **tool accuracy**.

/// True when `spec` names a router (its score is findability).
pub(crate) fn is_router(spec: &str) -> bool {
    super::model::parse(spec).router().is_some()
}

/// The name of what `spec`'s headline score measures: `findability@1` or `tool accuracy`.
pub(crate) fn name(spec: &str) -> &'static str {
    if is_router(spec) {
        "findability@1"
    } else {
        "tool accuracy"
    }
}

/// The name for several models at once: theirs when they agree, else `score`.
pub(crate) fn name_of_all<'a>(specs: impl IntoIterator<Item = &'a str>) -> &'static str {
    let mut names = specs.into_iter().map(name);
    let Some(first) = names.next() else {
        return "score";
    };
    if names.all(|n| n == first) {
        first
    } else {
        "score"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routers_measure_findability_and_choosers_tool_accuracy() {
        for s in [
            "bm25",
            "bm25:3",
            "toolsearch:5",
            "toolsearch-names:3",
            "toolsearch-codex:8",
            "embed@0.4:/m",
            "hybrid:/m",
        ] {
            assert_eq!(name(s), "findability@1", "{s}");
        }
        for s in [
            "openai:gpt-4o-mini",
            "local:/m.gguf",
            "replay:log.jsonl",
            "ollama:bm25",
        ] {
            assert_eq!(name(s), "tool accuracy", "{s}");
        }
        assert_eq!(name_of_all(["bm25:3", "toolsearch:5"]), "findability@1");
        assert_eq!(name_of_all(["bm25:3", "openai:x"]), "score");
    }
}

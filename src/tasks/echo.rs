//! Name echo: a request that repeats its tool's name words ("Help me git status") or quotes a
//! run of its description lets a router match the request against the catalog's own text
//! instead of understanding it. Such a task measures the name (or the description) against
//! itself: a server with two-word descriptions scores as well as one with good ones.
//!
//! Label leakage ([`super::leak`]) is the identifier itself (`git_status`); echo is the softer
//! form: every content word of the name present in the request (stemmed, any order), or three
//! consecutive words of the description, two of them content words. Sharing one word ("show
//! the status of my repo") is ordinary English and is not echo.

use std::collections::HashSet;

use crate::text;

/// Words too common to say anything about a tool, on top of [`text::is_stop`]: an echo needs
/// words that carry meaning, and a template keyword must say something.
const WEAK: &[&str] = &[
    "about",
    "after",
    "also",
    "been",
    "before",
    "between",
    "both",
    "but",
    "do",
    "does",
    "etc",
    "every",
    "few",
    "given",
    "how",
    "i",
    "like",
    "may",
    "more",
    "most",
    "must",
    "no",
    "not",
    "one",
    "only",
    "optional",
    "other",
    "optionally",
    "per",
    "provided",
    "should",
    "some",
    "specific",
    "specified",
    "such",
    "than",
    "then",
    "there",
    "these",
    "those",
    "two",
    "up",
    "via",
    "we",
    "what",
    "where",
    "who",
    "whether",
    "would",
    "e",
    "g",
    "eg",
    "ie",
    "based",
    "able",
    "allows",
    "lets",
    "user",
    "users",
    "current",
    "currently",
    "new",
    "multiple",
    "single",
    "certain",
    "various",
    "information",
    "details",
    "data",
    "result",
    "results",
];

/// True for a word that is a stop word or too common to count (lower-case input).
pub(crate) fn weak(word: &str) -> bool {
    text::is_stop(word) || WEAK.contains(&word) || word.chars().all(|c| c.is_ascii_digit())
}

/// The stems of a name's content words: `get_file_info` → `get`, `file`, `info`.
pub(crate) fn name_stems(name: &str) -> Vec<String> {
    let mut out: Vec<String> = text::name_words(name)
        .iter()
        .filter(|w| !text::is_stop(w) && !w.chars().all(|c| c.is_ascii_digit()))
        .map(|w| text::stem(w))
        .collect();
    out.dedup();
    out
}

/// True when the request carries every content word of `tool`'s name (stemmed, any order).
pub(crate) fn name_echo(request: &str, tool: &str) -> bool {
    let stems = name_stems(tool);
    if stems.is_empty() {
        return false;
    }
    let said: HashSet<String> = text::words_iter(request).map(|w| text::stem(&w)).collect();
    stems.iter().all(|s| said.contains(s))
}

/// How many description words a run check reads (bounds the work a hostile description causes).
const MAX_DESCRIPTION_WORDS: usize = 4_000;

/// The first run of three consecutive words the request shares verbatim with `description`,
/// two of them content words ("working tree status"), if any.
pub(crate) fn description_run(request: &str, description: &str) -> Option<String> {
    let d: Vec<String> = text::words_iter(description)
        .take(MAX_DESCRIPTION_WORDS)
        .collect();
    if d.len() < 3 {
        return None;
    }
    let grams: HashSet<&[String]> = d.windows(3).collect();
    let r = text::words(request);
    r.windows(3)
        .find(|w| w.iter().filter(|x| !weak(x)).count() >= 2 && grams.contains(w))
        .map(|w| w.join(" "))
}

/// The first identifier-shaped word of the request (`soil_moisture`, `mistingSchedule`: an
/// underscore inside it, or a lower-case letter followed by a capital) whose words are two or
/// more consecutive words of the tool's name, or all the words of one of its parameters' names.
/// A person does not write `soil_moisture`; a request that does quotes the definition.
pub(crate) fn partial_identifier<'a>(
    request: &str,
    tool: &str,
    params: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let name: Vec<String> = text::name_words(tool)
        .iter()
        .map(|w| w.to_lowercase())
        .collect();
    let params: Vec<Vec<String>> = params
        .into_iter()
        .take(MAX_PARAMS)
        .map(|p| {
            text::name_words(p)
                .iter()
                .map(|w| w.to_lowercase())
                .collect()
        })
        .filter(|w: &Vec<String>| w.len() >= 2)
        .collect();
    request
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| identifier_shaped(t))
        .take(MAX_IDENTIFIERS)
        .find(|t| {
            let words: Vec<String> = text::name_words(t)
                .iter()
                .map(|w| w.to_lowercase())
                .collect();
            words.len() >= 2
                && (name.windows(words.len()).any(|w| w == words.as_slice())
                    || params.iter().any(|p| p == &words))
        })
        .map(str::to_string)
}

/// How many parameter names and request identifiers [`partial_identifier`] reads.
const MAX_PARAMS: usize = 200;
const MAX_IDENTIFIERS: usize = 200;

/// `soil_moisture` or `mistingSchedule`: an underscore between letters or digits, or a
/// lower-case letter followed by a capital.
fn identifier_shaped(t: &str) -> bool {
    let c: Vec<char> = t.chars().collect();
    c.windows(3)
        .any(|w| w[1] == '_' && w[0].is_alphanumeric() && w[2].is_alphanumeric())
        || c.windows(2)
            .any(|w| w[0].is_lowercase() && w[1].is_uppercase())
}

/// What a request echoes of a catalog tool (its name, its description, or part of its name
/// or a parameter's name as an identifier), said for a reviewer; `None` when nothing.
pub(crate) fn echo_of(request: &str, tool: &crate::catalog::Tool) -> Option<String> {
    echo(request, tool.name(), tool.description().unwrap_or("")).or_else(|| {
        let params = tool
            .input_schema()
            .and_then(|s| s.get("properties"))
            .and_then(serde_json::Value::as_object)
            .map(|p| p.keys().map(String::as_str).collect::<Vec<_>>())
            .unwrap_or_default();
        partial_identifier(request, tool.name(), params)
            .map(|id| format!("it quotes part of the definition as an identifier (`{id}`)"))
    })
}

/// What a request echoes of its tool, said for a reviewer; `None` when it echoes nothing.
pub(crate) fn echo(request: &str, tool: &str, description: &str) -> Option<String> {
    if name_echo(request, tool) {
        let words = text::name_words(tool).join(" ");
        return Some(format!("it carries every word of the name (`{words}`)"));
    }
    description_run(request, description)
        .map(|run| format!("it quotes the description (\"{run}\")"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_word_is_echo_one_is_english() {
        assert!(name_echo("Help me git status — repo path /x", "git_status"));
        assert!(name_echo("show the STATUS of git", "git_status"));
        assert!(name_echo("list the files in /tmp", "list_files"));
        assert!(name_echo(
            "searching slots that are free",
            "searchFreeSlots"
        ));
        assert!(!name_echo("what's the status of my repo?", "git_status"));
        assert!(!name_echo("show me the files in /tmp", "list_files"));
        assert!(!name_echo("anything", "___"));
    }

    #[test]
    fn three_word_runs_with_two_content_words() {
        assert_eq!(
            description_run(
                "show the working tree status please",
                "Shows the working tree status"
            )
            .as_deref(),
            Some("the working tree")
        );
        // Three shared words, but only one says anything.
        assert_eq!(
            description_run("a list of the things", "Returns a list of the items"),
            None
        );
        assert_eq!(description_run("working tree", "working tree"), None);
    }

    /// Issue 41 point 5: a partial identifier of the name or a parameter is echo; English
    /// words and unrelated identifiers are not.
    #[test]
    fn partial_identifiers_are_echo() {
        let soil = |r: &str| partial_identifier(r, "get_soil_moisture", ["bed_id"]);
        assert_eq!(
            soil("what is the soil_moisture in bed 3?").as_deref(),
            Some("soil_moisture")
        );
        assert_eq!(
            soil("how wet is the soilMoisture now").as_deref(),
            Some("soilMoisture")
        );
        assert_eq!(soil("check bed_id 4").as_deref(), Some("bed_id"));
        assert_eq!(soil("how wet is the soil in bed 3?"), None);
        assert_eq!(soil("soil moisture in bed 3"), None, "English words");
        assert_eq!(soil("check my_garden please"), None, "not this tool's");
        assert_eq!(soil("check moisture_soil"), None, "not in the name's order");
        let mist =
            |r: &str| partial_identifier(r, "update_greenhouse", ["mistingSchedule", "zone"]);
        assert_eq!(
            mist("set the mistingSchedule to every 2 hours").as_deref(),
            Some("mistingSchedule")
        );
        assert_eq!(mist("mist the plants every 2 hours"), None);
        assert_eq!(mist("set zone 4"), None, "one word is English");
        // iPhone-style words are not identifiers of the tool.
        assert_eq!(partial_identifier("my iPhone", "get_phone", []), None);
    }

    #[test]
    fn echo_says_what_was_echoed() {
        let said = echo("git status now", "git_status", "").unwrap();
        assert!(said.contains("`git status`"), "{said}");
        let said = echo(
            "the working tree status",
            "git_status",
            "Shows the working tree",
        )
        .unwrap();
        assert!(said.contains("\"the working tree\""), "{said}");
        assert_eq!(
            echo(
                "what changed in my repo?",
                "git_status",
                "Shows the working tree status"
            ),
            None
        );
    }
}

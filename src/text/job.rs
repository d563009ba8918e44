//! A tool's job as its name states it (`get_file_contents`: get + file) and as its
//! description's opening clause states it ("Read a file (or a directory listing) …": get +
//! file). A description that opens with another tool's job, in its own words, describes that
//! tool's twin: `list_project_tags` "List the labels (tags) defined on a project" beside
//! `list_labels`, `read_file` "Read a file …" beside `get_file_contents`. Word overlap misses
//! such pairs when one description is short and the other long, and role comparison reads
//! `tags` and `labels` as two objects.

use std::collections::HashMap;

use super::role::is_verb;
use super::synonyms::{PREPOSITIONS, concept, noun};
use super::{is_stop, name_words, stem, words};

/// A verb concept and the object's words (stemmed, folded as nouns), in order.
type Job = (String, Vec<String>);

/// Words after the head noun that name what reading it gives: `get_file_contents` does
/// `read_file`'s job (but getting a document need not give its content, and a file's details
/// or info may be its metadata).
const CONTENT_FACETS: &[&str] = &["content", "contents"];

/// Words after an opening's object that narrow it to some of them ("issues that …").
const NARROWING: &[&str] = &["that", "which", "who", "whose", "where", "when", "if"];

/// Verbs whose job depends on the object: an opened file is read, an opened ticket created.
const AMBIGUOUS_VERBS: &[&str] = &["open"];

/// Words between a verb and its object that pick one or some, not which kind.
const DETERMINERS: &[&str] = &[
    "one", "single", "specific", "existing", "some", "every", "new",
];

/// Tools sharing one job in their names beyond this many are a template's, not twins.
const MAX_SHARING: usize = 4;

fn object_of(ws: &[String]) -> Vec<String> {
    ws.iter().map(|w| noun(&stem(w))).collect()
}

/// The job a name states: its first word a known verb, the rest (stop words aside) the object.
fn name_job(name: &str) -> Option<Job> {
    let ws: Vec<String> = name_words(name)
        .into_iter()
        .filter(|w| !is_stop(w))
        .collect();
    let (verb, rest) = ws.split_first()?;
    if rest.is_empty()
        || !is_verb(verb)
        || AMBIGUOUS_VERBS.contains(&verb.as_str())
        || rest.iter().any(|w| is_verb(w))
    {
        return None;
    }
    Some((concept(&stem(verb)), object_of(rest)))
}

/// The job a description's opening clause states: a leading verb, then (determiners aside)
/// the words up to the first preposition, stop word or punctuation.
fn opening_job(description: &str) -> Option<Job> {
    let clause = description
        .trim_start()
        .split(['.', ',', ';', ':', '(', '\n', '—', '-'])
        .next()?;
    let ws = words(clause);
    let (verb, rest) = ws.split_first()?;
    if !is_verb(verb) || AMBIGUOUS_VERBS.contains(&verb.as_str()) {
        return None;
    }
    let start = rest
        .iter()
        .position(|w| !is_stop(w) && !DETERMINERS.contains(&w.as_str()))?;
    let rest = &rest[start..];
    let end = rest
        .iter()
        .position(|w| is_stop(w) || PREPOSITIONS.contains(&w.as_str()) || is_verb(w))
        .unwrap_or(rest.len());
    // "Issues assigned to the user" and "issues that …" are some issues, not the job.
    if end == 0
        || rest
            .get(end)
            .is_some_and(|w| NARROWING.contains(&w.as_str()) || is_verb(w))
    {
        return None;
    }
    Some((concept(&stem(verb)), object_of(&rest[..end])))
}

/// Pairs of tools (name, description) that do one job: two names that state it in other
/// words (`get_file_contents` / `read_file`), or a description that opens with the job
/// another tool's name states while its own name states another object (not a kind of the
/// same one: `read_media_file` "Read a file …" is a narrower `read_file`). Each pair once,
/// `(a, b)` with `a < b`, sorted.
pub(crate) fn job_twins(tools: &[(&str, &str)]) -> Vec<(usize, usize)> {
    let named: Vec<Option<Job>> = tools.iter().map(|(n, _)| name_job(n)).collect();
    let mut by_job: HashMap<&Job, Vec<usize>> = HashMap::new();
    // `get_file_contents` filed under get + file, for the tools named `read_file`.
    let mut contents: HashMap<Job, Vec<usize>> = HashMap::new();
    for (i, j) in named.iter().enumerate() {
        if let Some(j) = j {
            by_job.entry(j).or_default().push(i);
            if let Some((last, object)) = j.1.split_last()
                && !object.is_empty()
                && CONTENT_FACETS.iter().any(|f| noun(&stem(f)) == *last)
            {
                contents
                    .entry((j.0.clone(), object.to_vec()))
                    .or_default()
                    .push(i);
            }
        }
    }
    let mut out = Vec::new();
    for list in by_job.values().filter(|l| l.len() <= MAX_SHARING) {
        for (k, &a) in list.iter().enumerate() {
            for &b in &list[k + 1..] {
                if tools[a].0 != tools[b].0 {
                    out.push((a.min(b), a.max(b)));
                }
            }
        }
    }
    for (b, (name, _)) in tools.iter().enumerate() {
        let reads = name_words(name).first().is_some_and(|w| w == "read");
        if let (true, Some(job)) = (reads, &named[b])
            && let Some(list) = contents.get(job).filter(|l| l.len() <= MAX_SHARING)
        {
            out.extend(list.iter().map(|&a| (a.min(b), a.max(b))));
        }
    }
    for (b, (name, description)) in tools.iter().enumerate() {
        let Some(job) = opening_job(description) else {
            continue;
        };
        let Some(list) = by_job.get(&job).filter(|l| l.len() <= MAX_SHARING) else {
            continue;
        };
        // `b`'s name already states this job, or a narrower kind of its object.
        if named[b]
            .as_ref()
            .is_some_and(|own| own == &job || own.1.last() == job.1.last())
        {
            continue;
        }
        for &a in list {
            if a != b && tools[a].0 != *name {
                out.push((a.min(b), a.max(b)));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_openings_state_jobs() {
        assert_eq!(
            opening_job("List the labels (tags) defined on a GitLab project."),
            name_job("list_labels")
        );
        assert_eq!(
            opening_job("Fetch one issue of a GitLab project by its IID."),
            name_job("get_issue")
        );
        // A compound is another object: document types are not documents.
        assert_ne!(
            opening_job("List all document types."),
            name_job("list_documents")
        );
        assert_eq!(opening_job("Returns the weather"), None);
        assert_eq!(name_job("branches"), None);
    }

    #[test]
    fn twins_are_other_names_for_one_job() {
        let tools = [
            ("list_labels", "List labels for a project."),
            (
                "list_project_tags",
                "List the labels (tags) defined on a GitLab project.",
            ),
            ("get_label", "Get a single label from a project."),
            ("list_tags", "List the repository tags of a project."),
        ];
        assert_eq!(job_twins(&tools), vec![(0, 1)]);
        // Two names for one job; a narrower object and another facet are other jobs.
        let files = [
            ("read_file", "Read a file as text."),
            ("get_file_contents", "Get the contents of a file."),
            ("read_media_file", "Read a file and return it as base64."),
            ("get_file_info", "Retrieve metadata about a file."),
            ("get_document", "Get a document's metadata."),
            ("get_document_content", "Get the text of a document."),
        ];
        assert_eq!(job_twins(&files), vec![(0, 1)]);
        // Some of the objects are not the job.
        let mine = [
            ("list_issues", "List issues."),
            (
                "my_issues",
                "List issues assigned to the authenticated user.",
            ),
            ("open_issues", "List issues that are open."),
        ];
        assert!(job_twins(&mine).is_empty());
        // "Open" a ticket creates it; opening a file reads it.
        let open = [
            ("get_issue", "Get an issue."),
            ("open_issue", "Open a new issue."),
        ];
        assert!(job_twins(&open).is_empty());
    }
}

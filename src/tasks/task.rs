//! The task format: one JSON object per line. Reading reports the file and line of every
//! problem; writing is deterministic (same tasks, same bytes).

use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub(crate) use super::review_state::{Approval, Review};
pub(crate) use crate::record::kind::Kind;

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Direct, Kind::NearMiss, Kind::NoTool];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Direct => "direct",
            Kind::NearMiss => "near_miss",
            Kind::NoTool => "no_tool",
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    #[default]
    Dev,
    Heldout,
}

/// The call a task expects.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Map<String, Value>>,
    /// Other tools that are also a correct choice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acceptable: Vec<String>,
}

impl Expected {
    /// True when calling `tool` counts as the right choice.
    pub fn accepts(&self, tool: &str) -> bool {
        self.tool == tool || self.acceptable.iter().any(|t| t == tool)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    pub id: String,
    /// What a user types.
    pub request: String,
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
    /// The sibling a near-miss request aims at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lure: Option<String>,
    #[serde(default)]
    pub split: Split,
    /// `template`, `llm:<model>` or `hand`.
    #[serde(default = "default_source")]
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Problems a generator could not resolve, kept for review.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Whether a person approved the task: generators write `pending`, `toolgate approve`
    /// writes `approved`. Absent: approved when hand-written (`source` `hand`), else pending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<Review>,
}

fn default_source() -> String {
    "hand".into()
}

impl Task {
    /// A person stands behind the task: approved and unchanged since, or hand-written with no
    /// review state.
    pub fn reviewed(&self) -> bool {
        self.approval() == Approval::Reviewed
    }

    /// The task's review state, checked against its stamp.
    pub fn approval(&self) -> Approval {
        match &self.review {
            Some(Review::Pending) => Approval::Pending,
            Some(Review::Approved { stamp: Some(h) }) if *h == self.stamp() => Approval::Reviewed,
            Some(Review::Approved { .. }) => Approval::Stale,
            None if self.source == "hand" => Approval::Reviewed,
            None => Approval::Pending,
        }
    }

    /// What an approval pins: the first 16 hex digits of the sha256 of the task's canonical
    /// JSON without its `review` (the request, the expectation, the lure, the split, the
    /// source: everything that is measured).
    pub fn stamp(&self) -> String {
        let mut h = crate::catalog::canonical::HashWriter::new();
        let _ = serde_json::to_writer(
            &mut h,
            &crate::catalog::canonical::sorted(&unreviewed_value(self)),
        );
        let mut hex = h.hex().unwrap_or_default();
        hex.truncate(16);
        hex
    }

    /// The tool the task expects, or `None` for no_tool tasks.
    pub fn expected_tool(&self) -> Option<&str> {
        self.expected.as_ref().map(|e| e.tool.as_str())
    }

    /// Checks the fields that must agree with `kind`.
    fn check_shape(&self) -> Result<(), String> {
        if self.id.trim().is_empty() {
            return Err("`id` is empty".into());
        }
        if self.request.trim().is_empty() {
            return Err("`request` is empty".into());
        }
        match (self.kind, &self.expected) {
            (Kind::NoTool, Some(_)) => Err("a no_tool task must not have `expected`".into()),
            (Kind::Direct | Kind::NearMiss, None) => Err(format!(
                "a {} task needs `expected.tool`",
                self.kind.as_str()
            )),
            _ => Ok(()),
        }
    }
}

/// A task with the line it was read from.
pub(crate) type Numbered = (usize, Task);

/// A malformed line: its number and what is wrong.
pub(crate) type LineError = (usize, String);

/// Parses a JSONL task file leniently: good tasks with their line numbers, and one message per
/// malformed line. Blank lines and lines starting with `//` are skipped.
pub(crate) fn parse_tasks(path: &Path) -> anyhow::Result<(Vec<Numbered>, Vec<LineError>)> {
    parse_tasks_pinned(path).map(|(tasks, errors, _)| (tasks, errors))
}

/// [`parse_tasks`], with the approved set's hash the file's `toolgate approve` header pins
/// (read from the same text, which is read once).
fn parse_tasks_pinned(
    path: &Path,
) -> anyhow::Result<(Vec<Numbered>, Vec<LineError>, Option<String>)> {
    let text = crate::fsio::read_text(path)
        .with_context(|| format!("could not read the task file {}", path.display()))?;
    let mut tasks = Vec::new();
    let mut errors = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        }
        match serde_json::from_str::<Task>(trimmed) {
            Ok(t) => match t.check_shape() {
                Ok(()) => tasks.push((n + 1, t)),
                Err(e) => errors.push((n + 1, e)),
            },
            Err(e) => errors.push((n + 1, e.to_string())),
        }
    }
    let pinned = super::review_state::header_hash(&text);
    Ok((tasks, errors, pinned))
}

#[cfg(test)]
/// Reads a JSONL task file strictly: any malformed line, an empty file or a repeated id is an
/// error naming the file and line.
pub(crate) fn read_tasks(path: &Path) -> anyhow::Result<Vec<Task>> {
    Ok(read_numbered(path)?.into_iter().map(|(_, t)| t).collect())
}

/// [`read_tasks`] with each task's line number.
pub(crate) fn read_numbered(path: &Path) -> anyhow::Result<Vec<Numbered>> {
    read_numbered_pinned(path).map(|(tasks, _)| tasks)
}

/// [`read_numbered`], with the approved set's hash the file's header pins (see
/// [`super::review_state::header_hash`]).
pub(crate) fn read_numbered_pinned(path: &Path) -> anyhow::Result<(Vec<Numbered>, Option<String>)> {
    let shown = path.display();
    let (tasks, errors, pinned) = parse_tasks_pinned(path)?;
    if !errors.is_empty() {
        let more = if errors.len() > 10 {
            format!("\n  … and {} more", errors.len() - 10)
        } else {
            String::new()
        };
        let lines: Vec<String> = errors
            .iter()
            .take(10)
            .map(|(n, e)| format!("{shown}:{n}: {e}"))
            .collect();
        return Err(crate::error::TaskFileError::Malformed {
            path: path.to_path_buf(),
            line: errors[0].0,
            count: errors.len(),
            listing: format!("{}{more}", lines.join("\n  ")),
        }
        .into());
    }
    if tasks.is_empty() {
        return Err(crate::error::TaskFileError::Empty {
            path: path.to_path_buf(),
        }
        .into());
    }
    let mut seen = std::collections::HashMap::new();
    for (n, t) in &tasks {
        if let Some(first) = seen.insert(t.id.as_str(), *n) {
            return Err(crate::error::TaskFileError::DuplicateId {
                path: path.to_path_buf(),
                line: *n,
                id: t.id.clone(),
                first,
            }
            .into());
        }
    }
    drop(seen);
    Ok((tasks, pinned))
}

pub(crate) fn write_tasks(path: &Path, tasks: &[Task]) -> anyhow::Result<()> {
    write_tasks_after(path, tasks, None)
}

/// [`write_tasks`] with a first line (`toolgate approve`'s header).
pub(crate) fn write_tasks_after(
    path: &Path,
    tasks: &[Task],
    header: Option<&str>,
) -> anyhow::Result<()> {
    let mut out = String::new();
    if let Some(h) = header {
        out.push_str(h);
        out.push('\n');
    }
    for t in tasks {
        out.push_str(&serde_json::to_string(t)?);
        out.push('\n');
    }
    crate::out::write_file(path, &out)
}

/// The task as JSON without its review state (what a hash of the measured task covers).
fn unreviewed_value(t: &Task) -> Value {
    let mut v = serde_json::to_value(t).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove("review");
    }
    v
}

/// sha256 of the task suite's canonical form (tasks sorted by id), for run provenance: the
/// canonical JSON array of the tasks, streamed into the hasher one task at a time (the same
/// bytes, and so the same hash, as canonicalising the whole array at once, without holding it).
pub(crate) fn suite_hash(tasks: &[Task]) -> String {
    use std::io::Write;
    let mut sorted: Vec<&Task> = tasks.iter().collect();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    let mut h = crate::catalog::canonical::HashWriter::new();
    let _ = h.write_all(b"[");
    for (i, t) in sorted.iter().enumerate() {
        if i > 0 {
            let _ = h.write_all(b",");
        }
        // What was measured, not who approved it: approving a suite keeps its hash, so runs
        // before and after approval stay comparable.
        let v = unreviewed_value(t);
        let _ = serde_json::to_writer(&mut h, &crate::catalog::canonical::sorted(&v));
    }
    let _ = h.write_all(b"]");
    h.hex().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), text).unwrap();
        f
    }

    #[test]
    fn reads_valid_lines_and_names_bad_ones() {
        let f = file(concat!(
            r#"{"id":"a","request":"book a room","kind":"direct","expected":{"tool":"book_room","arguments":{"room":"Vega"}}}"#,
            "\n\n",
            r#"{"id":"b","request":"weather?","kind":"no_tool"}"#,
            "\n"
        ));
        let tasks = read_tasks(f.path()).unwrap();
        assert_eq!(tasks.len(), 2);
        assert_eq!(tasks[0].split, Split::Dev);

        let f = file(concat!(
            r#"{"id":"a","request":"x","kind":"direct"}"#,
            "\n",
            r#"{"id":"b","request":"y","kind":"sideways"}"#,
            "\nnot json\n"
        ));
        let e = read_tasks(f.path()).unwrap_err().to_string();
        assert!(e.contains(":1: a direct task needs `expected.tool`"), "{e}");
        assert!(e.contains(":2: unknown variant `sideways`"), "{e}");
        assert!(e.contains(":3: expected"), "{e}");
    }

    #[test]
    fn empty_and_duplicate_ids_are_errors() {
        assert!(
            read_tasks(file("\n\n").path())
                .unwrap_err()
                .to_string()
                .contains("no tasks")
        );
        let line = r#"{"id":"a","request":"x","kind":"no_tool"}"#;
        let e = read_tasks(file(&format!("{line}\n{line}\n")).path()).unwrap_err();
        assert!(e.to_string().contains("already used on line 1"));
    }

    /// The streamed hash is the one run directories and baselines already store: the hash of
    /// the whole suite canonicalised at once.
    #[test]
    fn suite_hash_is_unchanged_by_streaming() {
        let f = file(concat!(
            r#"{"id":"b","request":"book a room","kind":"direct","expected":{"tool":"book_room","arguments":{"room":"Vega","at":{"z":1,"a":[2,{"y":1,"b":0}]}}},"split":"heldout"}"#,
            "\n",
            r#"{"id":"a","request":"weather? \u00e9\u6771","kind":"no_tool","source":"hand","seed":7}"#,
            "\n",
            r#"{"id":"c","request":"x","kind":"near_miss","expected":{"tool":"t"},"lure":"u"}"#,
            "\n"
        ));
        let tasks = read_tasks(f.path()).unwrap();
        let mut sorted: Vec<&Task> = tasks.iter().collect();
        sorted.sort_by(|a, b| a.id.cmp(&b.id));
        let whole =
            crate::catalog::canonical::to_canonical_string(&serde_json::to_value(&sorted).unwrap());
        assert_eq!(
            suite_hash(&tasks),
            crate::catalog::canonical::sha256_hex(&whole)
        );
        assert_eq!(suite_hash(&[]), crate::catalog::canonical::sha256_hex("[]"));
    }

    #[test]
    fn suite_hash_ignores_order() {
        let a: Task = serde_json::from_str(r#"{"id":"a","request":"x","kind":"no_tool"}"#).unwrap();
        let b: Task = serde_json::from_str(r#"{"id":"b","request":"y","kind":"no_tool"}"#).unwrap();
        assert_eq!(suite_hash(&[a.clone(), b.clone()]), suite_hash(&[b, a]));
    }
}

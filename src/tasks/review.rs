//! A task's review state: pending, or approved with a stamp of the text a person read.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A task's review state. On disk: `"pending"`, or `{"approved": "<stamp>"}` where the stamp
/// is the first 16 hex digits of the sha256 of the task as it was approved (see
/// [`Task::stamp`]). An approved task edited afterwards no longer matches its stamp and counts
/// as unreviewed again, so an approval covers exactly the text a person read. A bare
/// `"approved"` (written before stamps) is read as an approval with no stamp: stale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Review {
    Pending,
    Approved { stamp: Option<String> },
}

impl Serialize for Review {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Review::Pending => s.serialize_str("pending"),
            Review::Approved { stamp: None } => s.serialize_str("approved"),
            Review::Approved { stamp: Some(h) } => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("approved", h)?;
                m.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Review {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let expected = r#"`review` must be "pending" or {"approved": "<stamp>"} (written by `toolgate approve`)"#;
        let v = Value::deserialize(d)?;
        match &v {
            Value::String(w) if w == "pending" => Ok(Review::Pending),
            Value::String(w) if w == "approved" => Ok(Review::Approved { stamp: None }),
            Value::Object(o) if o.len() == 1 => match o.get("approved") {
                Some(Value::String(h))
                    if (1..=64).contains(&h.len()) && h.bytes().all(|b| b.is_ascii_hexdigit()) =>
                {
                    Ok(Review::Approved {
                        stamp: Some(h.clone()),
                    })
                }
                _ => Err(serde::de::Error::custom(expected)),
            },
            _ => Err(serde::de::Error::custom(expected)),
        }
    }
}

/// Whether a person stands behind a task, and if not, why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Approval {
    /// Approved and unchanged since, or hand-written.
    Reviewed,
    /// Generated and never approved.
    Pending,
    /// Approved, but the task changed since (or the approval carries no stamp).
    Stale,
}

/// The first line `toolgate approve` writes: how many tasks were approved and the hash of
/// that set (their ids), so a task removed or slipped in by hand since the approval is seen
/// even though every remaining stamp still matches. A `//` line, which
/// task readers skip.
pub const HEADER_PREFIX: &str = "// toolgate approve:";

/// sha256 of the approved set: the sorted ids of the tasks marked approved (an edit to one of
/// them is its own stamp's business; the set sees removals and additions).
pub fn approved_set_hash(tasks: &[crate::tasks::Task]) -> (usize, String) {
    use sha2::{Digest, Sha256};
    let mut ids: Vec<&str> = tasks
        .iter()
        .filter(|t| matches!(t.review, Some(Review::Approved { .. })))
        .map(|t| t.id.as_str())
        .collect();
    ids.sort_unstable();
    let mut h = Sha256::new();
    for id in &ids {
        h.update(id.as_bytes());
        h.update(b"\n");
    }
    (ids.len(), hex::encode(h.finalize()))
}

/// The header line for `tasks`.
pub fn header_line(tasks: &[crate::tasks::Task]) -> String {
    let (n, hash) = approved_set_hash(tasks);
    format!(
        "{HEADER_PREFIX} {n} approved task(s), set sha256 {hash}; change a task only by editing it and running `toolgate approve` again"
    )
}

/// The approved-set hash a file's header records, if it has one.
pub fn header_hash(text: &str) -> Option<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix(HEADER_PREFIX))
        .find_map(|rest| {
            let after = rest.split("set sha256 ").nth(1)?;
            let hash: String = after
                .chars()
                .take_while(|c| c.is_ascii_hexdigit())
                .collect();
            (hash.len() == 64).then_some(hash)
        })
}

/// When the file's header records an approved set other than the one it now holds (a task
/// removed, added as approved or edited by hand), every approval of the file is void: its
/// approved tasks count as stale until approved again. Returns whether it was.
pub fn void_if_moved(text: &str, tasks: &mut [crate::tasks::Task]) -> bool {
    void_unless_pinned(header_hash(text).as_deref(), tasks)
}

/// [`void_if_moved`] with the hash the header pins already read ([`header_hash`]).
pub fn void_unless_pinned(pinned: Option<&str>, tasks: &mut [crate::tasks::Task]) -> bool {
    let stamped = tasks
        .iter()
        .any(|t| matches!(t.review, Some(Review::Approved { stamp: Some(_) })));
    match pinned {
        // Stamped approvals without the header `approve` writes beside them: the header was
        // deleted, which would hide a removed task.
        None if stamped => {}
        None => return false,
        Some(pinned) if approved_set_hash(tasks).1 == pinned => return false,
        Some(_) => {}
    }
    for t in tasks.iter_mut() {
        if matches!(t.review, Some(Review::Approved { .. })) {
            t.review = Some(Review::Approved { stamp: None });
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Task;

    #[test]
    fn an_approval_covers_the_task_as_it_was_approved() {
        let mut t: Task = serde_json::from_str(
            r#"{"id":"a","request":"book a room","kind":"direct","expected":{"tool":"book_room"},"source":"template","review":"pending"}"#,
        )
        .unwrap();
        assert_eq!(t.approval(), Approval::Pending);
        t.review = Some(Review::Approved {
            stamp: Some(t.stamp()),
        });
        assert!(t.reviewed());
        // On disk and back: the stamp survives a round trip and still matches.
        let line = serde_json::to_string(&t).unwrap();
        assert!(
            line.contains(&format!(r#""review":{{"approved":"{}"}}"#, t.stamp())),
            "{line}"
        );
        let back: Task = serde_json::from_str(&line).unwrap();
        assert!(back.reviewed());
        // Any measured field edited afterwards: stale.
        for (from, to) in [
            (r#""book a room""#, r#""book any room""#),
            (r#""tool":"book_room""#, r#""tool":"book_rooms""#),
            (r#""kind":"direct""#, r#""kind":"near_miss""#),
        ] {
            let changed = line.replacen(from, to, 1);
            assert_ne!(changed, line);
            let t2: Task = serde_json::from_str(&changed).unwrap();
            assert_eq!(t2.approval(), Approval::Stale, "{changed}");
        }
        // An approval written before stamps is stale; a hand-written task needs none.
        let old: Task = serde_json::from_str(
            r#"{"id":"a","request":"x","kind":"no_tool","source":"template","review":"approved"}"#,
        )
        .unwrap();
        assert_eq!(old.approval(), Approval::Stale);
        let hand: Task =
            serde_json::from_str(r#"{"id":"a","request":"x","kind":"no_tool"}"#).unwrap();
        assert_eq!(hand.approval(), Approval::Reviewed);
    }

    #[test]
    fn a_malformed_review_is_an_error_that_says_what_is_allowed() {
        for bad in [
            r#""yes""#,
            r#"{"approved":"zz"}"#,
            r#"{"approved":"ab","by":"me"}"#,
            "1",
        ] {
            let line = format!(r#"{{"id":"a","request":"x","kind":"no_tool","review":{bad}}}"#);
            let e = serde_json::from_str::<Task>(&line).unwrap_err().to_string();
            assert!(e.contains("toolgate approve"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_header_pins_the_approved_set() {
        let task = |id: &str| -> Task {
            let mut t: Task = serde_json::from_str(&format!(
                r#"{{"id":"{id}","request":"book room {id}","kind":"direct","expected":{{"tool":"book_room"}},"source":"template"}}"#
            ))
            .unwrap();
            t.review = Some(Review::Approved {
                stamp: Some(t.stamp()),
            });
            t
        };
        let tasks = vec![task("a"), task("b"), task("c")];
        let text = format!("{}\n", header_line(&tasks));
        assert_eq!(header_hash(&text).map(|h| h.len()), Some(64));
        let mut same = tasks.clone();
        assert!(!void_if_moved(&text, &mut same));
        assert!(same.iter().all(Task::reviewed));
        // One removed: every approval is void.
        let mut fewer = tasks[..2].to_vec();
        assert!(void_if_moved(&text, &mut fewer));
        assert!(fewer.iter().all(|t| t.approval() == Approval::Stale));
        // A pending task added beside them changes nothing; no header, no check.
        let mut more = tasks.clone();
        more.push(Task {
            review: Some(Review::Pending),
            ..task("d")
        });
        assert!(!void_if_moved(&text, &mut more));
        // The header deleted beside stamped approvals is a move too; a header under other
        // comment lines still counts.
        assert!(void_if_moved("", &mut tasks.clone()));
        assert!(!void_if_moved(
            &format!("// notes\n{text}"),
            &mut tasks.clone()
        ));
        let mut unstamped = vec![Task {
            review: Some(Review::Pending),
            ..task("e")
        }];
        assert!(!void_if_moved("", &mut unstamped));
    }
}

//! Approving tasks: the approved set's hash and header line, and voiding approvals of a file
//! that moved or changed since it was pinned. The review state itself is `super::review_state`'s.

#[cfg(test)]
use super::review_state::Approval;
pub(crate) use super::review_state::{HEADER_PREFIX, Review, header_hash};

/// sha256 of the approved set: the sorted ids of the tasks marked approved (an edit to one of
/// them is its own stamp's business; the set sees removals and additions).
pub(crate) fn approved_set_hash(tasks: &[crate::tasks::Task]) -> (usize, String) {
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
pub(crate) fn header_line(tasks: &[crate::tasks::Task]) -> String {
    let (n, hash) = approved_set_hash(tasks);
    format!(
        "{HEADER_PREFIX} {n} approved task(s), set sha256 {hash}; change a task only by editing it and running `toolgate approve` again"
    )
}

/// When the file's header records an approved set other than the one it now holds (a task
/// removed, added as approved or edited by hand), every approval of the file is void: its
/// approved tasks count as stale until approved again. Returns whether it was.
pub(crate) fn void_if_moved(text: &str, tasks: &mut [crate::tasks::Task]) -> bool {
    void_unless_pinned(header_hash(text).as_deref(), tasks)
}

/// [`void_if_moved`] with the hash the header pins already read ([`header_hash`]).
pub(crate) fn void_unless_pinned(pinned: Option<&str>, tasks: &mut [crate::tasks::Task]) -> bool {
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

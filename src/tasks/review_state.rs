//! A task's review state as the task file stores it: pending, or approved with a stamp of
//! the text a person read. What approving does is `super::review`'s.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A task's review state. On disk: `"pending"`, or `{"approved": "<stamp>"}` where the stamp
/// is the first 16 hex digits of the sha256 of the task as it was approved (see
/// `Task::stamp`). An approved task edited afterwards no longer matches its stamp and counts
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
pub(crate) const HEADER_PREFIX: &str = "// toolgate approve:";

/// The approved-set hash a file's header records, if it has one.
pub(crate) fn header_hash(text: &str) -> Option<String> {
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

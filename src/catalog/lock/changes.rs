//! What differs between two locks: tools added, removed and changed (field by field, as JSON
//! pointers), and the server instructions.

use std::collections::BTreeMap;

use serde_json::Value;

use super::LockFile;
use crate::catalog::canonical::{CANONICAL_VERSION, canonical_definition};
pub(crate) use crate::record::lock::{ChangeKind, FieldChange, LockDiff, ToolChange};

impl LockDiff {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.instructions_changed.is_none()
    }

    /// One sentence saying what changed, for the error line of `pin --check`: tool counts,
    /// and the server instructions when they changed (alone or with tools).
    pub fn summary(&self) -> String {
        let tools = !(self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty());
        let counts = format!(
            "{} added, {} removed, {} changed",
            self.added.len(),
            self.removed.len(),
            self.changed.len()
        );
        match (tools, self.instructions_changed.is_some()) {
            (false, true) => {
                "only the server instructions changed since they were pinned (the tool definitions match)".into()
            }
            (true, true) => format!(
                "the tool definitions ({counts}) and the server instructions changed since they were pinned"
            ),
            (true, false) => format!("the tool definitions changed since they were pinned ({counts})"),
            (false, false) => "nothing changed since the lock was pinned".into(),
        }
    }
}

/// The difference between two locks, each definition compared in the current canonical form
/// (so a version-1 lock and a catalog that only reorders `required` do not differ).
pub fn diff(old: &LockFile, new: &LockFile) -> LockDiff {
    let by_name = |l: &LockFile| -> BTreeMap<String, Value> {
        l.tools
            .iter()
            .map(|t| {
                let def = match t.definition.as_object() {
                    Some(m) => canonical_definition(m, CANONICAL_VERSION),
                    None => t.definition.clone(),
                };
                (t.name.clone(), def)
            })
            .collect()
    };
    let (a, b) = (by_name(old), by_name(new));
    let mut d = LockDiff::default();
    for (name, t) in &b {
        match a.get(name) {
            None => d.added.push(name.clone()),
            Some(o) if o != t => {
                let mut changes = Vec::new();
                walk("", o, t, &mut changes);
                d.changed.push(ToolChange {
                    name: name.clone(),
                    changes,
                });
            }
            Some(_) => {}
        }
    }
    d.removed = a.keys().filter(|n| !b.contains_key(*n)).cloned().collect();
    let text = |l: &LockFile| l.instructions.as_ref().map(|i| i.text.clone());
    if text(old) != text(new) {
        d.instructions_changed = Some((text(old), text(new)));
    }
    d
}

fn walk(ptr: &str, a: &Value, b: &Value, out: &mut Vec<FieldChange>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let p = format!("{ptr}/{}", crate::catalog::jsonpos::escape(k));
                match y.get(k) {
                    Some(vb) => walk(&p, va, vb, out),
                    None => out.push(FieldChange {
                        pointer: p,
                        change: ChangeKind::Removed,
                        before: Some(va.clone()),
                        after: None,
                    }),
                }
            }
            for (k, vb) in y {
                if !x.contains_key(k) {
                    out.push(FieldChange {
                        pointer: format!("{ptr}/{}", crate::catalog::jsonpos::escape(k)),
                        change: ChangeKind::Added,
                        before: None,
                        after: Some(vb.clone()),
                    });
                }
            }
        }
        _ if a != b => out.push(FieldChange {
            pointer: if ptr.is_empty() {
                "/".into()
            } else {
                ptr.into()
            },
            change: ChangeKind::Changed,
            before: Some(a.clone()),
            after: Some(b.clone()),
        }),
        _ => {}
    }
}

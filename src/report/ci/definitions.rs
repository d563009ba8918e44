//! The "Tool definitions" section: what changed since the base and against the lock, with a
//! unified diff GitHub colours.

use super::CiReport;
use super::cells::{capped, fenced, text_cell};
use crate::catalog::lock::LockDiff;
use crate::gate::{LockCheck, LockState};
use crate::report::markdown::code;

fn names(v: &[String]) -> String {
    v.iter().map(|n| code(n)).collect::<Vec<_>>().join(", ")
}

fn changed_summary(d: &LockDiff) -> String {
    let mut parts = Vec::new();
    if !d.added.is_empty() {
        parts.push(format!("added {}", names(&d.added)));
    }
    if !d.removed.is_empty() {
        parts.push(format!("removed {}", names(&d.removed)));
    }
    if !d.changed.is_empty() {
        let changed: Vec<String> = d
            .changed
            .iter()
            .map(|t| {
                let fields: Vec<String> = t
                    .changes
                    .iter()
                    .map(|c| c.pointer.trim_start_matches('/').to_string())
                    .take(3)
                    .collect();
                format!("{} ({})", code(&t.name), text_cell(&fields.join(", ")))
            })
            .collect();
        parts.push(format!("changed {}", changed.join(", ")));
    }
    if d.instructions_changed.is_some() {
        parts.push("changed the server instructions".into());
    }
    parts.join("; ")
}

fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => crate::catalog::canonical::to_canonical_string(other),
    }
}

/// A definition diff as unified-diff lines (`-` before, `+` after), which GitHub colours.
pub(crate) fn diff_lines(d: &LockDiff) -> String {
    let mut out = String::new();
    for n in &d.added {
        out.push_str(&format!("+ tool {n} (new)\n"));
    }
    for n in &d.removed {
        out.push_str(&format!("- tool {n} (removed)\n"));
    }
    for t in &d.changed {
        out.push_str(&format!("@@ {} @@\n", t.name));
        for c in &t.changes {
            out.push_str(&format!("  {}\n", c.pointer));
            if let Some(b) = &c.before {
                out.push_str(&format!("- {}\n", value_text(b).replace('\n', "\n- ")));
            }
            if let Some(a) = &c.after {
                out.push_str(&format!("+ {}\n", value_text(a).replace('\n', "\n+ ")));
            }
        }
    }
    if let Some((a, b)) = &d.instructions_changed {
        out.push_str("@@ server instructions @@\n");
        if let Some(a) = a {
            out.push_str(&format!("- {}\n", a.replace('\n', "\n- ")));
        }
        if let Some(b) = b {
            out.push_str(&format!("+ {}\n", b.replace('\n', "\n+ ")));
        }
    }
    out
}

pub(super) fn definitions(r: &CiReport, out: &mut String) {
    let mut lines = Vec::new();
    let mut details = Vec::new();
    if let Some(c) = &r.comparison {
        match &c.definitions {
            Some(d) if d.is_empty() => {
                lines.push("No tool definition changed since the base.".to_string());
            }
            Some(d) => {
                lines.push(format!("Since the base: {}.", changed_summary(d)));
                details.push(("What changed since the base", diff_lines(d)));
            }
            None if !c.tools_added.is_empty() || !c.tools_removed.is_empty() => {
                lines.push(format!(
                    "Since the base: added {}; removed {}.",
                    names(&c.tools_added),
                    names(&c.tools_removed)
                ));
            }
            None => {}
        }
    }
    let l = &r.lock;
    match l.status {
        LockState::Match => lines.push(format!("🔒 {} matches the server.", code(&l.path))),
        LockState::Missing => lines.push(format!(
            "No lock file at {}: run `toolgate pin` and commit it to catch unreviewed definition changes.",
            code(&l.path)
        )),
        LockState::Changed => {
            if let Some(d) = &l.diff {
                lines.push(format!(
                    "{} The server differs from {}: {}. If that is intended, run `toolgate pin` and commit the lock.",
                    if l.policy == LockCheck::Fail { "❌" } else { "⚠️" },
                    code(&l.path),
                    changed_summary(d)
                ));
                details.push(("What differs from the lock", diff_lines(d)));
            }
        }
        _ => {}
    }
    if lines.is_empty() {
        return;
    }
    out.push_str("### Tool definitions\n\n");
    for line in lines {
        out.push_str(&format!("- {line}\n"));
    }
    for (title, body) in details {
        out.push_str(&format!(
            "\n<details><summary>{title}</summary>\n\n{}\n</details>\n",
            fenced(&capped(&body))
        ));
    }
    out.push('\n');
}

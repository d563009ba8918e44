//! The lint findings a change introduces and resolves (`--fail-on-new` and the comment's
//! "Introduced by this change"). In a pull request the base is the base revision's lock: both
//! sides are linted here, by this toolgate with these settings, from the definitions the locks
//! hold, so a finding counts as introduced only when the definitions changed (never because
//! another toolgate version or another way of reading the server was used). Without the base
//! revision, the base's lint report (a baseline) stands in.

use anyhow::Context;

use super::CiSettings;
use crate::catalog::canonical::short_hash as short;
use crate::catalog::lock::LockFile;
use crate::catalog::snapshot;
use crate::eval::baseline::Baseline;
use crate::lint::LintSettings;
use crate::record::lint::{LintDelta, LintReport, finding_key};

/// The delta against the base, when there is a base to compare with, and whether it may gate
/// (a baseline made by another toolgate version is listed, not gated: its rules differ).
pub(super) fn delta(
    s: &CiSettings,
    settings: &LintSettings,
    head_lock: &LockFile,
    head_lint: &LintReport,
    base: Option<&Baseline>,
) -> anyhow::Result<Option<(LintDelta, bool)>> {
    if let Some(path) = &s.base_lock {
        let base_catalog = snapshot::read(path)
            .with_context(|| format!("the base revision's lock (copied to {})", path.display()))?;
        let base_lint = LintReport::for_catalog(&base_catalog, settings, None)?;
        let head_catalog = snapshot::parse(&head_lock.to_text(), "this change's definitions")?;
        let head = LintReport::for_catalog(&head_catalog, settings, None)?;
        let against = format!(
            "the base revision's lock ({} tools, sha256 {}…)",
            base_catalog.tools.len(),
            short(&LockFile::from_catalog(&base_catalog).catalog_sha256)
        );
        let mut d = LintDelta::between(against, &base_lint.findings, &head.findings);
        // Show a finding as the run's own report has it (located in the snapshot or lock).
        let own: std::collections::HashMap<_, _> = head_lint
            .findings
            .iter()
            .map(|g| (finding_key(g), g))
            .collect();
        for f in &mut d.introduced {
            if let Some(g) = own.get(&finding_key(f)) {
                *f = (*g).clone();
            }
        }
        return Ok(Some((d, true)));
    }
    Ok(base.and_then(|b| {
        let bl = b.lint.as_ref()?;
        let mut against = format!("the baseline's lint report ({})", b.run.created);
        let same = b.toolgate_version == env!("CARGO_PKG_VERSION");
        if !same {
            against.push_str(&format!(
                ", made by toolgate {}: listed, not gated, since rules change between versions; refresh the baseline",
                b.toolgate_version
            ));
        }
        Some((
            LintDelta::between(against, &bl.findings, &head_lint.findings),
            same,
        ))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn report(tools: serde_json::Value) -> LintReport {
        let c = snapshot::parse(&json!({ "tools": tools }).to_string(), "t").unwrap();
        LintReport::for_catalog(&c, &LintSettings::default(), None).unwrap()
    }

    #[test]
    fn a_pair_is_matched_in_either_order_and_a_copied_description_is_introduced() {
        let q =
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
        let base = report(json!([
            {"name": "find_notes", "description": "Search the notes by text and return matches.", "inputSchema": q},
            {"name": "search_notes", "description": "Search the notes by text and return matches.", "inputSchema": q},
            {"name": "tag_note", "description": "Add a tag to one note by its id.", "inputSchema": q},
        ]));
        // The same pair listed the other way round: nothing introduced or resolved.
        let reordered = report(json!([
            {"name": "search_notes", "description": "Search the notes by text and return matches.", "inputSchema": q},
            {"name": "find_notes", "description": "Search the notes by text and return matches.", "inputSchema": q},
            {"name": "tag_note", "description": "Add a tag to one note by its id.", "inputSchema": q},
        ]));
        let d = LintDelta::between(String::new(), &base.findings, &reordered.findings);
        assert!(d.introduced.is_empty() && d.resolved.is_empty(), "{d:#?}");
        // tag_note given its sibling's description: a new confusable pair (same parameters).
        let copied = report(json!([
            {"name": "find_notes", "description": "Search the notes by text and return matches.", "inputSchema": q},
            {"name": "search_notes", "description": "Search the notes by text and return matches.", "inputSchema": q},
            {"name": "tag_note", "description": "Search the notes by text and return matches.", "inputSchema": q},
        ]));
        let d = LintDelta::between(String::new(), &base.findings, &copied.findings);
        assert!(
            d.introduced
                .iter()
                .any(|f| f.code == "TG032" && f.tool.as_deref() == Some("tag_note")),
            "{d:#?}"
        );
        assert!(d.resolved.is_empty(), "{d:#?}");
    }
}

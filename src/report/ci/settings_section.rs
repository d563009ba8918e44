//! The comment's "Gate settings changed in this PR" section.

use super::cells::text_cell;
use crate::catalog::canonical::short_hash as short;
use crate::report::markdown::code;

/// "Gate settings changed in this PR": every setting and reviewed file that differs from the
/// base revision, and which value the gate used. Shown in the headline part, so it is never
/// cut for length.
pub(super) fn settings_section(review: &crate::record::settings::SettingsReview) -> String {
    use crate::record::settings::OVERRIDE_LABEL;
    if review.changes.is_empty() && review.notes.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "### Gate settings changed in this PR\n\nCompared with the base revision {}{}.\n\n",
        code(short(&review.base_sha)),
        if review.overridden {
            format!(
                "; the {} label is set, so this PR's values apply",
                code(OVERRIDE_LABEL)
            )
        } else {
            format!(
                "; where this PR would loosen the gate the base's value is kept (a maintainer can set the {} label)",
                code(OVERRIDE_LABEL)
            )
        }
    );
    if !review.changes.is_empty() {
        out.push_str("| Setting | Base | This PR | Applied |\n|---|---|---|---|\n");
        for c in review.changes.iter().take(50) {
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                code(&c.setting),
                crate::report::markdown::escape_cell(&c.base),
                crate::report::markdown::escape_cell(&c.head),
                c.applied.label()
            ));
        }
        if review.changes.len() > 50 {
            out.push_str(&format!(
                "\n…and {} more (see ci.json)\n",
                review.changes.len() - 50
            ));
        }
        out.push('\n');
    }
    for n in &review.notes {
        out.push_str(&format!("> {}\n", text_cell(n)));
    }
    out.push('\n');
    out
}

//! The pieces every section of the ci report writes with: escaped cells, signed points,
//! p-values, capped and fenced diffs, and where the report came from.

use crate::catalog::canonical::short_hash as short;
use crate::report::markdown::code;

pub(super) fn text_cell(s: &str) -> String {
    crate::report::markdown::message(s)
}

/// Longest diff shown in a comment section; the rest is in ci.json.
const DIFF_MAX: usize = 10_000;

pub(super) fn capped(text: &str) -> String {
    if text.len() <= DIFF_MAX {
        return text.to_string();
    }
    let mut out = String::new();
    let mut shown = 0;
    for line in text.lines() {
        if out.len() + line.len() + 1 > DIFF_MAX {
            break;
        }
        out.push_str(line);
        out.push('\n');
        shown += 1;
    }
    let total = text.lines().count();
    out.push_str(&format!(
        "… {} more line(s): see ci.json\n",
        total.saturating_sub(shown)
    ));
    out
}

pub(super) fn signed_pts(v: f64) -> String {
    format!(
        "{}{:.1} pts",
        if v >= 0.0 { "+" } else { "−" },
        v.abs() * 100.0
    )
}

pub(super) fn p_value(p: f64) -> String {
    if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

pub(super) fn fenced(text: &str) -> String {
    crate::report::markdown::fenced(text, "diff")
}

pub(super) fn provenance(commit: Option<&str>, run_url: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(c) = commit {
        out.push_str(&format!(" · for {}", code(short(c))));
    }
    if let Some(u) = run_url {
        out.push_str(&format!(" · [workflow run]({u})"));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn fences_outlast_backticks_in_the_text() {
        let f = super::fenced("a ```` b");
        assert!(f.ends_with("`````\n"), "{f}");
        assert!(f.starts_with("`````diff\n"), "{f}");
    }
}

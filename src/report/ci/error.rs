//! The report when toolgate could not finish.

use super::cells::{fenced, provenance, text_cell};

/// The report when toolgate could not finish: what went wrong, so a reader never mistakes an
/// earlier comment for this run's.
pub(crate) fn error_markdown(error: &str, commit: Option<&str>, run_url: Option<&str>) -> String {
    let mut first = error.lines().next().unwrap_or_default().to_string();
    if first.len() > 300 {
        first = first.chars().take(300).collect::<String>() + "…";
    }
    format!(
        "## ⚠️ toolgate could not run\n\nThe gate did not decide anything for this commit (exit code 2): {}\n\n<details><summary>Error</summary>\n\n{}\n</details>\n\n<sub>toolgate {}{}</sub>\n",
        text_cell(&first),
        fenced(error).replacen("diff\n", "text\n", 1),
        env!("CARGO_PKG_VERSION"),
        provenance(commit, run_url)
    )
}

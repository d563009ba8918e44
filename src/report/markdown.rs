//! Markdown for job summaries, PR comments and files.

use super::LintReport;

/// Escapes text for a Markdown table cell.
pub fn escape_cell(s: &str) -> String {
    s.replace('|', "\\|")
        .replace('\n', " ")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

pub fn lint(report: &LintReport) -> String {
    let s = &report.summary;
    let mut out = format!(
        "### toolgate lint\n\n`{}`: {} tools, {} tokens ({}). **{}** error(s), **{}** warning(s), {} info.\n\n",
        escape_cell(&report.source),
        report.tool_count,
        report.total_tokens,
        report.tokenizer,
        s.errors,
        s.warnings,
        s.infos
    );
    if report.findings.is_empty() {
        out.push_str("No findings.\n");
        return out;
    }
    out.push_str("| severity | rule | tool | finding | fix |\n|---|---|---|---|---|\n");
    for f in &report.findings {
        out.push_str(&format!(
            "| {} | [{}]({}) {} | {} | {} | {} |\n",
            f.severity,
            f.code,
            f.docs_url,
            f.slug,
            f.tool
                .as_deref()
                .map(|t| format!("`{}`", escape_cell(t)))
                .unwrap_or_else(|| "catalog".into()),
            escape_cell(&f.message),
            escape_cell(&f.help)
        ));
    }
    out
}

//! GitHub Actions workflow commands (`::error file=…,line=…::message`) for lint findings.

use super::LintReport;
use crate::lint::Severity;

pub(crate) fn escape_data(s: &str) -> String {
    // `##[` would be a legacy command were the runner to read the line that way.
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
        .replace("##[", "# #[")
        .chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Every finding as an annotation (`toolgate lint --format github`).
pub(crate) fn annotations(report: &LintReport) -> String {
    annotations_of(report.findings.iter())
}

/// Tools named in a folded notice before "and N more".
const FOLDED_TOOLS_SHOWN: usize = 5;

/// What `ci` writes to the log: each error and warning as an annotation, and the info
/// findings folded to one notice per rule (a 24-tool server gave 512 info findings, 545
/// annotation lines). `toolgate lint --format github` and lint.json/SARIF keep each one.
pub(crate) fn annotations_folded(report: &LintReport) -> String {
    let mut out = annotations_of(
        report
            .findings
            .iter()
            .filter(|f| f.severity != Severity::Info),
    );
    let mut by_rule: std::collections::BTreeMap<(&str, &str), Vec<&str>> = Default::default();
    for f in report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Info)
    {
        let tools = by_rule.entry((&f.code, &f.slug)).or_default();
        let tool = f.tool.as_deref().unwrap_or("catalog");
        if !tools.contains(&tool) {
            tools.push(tool);
        }
    }
    for ((code, slug), tools) in by_rule {
        let n = report
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Info && f.code == code)
            .count();
        let names: Vec<String> = tools.iter().map(|t| format!("`{t}`")).collect();
        out.push_str(&format!(
            "::notice title={}::{}\n",
            escape_property(&format!("{code} {slug}")),
            escape_data(&format!(
                "{n} info finding(s) in {} tool(s): {} (each one: `toolgate lint`, lint.json or the SARIF file)",
                tools.len(),
                crate::text::list_some(&names, FOLDED_TOOLS_SHOWN)
            ))
        ));
    }
    out
}

fn annotations_of<'a>(findings: impl Iterator<Item = &'a crate::report::ReportFinding>) -> String {
    let mut out = String::new();
    for f in findings {
        let cmd = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = Vec::new();
        if let (Some(file), Some(line)) = (&f.file, f.line) {
            props.push(format!("file={}", escape_property(file)));
            props.push(format!("line={line}"));
        }
        props.push(format!(
            "title={}",
            escape_property(&format!("{} {}", f.code, f.slug))
        ));
        let tool = f
            .tool
            .as_deref()
            .map(|t| format!("{t}: "))
            .unwrap_or_default();
        out.push_str(&format!(
            "::{cmd} {}::{}\n",
            props.join(","),
            escape_data(&format!("{tool}{} Fix: {}", f.message, f.help))
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn info_findings_fold_to_one_notice_per_rule() {
        use crate::lint::Severity;
        use crate::report::{LintReport, ReportFinding};
        let finding = |tool: &str, code: &str, severity: Severity| ReportFinding {
            code: code.into(),
            slug: "slug".into(),
            severity,
            tool: Some(tool.into()),
            pointer: String::new(),
            message: format!("about {tool}"),
            help: "fix it".into(),
            docs_url: String::new(),
            file: None,
            line: None,
            related: vec![],
            pair: None,
            group: None,
        };
        let mut report = LintReport {
            schema_version: String::new(),
            toolgate_version: String::new(),
            source: String::new(),
            catalog_sha256: String::new(),
            tool_count: 3,
            tokenizer: String::new(),
            total_tokens: 0,
            summary: Default::default(),
            findings: vec![],
            accepted: vec![],
        };
        for t in ["a", "b", "c"] {
            report.findings.push(finding(t, "TG007", Severity::Info));
            report.findings.push(finding(t, "TG007", Severity::Info));
        }
        report
            .findings
            .push(finding("a", "TG004", Severity::Warning));
        let folded = super::annotations_folded(&report);
        assert_eq!(folded.lines().count(), 2, "{folded}");
        assert!(folded.contains("::warning "), "{folded}");
        assert!(
            folded.contains("6 info finding(s) in 3 tool(s)"),
            "{folded}"
        );
        assert_eq!(super::annotations(&report).lines().count(), 7);
    }

    #[test]
    fn escapes_workflow_command_text() {
        assert_eq!(super::escape_data("a%b\nc"), "a%25b%0Ac");
        assert_eq!(super::escape_property("x,y:z"), "x%2Cy%3Az");
    }
}

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

pub fn annotations(report: &LintReport) -> String {
    let mut out = String::new();
    for f in &report.findings {
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
    fn escapes_workflow_command_text() {
        assert_eq!(super::escape_data("a%b\nc"), "a%25b%0Ac");
        assert_eq!(super::escape_property("x,y:z"), "x%2Cy%3Az");
    }
}

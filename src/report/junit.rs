//! JUnit XML (`junit.xml` beside ci.json): the gate, the lock, each tool's lint findings and
//! each tool's accuracy as test cases, so any CI's test view (GitLab, Jenkins, Azure, Buildkite,
//! CircleCI) shows what failed. Server text goes in through quick-junit's XML writer, which
//! escapes it; control characters are made visible first (XML 1.0 cannot carry most of them).

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::ci::{CiReport, CiStatus};
use crate::lint::Severity;
use crate::record::lint::LintReport;

/// Text that XML 1.0 can carry: controls but tab and newline shown as `\xNN`, bounded.
fn xml_text(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().take(4000) {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn failed(message: &str, body: &str) -> TestCaseStatus {
    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
    s.set_message(xml_text(message));
    if !body.is_empty() {
        s.set_description(xml_text(body));
    }
    s
}

/// The report of one `toolgate ci`; `min_tool_accuracy` marks each tool under it failed.
pub(crate) fn ci(r: &CiReport, lint: &LintReport, min_tool_accuracy: Option<f64>) -> String {
    let mut report = Report::new("toolgate");
    let mut gate = TestSuite::new("toolgate gate");
    let status = match (r.status, r.passed) {
        (CiStatus::Ok, true) => TestCaseStatus::success(),
        (CiStatus::Ok, false) => failed("the gate failed", &r.reasons.join("\n")),
        _ => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_message("toolgate could not score this change");
            s.set_description(xml_text(&r.reasons.join("\n")));
            s
        }
    };
    gate.add_test_case(TestCase::new("gate", status));
    let lock_status = match r.lock.status {
        crate::gate::LockState::Changed => failed(
            "the server no longer matches the lock",
            &format!("lock file: {}", r.lock.path),
        ),
        _ => TestCaseStatus::success(),
    };
    gate.add_test_case(TestCase::new("lock", lock_status));
    report.add_test_suite(gate);

    let mut lints = TestSuite::new("toolgate lint");
    let mut by_tool: std::collections::BTreeMap<String, Vec<&crate::record::lint::ReportFinding>> =
        Default::default();
    for f in &lint.findings {
        by_tool
            .entry(f.tool.clone().unwrap_or_else(|| "(catalog)".into()))
            .or_default()
            .push(f);
    }
    for (tool, findings) in &by_tool {
        let errors: Vec<String> = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| format!("{} {}: {}", f.code, f.slug, f.message))
            .collect();
        let others: Vec<String> = findings
            .iter()
            .filter(|f| f.severity != Severity::Error)
            .map(|f| format!("{} {} ({}): {}", f.code, f.slug, f.severity, f.message))
            .collect();
        let status = if errors.is_empty() {
            TestCaseStatus::success()
        } else {
            failed(
                &format!("{} lint error(s)", errors.len()),
                &errors.join("\n"),
            )
        };
        let mut case = TestCase::new(xml_text(tool), status);
        case.set_classname("lint");
        if !others.is_empty() {
            case.set_system_out(xml_text(&others.join("\n")));
        }
        lints.add_test_case(case);
    }
    report.add_test_suite(lints);

    for m in &r.run.results {
        let mut suite = TestSuite::new(xml_text(&format!("toolgate tools ({})", m.model)));
        for t in &m.metrics.per_tool {
            let a = &t.accuracy;
            let shown = format!(
                "{} {:.1}% ({}/{}, 95% CI {:.1}–{:.1}%)",
                if crate::record::metric::is_router(&m.model) {
                    "findability@1"
                } else {
                    "accuracy"
                },
                a.value * 100.0,
                a.k,
                a.n,
                a.lo * 100.0,
                a.hi * 100.0
            );
            let status = match min_tool_accuracy {
                Some(min) if a.n > 0 && a.value < min => {
                    failed(&format!("{shown}, under {:.1}%", min * 100.0), "")
                }
                _ => TestCaseStatus::success(),
            };
            let mut case = TestCase::new(xml_text(&t.tool), status);
            case.set_classname(xml_text(&m.model));
            case.set_system_out(shown);
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.to_string().unwrap_or_default()
}

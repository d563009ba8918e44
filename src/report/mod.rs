//! Renderers: pure functions from plain report types to text. Exit status is decided elsewhere.

pub mod github;
pub mod lint_report;
pub mod locate;
pub mod markdown;
pub mod sarif;
pub mod terminal;

pub use lint_report::{LintReport, LintSummary, ReportFinding};

//! Renderers: pure functions from plain report types to text. Exit status is decided elsewhere.

pub mod badge;
pub mod ci;
pub mod github;
pub mod html;
pub mod lint_report;
pub mod locate;
pub mod markdown;
pub mod run;
pub mod sarif;
pub mod terminal;

pub use lint_report::{LintReport, LintSummary, ReportFinding};

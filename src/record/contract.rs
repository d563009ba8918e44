//! The contract tests' record (`toolgate contract`, `ci --contract`), as data: for each tool,
//! which calls were made with which arguments, how the server answered, and the verdict on
//! that answer. The contract stage fills it, the gate decides over its summary, the reports
//! render it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub(crate) const CONTRACT_SCHEMA: &str = "toolgate.contract/v1";

/// A whole contract run over one server.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ContractReport {
    pub schema_version: String,
    pub server: String,
    /// The protocol revision the server answered with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// Hash of the catalog listed in the contract session.
    pub catalog_sha256: String,
    /// Whether tools that may write were called (`--allow-writes`).
    pub allow_writes: bool,
    /// The time limit of one call, in milliseconds.
    pub call_timeout_ms: u64,
    pub tools: Vec<ToolContract>,
    pub summary: ContractSummary,
    /// Things the reader should know (a session that stopped answering, a listing that
    /// differs from the gated one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The counts the gate reads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ContractSummary {
    /// Calls made.
    pub calls: usize,
    pub passed: usize,
    pub warned: usize,
    pub failed: usize,
    /// Tools not called at all (they may write, or the session ended first).
    pub tools_skipped: usize,
    /// Tools with at least one failed call, in catalog order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failing_tools: Vec<String>,
}

/// What toolgate knows of a tool's effects, from its annotations (the server's own claim).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Effects {
    /// `readOnlyHint: true`.
    ReadOnly,
    /// Anything else: `readOnlyHint` false or absent (the spec's default is false).
    MayWrite,
}

/// One tool's contract calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ToolContract {
    pub tool: String,
    pub effects: Effects,
    /// Why the tool was not called, when it was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<Probe>,
}

/// Which contract a call checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ProbeKind {
    /// A required argument left out: expect a readable `isError` result.
    MissingRequired,
    /// An argument of the wrong JSON type: expect a readable `isError` result.
    WrongType,
    /// An argument the schema forbids (`additionalProperties: false`): expect `isError`.
    UnknownArgument,
    /// Schema-valid sampled arguments: expect a result whose `structuredContent` matches the
    /// `outputSchema`.
    ValidSample,
}

impl ProbeKind {
    pub(crate) fn invalid(self) -> bool {
        self != ProbeKind::ValidSample
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            ProbeKind::MissingRequired => "missing required argument",
            ProbeKind::WrongType => "argument of the wrong type",
            ProbeKind::UnknownArgument => "unknown argument",
            ProbeKind::ValidSample => "valid sampled arguments",
        }
    }
}

/// How the server answered one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Answer {
    /// A result with `isError: true`.
    IsError,
    /// A result without `isError`.
    Result,
    /// A JSON-RPC error instead of a result.
    ProtocolError,
    /// No answer within the call's time limit.
    Timeout,
    /// The connection failed or closed, or the reply was not a tool result.
    Failed,
}

impl Answer {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Answer::IsError => "isError",
            Answer::Result => "result",
            Answer::ProtocolError => "JSON-RPC error",
            Answer::Timeout => "timeout",
            Answer::Failed => "failed",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Verdict {
    Pass,
    Warn,
    Fail,
}

/// One call and its verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Probe {
    pub kind: ProbeKind,
    /// The arguments sent (a summary string when they were larger than 4 KiB).
    pub arguments: Value,
    pub answer: Answer,
    pub verdict: Verdict,
    /// Why, in a sentence; server text in it is masked and cut to 300 characters.
    pub detail: String,
    pub elapsed_ms: u64,
}

impl ContractReport {
    /// Recounts the summary from the tools.
    pub(crate) fn summarise(&mut self) {
        let mut s = ContractSummary::default();
        for t in &self.tools {
            if t.probes.is_empty() {
                s.tools_skipped += 1;
            }
            for p in &t.probes {
                s.calls += 1;
                match p.verdict {
                    Verdict::Pass => s.passed += 1,
                    Verdict::Warn => s.warned += 1,
                    Verdict::Fail => s.failed += 1,
                }
            }
            if t.probes.iter().any(|p| p.verdict == Verdict::Fail) {
                s.failing_tools.push(t.tool.clone());
            }
        }
        self.summary = s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(verdict: Verdict) -> Probe {
        Probe {
            kind: ProbeKind::WrongType,
            arguments: Value::Null,
            answer: Answer::IsError,
            verdict,
            detail: String::new(),
            elapsed_ms: 1,
        }
    }

    #[test]
    fn the_summary_counts_calls_verdicts_skips_and_failing_tools() {
        let tool = |name: &str, probes: Vec<Probe>| ToolContract {
            tool: name.into(),
            effects: Effects::ReadOnly,
            skipped: probes.is_empty().then(|| "may write".into()),
            probes,
        };
        let mut r = ContractReport {
            tools: vec![
                tool("a", vec![probe(Verdict::Pass), probe(Verdict::Fail)]),
                tool("b", vec![]),
                tool("c", vec![probe(Verdict::Warn)]),
            ],
            ..Default::default()
        };
        r.summarise();
        assert_eq!(
            r.summary,
            ContractSummary {
                calls: 3,
                passed: 1,
                warned: 1,
                failed: 1,
                tools_skipped: 1,
                failing_tools: vec!["a".into()],
            }
        );
    }
}

//! Where your tasks went among a belt of other servers' tools.

use serde::{Deserialize, Serialize};

use super::Rate;
use super::compare::Delta;
use super::retrieval::RetrievalScores;

/// One model's decisions on your tasks in the belt.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct BeltScore {
    pub model: String,
    /// Decisions (task × trial) on tasks that expect one of your tools.
    pub tool_tasks: u64,
    /// (a) The right tool (or an acceptable one).
    pub right: Rate,
    /// (b) Another of your tools (a confusion inside your server, or an unasked write first).
    pub other_own: Rate,
    /// (c) A belt server's tool: the task was taken by another server.
    pub taken: Rate,
    /// (d) Nothing called.
    pub missed: Rate,
    /// (d) Transport failures, malformed output, invented names.
    pub errors: Rate,
    /// Tasks no tool of yours serves.
    pub no_tool: NoToolSplit,
    /// Belt servers whose tools took a task or answered a no-tool request, most first.
    pub by_server: Vec<TakenBy>,
    /// Every server that received a call, yours first, with its share of all decisions.
    pub shares: Vec<ServerShare>,
    /// Your catalog alone against the belt on the same tasks (deterministic models only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alone: Option<AloneVsBelt>,
}

/// Where the decisions on no-tool tasks went.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct NoToolSplit {
    pub n: u64,
    /// Nothing called: right.
    pub abstained: u64,
    /// One of your tools called: a false call.
    pub own_call: u64,
    /// A belt tool called: not plainly wrong — a belt server may serve what yours cannot.
    pub belt_call: u64,
    pub errors: u64,
}

/// What one belt server's tools took.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct TakenBy {
    pub server: String,
    /// Your tool-expecting decisions its tools took, over all of them (clustered by task).
    pub rate: Rate,
    /// No-tool requests its tools answered.
    pub no_tool: u64,
    /// Which of its tools (their names on the server) took decisions, most first.
    pub tools: Vec<ToolCount>,
    /// A few requests it took (tool tasks first, then no-tool ones), requests cut to
    /// `crate::score::belt::REQUEST_MAX` characters.
    pub examples: Vec<TakenExample>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ToolCount {
    pub tool: String,
    pub count: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct TakenExample {
    pub task_id: String,
    pub request: String,
    /// The tool the task expected (absent for a no-tool task).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The belt tool called, by its name on its server.
    pub tool: String,
}

/// One server's part of the decisions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ServerShare {
    pub server: String,
    /// True for the server under test.
    pub own: bool,
    /// Decisions that called one of its tools, over all decisions.
    pub share: Rate,
    /// Yours only: accuracy on your tasks in the belt (clustered by task).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<Rate>,
}

/// Your catalog alone against the same catalog inside the belt, on the same tasks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct AloneVsBelt {
    /// base = alone, head = in the belt: exact paired McNemar test (Bonferroni-corrected over
    /// the overall and per-tool tests).
    pub overall: Delta,
    /// Your tools that lost tasks in the belt, most lost first.
    pub losers: Vec<Delta>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieval_alone: Option<RetrievalScores>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieval_belt: Option<RetrievalScores>,
}

//! Failures by cause: every failed trial in exactly one bucket, passed trials in none.

use serde::{Deserialize, Serialize};

/// Every failure in one bucket, so a reader knows what a description change can move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Attribution {
    /// Another tool was chosen: the descriptions did not tell the tools apart.
    pub description_confusion: u64,
    /// Trials that passed (the right tool) with invalid or wrong arguments: not a failure of
    /// tool choice, so in no failure bucket; counted beside them.
    pub argument_problems: u64,
    /// A tool that may write (or has no `readOnlyHint`) was called, unasked, with the intended
    /// one: a failure.
    #[serde(default)]
    pub unasked_writes: u64,
    /// Malformed output, invented tools, transport errors: a floor no description can move.
    pub model_mechanics: u64,
    /// A tool was needed and none was called.
    pub no_call: u64,
    /// No tool fits and one was called.
    pub false_call: u64,
    /// What the model said instead of calling (up to five), with the task id.
    #[serde(default)]
    pub no_call_replies: Vec<(String, String)>,
}

impl Attribution {
    /// Failed trials, each in exactly one bucket (a passed trial is in none).
    pub fn failed(&self) -> u64 {
        self.description_confusion
            + self.unasked_writes
            + self.model_mechanics
            + self.no_call
            + self.false_call
    }

    /// The buckets in words, for every renderer: "47 description confusion, 0 unasked write,
    /// … (of 63 failed)", and the passed trials with wrong arguments beside them.
    pub fn sentence(&self) -> String {
        format!(
            "{} description confusion, {} unasked write, {} model mechanics, {} no call, {} false call (of {} failed); arguments wrong on {} passed",
            self.description_confusion,
            self.unasked_writes,
            self.model_mechanics,
            self.no_call,
            self.false_call,
            self.failed(),
            self.argument_problems
        )
    }
}

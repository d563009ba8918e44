//! Failures by cause: every failed trial in exactly one bucket, passed trials in none.

pub(crate) use crate::record::scores::Attribution;

impl Attribution {
    /// Failed trials, each in exactly one bucket (a passed trial is in none).
    pub(crate) fn failed(&self) -> u64 {
        self.description_confusion
            + self.unasked_writes
            + self.model_mechanics
            + self.no_call
            + self.false_call
    }

    /// The buckets in words, for every renderer: "47 description confusion, 0 unasked write,
    /// … (of 63 failed)", and the passed trials with wrong arguments beside them.
    pub(crate) fn sentence(&self) -> String {
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

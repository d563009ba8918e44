//! The tasks stage: labelled requests (JSONL), their validation, and their generation from a
//! catalog (seeded schema sampler + offline templates).

pub mod sampler;
pub mod task;
pub mod template;
pub mod validate;
pub mod vocab;
pub mod writer;

pub use task::{Numbered, parse_tasks};

pub use task::{Expected, Kind, Split, Task, read_tasks, suite_hash, write_tasks};

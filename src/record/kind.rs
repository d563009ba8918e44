//! The kind of a task: what the task format says a request is, and every outcome line
//! carries.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Plainly asks for what one tool does.
    Direct,
    /// Uses a sibling's vocabulary while still needing the intended tool.
    NearMiss,
    /// No tool in the catalog serves it: the right answer is to call nothing.
    NoTool,
}

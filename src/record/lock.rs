//! What differs between two locks, as data: tools added, removed and changed field by field
//! (JSON pointers), and the server instructions.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One difference inside a changed tool.
/// What happened to one field of a tool definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Added,
    Removed,
    Changed,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldChange {
    /// JSON pointer inside the tool definition (`/description`, `/inputSchema/properties/x`).
    pub pointer: String,
    /// `added`, `removed` or `changed`.
    pub change: ChangeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolChange {
    pub name: String,
    pub changes: Vec<FieldChange>,
}

/// Everything that differs between a lock and a catalog.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LockDiff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<ToolChange>,
    pub instructions_changed: Option<(Option<String>, Option<String>)>,
}

//! The ordered registry of lint rules. One file per rule; codes are never reused.

use super::Rule;

mod duplicate_name;
mod missing_description;

/// Every rule, in code order.
pub static RULES: &[Rule] = &[duplicate_name::RULE, missing_description::RULE];

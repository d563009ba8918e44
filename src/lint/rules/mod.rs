//! The ordered registry of lint rules. One file per rule; codes are never reused.

use super::Rule;

pub(crate) use common::resolve_ref;

mod capability_override;
pub(super) mod catalog_token_budget;
pub(super) mod common;
mod confusable_tools;
mod credential_parameter;
pub(super) mod cross_server_look_alike;
mod deprecated_tool;
mod description_restates_name;
mod destructive_without_hint;
mod duplicate_description;
pub(super) mod duplicate_name;
mod enum_in_description;
mod exfiltration_parameter;
mod generic_tool_name;
mod hidden_unicode;
pub(super) mod host_limits;
mod image_exfiltration_url;
mod input_schema_not_object;
mod invalid_schema;
mod invalid_tool_name;
pub(super) mod look_alike_tools;
mod missing_description;
mod missing_disambiguation;
mod model_directed_instructions;
mod oversized_definition;
mod read_only_destructive;
mod required_undefined;
mod short_description;
pub(super) mod spec_conformance;
pub(super) mod too_many_tools;
pub(super) mod tool_shadowing;
mod undocumented_parameter;
mod unresolvable_ref;

/// Compiles the largest of the rules' patterns, on the caller's thread ([`crate::lint::warm_up`]
/// calls it on a thread of its own, so the work overlaps the server's start and the token
/// counting before the rules run): on a small catalog, compiling patterns is most of lint's
/// time. Each pattern is compiled once either way.
pub(crate) fn warm_up() {
    model_directed_instructions::warm();
    tool_shadowing::warm();
    capability_override::warm();
    enum_in_description::warm();
    missing_disambiguation::warm();
}

/// Every rule, in code order.
pub static RULES: &[Rule] = &[
    duplicate_name::RULE,
    missing_description::RULE,
    short_description::RULE,
    duplicate_description::RULE,
    look_alike_tools::RULE,
    missing_disambiguation::RULE,
    undocumented_parameter::RULE,
    required_undefined::RULE,
    invalid_schema::RULE,
    input_schema_not_object::RULE,
    unresolvable_ref::RULE,
    oversized_definition::RULE,
    generic_tool_name::RULE,
    deprecated_tool::RULE,
    destructive_without_hint::RULE,
    read_only_destructive::RULE,
    hidden_unicode::RULE,
    model_directed_instructions::RULE,
    exfiltration_parameter::RULE,
    enum_in_description::RULE,
    too_many_tools::RULE,
    catalog_token_budget::RULE,
    invalid_tool_name::RULE,
    description_restates_name::RULE,
    credential_parameter::RULE,
    image_exfiltration_url::RULE,
    capability_override::RULE,
    cross_server_look_alike::RULE,
    tool_shadowing::RULE,
    host_limits::RULE,
    spec_conformance::RULE,
    confusable_tools::RULE,
];

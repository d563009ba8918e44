//! The integration tests, one binary: each module is one area (a server kind, a command, an
//! attack), sharing the helpers in `common` (the binary with a clean environment, fixtures,
//! third-party servers installed by .ci/run, HTTP fixture servers). One binary links the crate
//! once instead of once per area.

mod common;
#[path = "../../examples/support/lookalike_bench.rs"]
mod lookalike_bench;
#[path = "../../examples/support/precision_bench.rs"]
mod precision_bench;

mod ablation;
mod action;
mod belt;
mod belt_eval;
mod belt_lint;
mod bounds;
mod ci;
mod cli;
mod codex_search;
mod color;
mod connect;
mod contract;
mod cost;
mod curve;
mod docs;
#[cfg(feature = "embed")]
mod embed;
mod eval;
mod goalposts;
mod goalposts_env;
mod help;
mod honest;
mod hostile_connect;
mod hostile_lock;
mod hostile_redirects;
mod hostile_retry;
mod hostile_secrets;
mod hostile_text;
mod incremental;
mod init_first_try;
mod init_workflow;
mod llm;
mod llm_concurrency;
mod local;
mod lookalike_scale;
mod metric_names;
mod monorepo;
mod one_slot;
mod orphans;
mod ratchet;
mod recipes;
mod requests_once;
mod resume;
mod reviewed_files;
mod rules;
mod sampler;
mod sandbox;
mod sandbox_reach;
mod shard;
mod surface;
mod verbatim;
mod workflow_commands;

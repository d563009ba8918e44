//! toolgate: tells the author of an MCP server, in CI, whether agents can actually use its
//! tools. Stages: catalog (connect, pin) → lint → report; commands glue them to the CLI.
#![deny(clippy::print_stdout, clippy::print_stderr)]

/// `eprintln!` for toolgate's messages: a line on stderr, made inert for the GitHub Actions
/// runner (see [`out::neutralise`]) when it reads the log.
#[macro_export]
macro_rules! elog {
    ($($t:tt)*) => {
        $crate::out::eprint_line(&format!($($t)*))
    };
}

pub(crate) mod adapt;
pub mod catalog;
pub mod ci;
pub mod cli;
pub mod commands;
pub mod config;
pub mod contract;
pub(crate) mod embedded;
mod entry;
pub use entry::main;
pub mod error;
pub(crate) mod eval;
pub(crate) mod fsio;
pub(crate) mod gate;
pub(crate) mod github;
pub(crate) mod improve;
pub mod json;
pub(crate) mod limits;
pub use limits::tune_allocator;
pub mod lint;
pub mod models;
pub mod out;
pub(crate) mod progress;
pub(crate) mod record;
pub mod report;
pub mod sandbox;
pub(crate) mod score;
pub mod secrets;
pub mod tasks;
pub mod text;
pub mod tokens;

//! toolgate: tells the author of an MCP server, in CI, whether agents can actually use its
//! tools. Stages: catalog (connect, pin) → lint → report; commands glue them to the CLI.
#![deny(clippy::print_stdout, clippy::print_stderr)]
#![warn(unreachable_pub)]

/// `eprintln!` for toolgate's messages: a line on stderr, made inert for the GitHub Actions
/// runner (see [`out::neutralise`]) when it reads the log.
#[macro_export]
macro_rules! elog {
    ($($t:tt)*) => {
        $crate::out::eprint_line(&format!($($t)*))
    };
}

pub(crate) mod adapt;
pub(crate) mod catalog;
pub(crate) mod ci;
pub(crate) mod cli;
pub(crate) mod commands;
pub(crate) mod config;
pub(crate) mod contract;
pub(crate) mod embedded;
mod entry;
pub use entry::main;
pub(crate) mod error;
pub(crate) mod eval;
pub(crate) mod fsio;
pub(crate) mod gate;
pub(crate) mod github;
pub(crate) mod improve;
pub(crate) mod json;
pub(crate) mod limits;
pub(crate) mod lint;
pub(crate) mod models;
pub(crate) mod out;
pub(crate) mod progress;
pub(crate) mod record;
pub(crate) mod report;
pub(crate) mod sandbox;
pub(crate) mod score;
pub(crate) mod secrets;
pub(crate) mod tasks;
#[doc(hidden)]
pub mod testing;
pub(crate) mod text;
pub(crate) mod tokens;

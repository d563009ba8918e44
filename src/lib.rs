//! toolgate: tells the author of an MCP server, in CI, whether agents can actually use its
//! tools. Stages: catalog (connect, pin) → lint → report; commands glue them to the CLI.

pub mod adapt;
pub mod catalog;
pub mod ci;
pub mod cli;
pub mod commands;
pub mod config;
pub mod embedded;
pub mod error;
pub mod eval;
pub mod fsio;
pub mod gate;
pub mod github;
pub mod improve;
pub mod limits;
pub mod lint;
pub mod models;
pub mod out;
pub mod progress;
pub mod record;
pub mod report;
pub mod score;
pub mod secrets;
pub mod tasks;
pub mod text;
pub mod tokens;

//! Commands: each resolves its settings (flags, then toolgate.toml, then defaults) through
//! [`crate::adapt`], calls the pipeline stages, prints, and returns the gate's [`Exit`]. Errors
//! are mapped to exit code 2 by main. No command imports another (tests/architecture.rs):
//! where one command has a belt form, the choice is made here.

pub mod approve;
pub mod belt_inspect;
pub mod belt_pin;
pub mod belt_section;
pub mod ci;
pub mod compare;
pub mod contract;
pub mod generate;
pub mod init;
pub mod inspect;
pub mod lint;
pub mod merge;
pub mod pin;
pub mod report;
pub mod rules;
pub mod run;
pub mod validate;

use crate::cli::{InspectArgs, PinArgs};
use crate::config::Config;

pub use crate::gate::Exit;

/// `toolgate pin` / `verify`: of one server, of a belt, or of one server's section of a belt
/// lock.
pub async fn pin(args: &PinArgs, cfg: &Config, check: bool) -> anyhow::Result<Exit> {
    if crate::adapt::belt::wanted(&args.server) {
        return belt_pin::run(args, cfg, check).await;
    }
    if let Some(name) = crate::adapt::belt::section_of(&args.server, args.lock.as_ref(), cfg) {
        return belt_section::run(args, cfg, check, &name).await;
    }
    pin::run(args, cfg, check).await
}

/// `toolgate inspect`: of one server, or of a belt.
pub async fn inspect(args: &InspectArgs, cfg: &Config) -> anyhow::Result<Exit> {
    if crate::adapt::belt::wanted(&args.server) {
        return belt_inspect::run(args, cfg).await;
    }
    inspect::run(args, cfg).await
}

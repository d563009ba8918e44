//! Commands: each resolves its settings (flags, then toolgate.toml, then defaults) through
//! [`crate::adapt`], calls the pipeline stages, prints, and returns the gate's [`Exit`]. Errors
//! are mapped to exit code 2 by main. No command imports another (tests/architecture.rs):
//! where one command has a belt form, the choice is made here.

pub(crate) mod approve;
pub(crate) mod belt_inspect;
pub(crate) mod belt_pin;
pub(crate) mod belt_section;
pub(crate) mod ci;
pub(crate) mod compare;
pub(crate) mod contract;
pub(crate) mod generate;
pub(crate) mod init;
pub(crate) mod inspect;
pub(crate) mod lint;
pub(crate) mod merge;
pub(crate) mod pin;
pub(crate) mod report;
pub(crate) mod rules;
pub(crate) mod run;
pub(crate) mod validate;

use crate::cli::{InspectArgs, PinArgs};
use crate::config::Config;

pub(crate) use crate::gate::Exit;

/// `toolgate pin` / `verify`: of one server, of a belt, or of one server's section of a belt
/// lock.
pub(crate) async fn pin(args: &PinArgs, cfg: &Config, check: bool) -> anyhow::Result<Exit> {
    if crate::adapt::belt::wanted(&args.server) {
        return belt_pin::run(args, cfg, check).await;
    }
    if let Some(name) = crate::adapt::belt::section_of(&args.server, args.lock.as_ref(), cfg) {
        return belt_section::run(args, cfg, check, &name).await;
    }
    pin::run(args, cfg, check).await
}

/// `toolgate inspect`: of one server, or of a belt.
pub(crate) async fn inspect(args: &InspectArgs, cfg: &Config) -> anyhow::Result<Exit> {
    if crate::adapt::belt::wanted(&args.server) {
        return belt_inspect::run(args, cfg).await;
    }
    inspect::run(args, cfg).await
}

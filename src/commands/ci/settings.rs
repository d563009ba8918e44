//! `ci`'s settings: flags (and `TOOLGATE_*` variables) over toolgate.toml's `[ci]` over the
//! defaults, resolved once, with the combinations a run cannot take refused.

use crate::adapt::lock_path;
use crate::ci::{self, CiSettings};
use crate::cli::CiArgs;
use crate::config::Config;

/// [`settings`] with the gate flags given apart: in a pull request they were already folded
/// into `cfg` and compared with the base revision, so none is laid over it again.
pub(super) fn settings_from(
    a: &CiArgs,
    flags: &crate::config::CiConfig,
    lock: Option<&std::path::PathBuf>,
    cfg: &Config,
    on_actions: bool,
) -> anyhow::Result<CiSettings> {
    let mut s = ci::resolve(flags, &cfg.ci, lock_path(lock, cfg), on_actions)?;
    s.write_baseline = a.write_baseline.clone();
    s.resume = a.resume.unwrap_or(false);
    s.eval.shard = a.shard;
    s.merge = a.merge.clone();
    s.incremental = a.incremental.unwrap_or(false);
    s.full_every = a.full_every;
    if s.belt.is_some() && (s.eval.shard.is_some() || !s.merge.is_empty()) {
        anyhow::bail!(
            "--belt with --shard or --merge is not supported yet: run the belt unsharded"
        );
    }
    if s.contract.is_some() && (s.eval.shard.is_some() || !s.merge.is_empty()) {
        s.notices.push(
            "--contract is not run in shard or fan-in jobs: run it in one unsharded job".into(),
        );
        s.contract = None;
    }
    if s.full_every == Some(0) {
        anyhow::bail!("--full-every must be at least 1");
    }
    Ok(s)
}

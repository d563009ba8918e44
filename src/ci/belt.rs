//! `toolgate ci --belt`: your catalog's lock and lint as always, the evaluation inside the
//! belt (your tools beside the belt's), the gate on your tasks' scores there.

use std::collections::BTreeMap;
use std::path::Path;

use super::CiSettings;
use crate::catalog::Catalog;
use crate::catalog::belt::Belt;
use crate::catalog::belt::lock::{AnyLock, BeltLock, read_any};
use crate::catalog::lock::LockFile;
use crate::eval;
use crate::eval::belt::BeltInfo;
use crate::gate::{LockCheck, LockState, LockStatus};
use crate::models::ModelOptions;
use crate::tasks::Task;

/// A belt to evaluate in: the combined catalog (yours plus the belt's tools) and its record.
pub(crate) struct BeltRun {
    pub catalog: Catalog,
    pub info: BeltInfo,
    /// Each belt server's catalog as a lock section, checked against a belt lock that pins it.
    pub locks: BTreeMap<String, LockFile>,
    /// The belt's servers, drawn from for the distractor curve.
    pub belt: Belt,
    /// Deterministic models' outcomes on your catalog alone ([`prepare`]).
    pub alone: Vec<eval::belt::AloneRun>,
}

/// The lock check when the lock at `path` is a belt lock and your server is its section
/// `own`: your section, and every belt server of this run that the lock pins, are checked
/// server by server. Returns the status (tools keyed `server/tool`) and a sentence naming
/// each server that changed.
pub(crate) fn lock_status(
    policy: LockCheck,
    path: &Path,
    own: &str,
    head: &LockFile,
    belt: Option<&BeltRun>,
) -> anyhow::Result<(LockStatus, Option<String>)> {
    let mut status = LockStatus {
        path: path.display().to_string(),
        status: LockState::Off,
        policy,
        diff: None,
    };
    if policy == LockCheck::Off {
        return Ok((status, None));
    }
    if !path.is_file() {
        status.status = LockState::Missing;
        return Ok((status, None));
    }
    let stored = match read_any(path)? {
        AnyLock::Belt(b) => b,
        AnyLock::One => anyhow::bail!(
            "{} is a single server's lock, not a belt lock: pin the belt with `toolgate pin --mcp-config FILE`",
            path.display()
        ),
    };
    let mut now = BeltLock {
        belt_lock_version: stored.belt_lock_version,
        servers: BTreeMap::from([(own.to_string(), head.clone())]),
    };
    // Belt servers the lock pins (an ecosystem server it does not pin is not its business).
    for (name, lock) in belt.map(|b| &b.locks).into_iter().flatten() {
        if stored.servers.contains_key(name) && name != own {
            now.servers.insert(name.clone(), lock.clone());
        }
    }
    let mut pinned = stored.clone();
    pinned.servers.retain(|k, _| now.servers.contains_key(k));
    let d = pinned.diff(&now);
    if d.is_empty() {
        status.status = LockState::Match;
        return Ok((status, None));
    }
    status.status = LockState::Changed;
    status.diff = Some(d.keyed());
    Ok((
        status,
        Some(format!("{}: {}.", path.display(), d.summary())),
    ))
}

impl BeltRun {
    /// The belt run of `combined` (from `belt`) and its record.
    pub(crate) fn new(combined: Catalog, info: BeltInfo, belt: Belt) -> Self {
        let locks = belt
            .servers
            .iter()
            .map(|s| (s.name.clone(), LockFile::from_catalog(&s.catalog)))
            .collect();
        BeltRun {
            catalog: combined,
            info,
            locks,
            belt,
            alone: Vec::new(),
        }
    }
}

/// Before the belt run: deterministic models also run on your catalog `own` alone (in
/// memory), so the reports set the belt against it.
pub(crate) async fn prepare(
    belt: &mut BeltRun,
    own: &Catalog,
    tasks: &[Task],
    models: &[crate::models::ModelSpec],
    opts: &ModelOptions,
) -> anyhow::Result<()> {
    belt.alone = eval::belt::alone(own, tasks, models, opts).await?;
    Ok(())
}

/// The distractor curve of a `ci --belt` run: accuracy on your tasks as the belt's tools join
/// `own`, for the models `s.curve` admits (offline ones unless `--curve`).
pub(crate) async fn curve(
    s: &CiSettings,
    b: &BeltRun,
    own: &Catalog,
    tasks: &[Task],
) -> anyhow::Result<Option<crate::score::curve::Curve>> {
    use crate::eval::curve::{DEFAULT_SEED, Request, measure};
    measure(&Request {
        own,
        belt: &b.belt,
        tasks,
        models: &s.eval.models,
        alpha: s.policy.alpha,
        model: &s.model_options()?,
        when: s.curve,
        sizes: s.curve_sizes.as_deref(),
        seed: s.seed.unwrap_or(DEFAULT_SEED),
        concurrency: s.eval.concurrency,
    })
    .await
}

/// `ci`'s lock check: server by server when the lock is a belt lock holding your server's
/// section (a notice names each server that changed), else the single-server check.
pub(crate) fn check_lock(
    s: &CiSettings,
    head: &LockFile,
    belt: Option<&BeltRun>,
    notices: &mut Vec<String>,
) -> anyhow::Result<LockStatus> {
    let (check, path) = (s.policy.lock_check, &s.policy.lock_path);
    let Some(own) = &s.lock_section else {
        return super::inputs::lock_status(check, path, head);
    };
    let (status, note) = lock_status(check, path, own, head, belt)?;
    notices.extend(note);
    Ok(status)
}

/// A notice when the base ran in another belt (or none) than this run: the comparison then
/// measures the belt's change too.
pub(crate) fn base_notice(
    base: &crate::record::RunFile,
    head: Option<&BeltInfo>,
) -> Option<String> {
    let (b, h) = (
        base.belt.as_ref().map(|b| b.spec.as_str()),
        head.map(|b| b.spec.as_str()),
    );
    let say = |s: Option<&str>| match s {
        None => "without a belt".to_string(),
        Some(s) => format!("in the belt `{s}`"),
    };
    (b != h).then(|| {
        format!(
            "The base ran {} and this run {}: the comparison with the base measures the belt's effect too, not only this change.",
            say(b),
            say(h)
        )
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_base_in_another_belt_is_named() {
        let run = |belt: Option<&str>| {
            let mut r = crate::record::v1::from_text(
                r#"{"schema_version":"toolgate.run/v1","toolgate_version":"0","created":"",
                "status":"complete","catalog":{"source":"s","sha256":"0","tools":[]},
                "suite":{"path":"t","sha256":"0","tasks":0,"by_kind":{}},"models":[],
                "trials":1,"split":"all"}"#,
            )
            .unwrap();
            r.belt = belt.map(|s| super::BeltInfo {
                spec: s.into(),
                ..Default::default()
            });
            r
        };
        let eco = run(Some("ecosystem"));
        assert_eq!(super::base_notice(&eco, eco.belt.as_ref()), None);
        let n = super::base_notice(&run(None), eco.belt.as_ref()).unwrap();
        assert!(
            n.contains("without a belt") && n.contains("`ecosystem`"),
            "{n}"
        );
        assert!(super::base_notice(&eco, None).is_some());
        assert_eq!(super::base_notice(&run(None), None), None);
    }
}

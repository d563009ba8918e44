//! `toolgate ci`'s settings, resolved once: flags (and their `TOOLGATE_*` variables) over
//! toolgate.toml's `[ci]` over defaults, into the stage option types.

use std::path::PathBuf;

use anyhow::bail;

use crate::limits::rate;

use super::files::DEFAULT_OUT;
use crate::config::{CiConfig, layered};
use crate::eval::EvalOptions;
use crate::gate::{GatePolicy, LintFailOn, LockCheck};
use crate::tasks::SplitArg;

/// Everything one `toolgate ci` does, settled.
#[derive(Clone, Debug)]
pub(crate) struct CiSettings {
    pub out: PathBuf,
    pub tasks: Option<PathBuf>,
    pub eval: EvalOptions,
    pub policy: GatePolicy,
    pub base: Option<PathBuf>,
    pub badge: Option<PathBuf>,
    pub write_baseline: Option<PathBuf>,
    pub resume: bool,
    pub comment: bool,
    pub comment_id: String,
    pub comment_author: Option<String>,
    /// Response cache folder; `None` with `--no-cache`.
    pub cache_dir: Option<PathBuf>,
    pub timeout: f64,
    /// Retries of a failed model request.
    pub retries: u32,
    pub base_url: Option<String>,
    pub max_calls: Option<usize>,
    pub seed: Option<u64>,
    /// Fan-in: the shard folders to merge instead of evaluating (`--merge`).
    pub merge: Vec<PathBuf>,
    /// Reuse the base's decisions where the change cannot reach (`--incremental`).
    pub incremental: bool,
    /// Run in full every N-th workflow run.
    pub full_every: Option<u64>,
    /// `--concurrency` as given: `None` leaves each LLM endpoint its default (1 on this machine).
    pub concurrency: Option<usize>,
    /// Evaluate inside this belt (`--belt`).
    pub belt: Option<String>,
    /// With a belt: when the distractor curve is measured, and at which sizes.
    pub curve: crate::eval::curve::When,
    pub curve_sizes: Option<Vec<crate::eval::curve::Size>>,
    /// When the ablation check is measured (without descriptions, with neutral names).
    pub ablation: crate::eval::curve::When,
    /// The lock is a belt lock and your server is this section of it (`--mcp-config` with a
    /// server name): the lock check goes server by server.
    pub lock_section: Option<String>,
    /// Notices settled before the run (e.g. models skipped on a fork's pull request).
    pub notices: Vec<String>,
    /// In a pull request: the gate settings and reviewed files compared with the base
    /// revision's (the "Gate settings changed in this PR" section).
    pub settings_review: Option<crate::record::settings::SettingsReview>,
    /// In a pull request: the base revision's lock, copied out of git (the base's findings
    /// for `--fail-on-new` are linted from its definitions).
    pub base_lock: Option<PathBuf>,
    /// Run the contract tests too (`--contract`), with these options.
    pub contract: Option<crate::contract::ContractOptions>,
}

/// The two layers a setting comes from: flags (and `TOOLGATE_*` variables) over toolgate.toml.
struct Layers<'a> {
    flags: &'a CiConfig,
    file: &'a CiConfig,
}

/// Merges the flags' layer over the file's layer. `lock` is where the lock file lives;
/// `on_actions` turns the comment on by default.
pub(crate) fn resolve(
    flags: &CiConfig,
    file: &CiConfig,
    lock: PathBuf,
    on_actions: bool,
) -> anyhow::Result<CiSettings> {
    let l = Layers { flags, file };
    let policy = policy(&l, lock)?;
    let out = layered!(l.flags, l.file, out).unwrap_or_else(|| PathBuf::from(DEFAULT_OUT));
    let eval = eval_options(&l, &out)?;
    let no_cache = layered!(l.flags, l.file, no_cache).unwrap_or(false);
    Ok(CiSettings {
        tasks: layered!(l.flags, l.file, tasks),
        eval,
        policy,
        base: layered!(l.flags, l.file, base),
        badge: layered!(l.flags, l.file, badge),
        write_baseline: None,
        resume: false,
        // On GitHub Actions the comment is what users come for; elsewhere there is no PR.
        comment: layered!(l.flags, l.file, comment).unwrap_or(on_actions),
        comment_id: layered!(l.flags, l.file, comment_id).unwrap_or_else(|| "default".into()),
        comment_author: layered!(l.flags, l.file, comment_author),
        cache_dir: (!no_cache).then(|| PathBuf::from(".toolgate-cache")),
        timeout: layered!(l.flags, l.file, timeout).unwrap_or(60.0),
        retries: retries(&l)?,
        base_url: layered!(l.flags, l.file, base_url),
        max_calls: layered!(l.flags, l.file, max_calls),
        seed: layered!(l.flags, l.file, seed),
        merge: vec![],
        incremental: false,
        full_every: None,
        concurrency: layered!(l.flags, l.file, concurrency),
        belt: layered!(l.flags, l.file, belt).filter(|b| !b.trim().is_empty()),
        curve: crate::eval::curve::When::from(layered!(l.flags, l.file, curve)),
        curve_sizes: curve_sizes(&l)?,
        ablation: crate::eval::curve::When::from(layered!(l.flags, l.file, ablation)),
        lock_section: None,
        notices: Vec::new(),
        settings_review: None,
        base_lock: None,
        contract: contract(&l)?,
        out,
    })
}

/// The gate policy the layers set.
fn policy(l: &Layers, lock: PathBuf) -> anyhow::Result<GatePolicy> {
    let alpha = crate::score::stats::alpha(
        "--alpha",
        layered!(l.flags, l.file, alpha).unwrap_or(crate::score::stats::DEFAULT_ALPHA),
    )
    .map_err(anyhow::Error::msg)?;
    Ok(GatePolicy {
        fail_under: rate("--fail-under", layered!(l.flags, l.file, fail_under))?,
        min_tool_accuracy: rate(
            "--min-tool-accuracy",
            layered!(l.flags, l.file, min_tool_accuracy),
        )?,
        fail_under_recall: layered!(l.flags, l.file, fail_under_recall),
        lint_fail_on: layered!(l.flags, l.file, lint_fail_on).unwrap_or(LintFailOn::Error),
        fail_on_new: layered!(l.flags, l.file, fail_on_new).unwrap_or(LintFailOn::Warning),
        lock_check: layered!(l.flags, l.file, lock_check).unwrap_or(LockCheck::Fail),
        max_error_rate: rate(
            "--max-error-rate",
            layered!(l.flags, l.file, max_error_rate),
        )?
        .unwrap_or(0.05),
        fail_on_regression: layered!(l.flags, l.file, fail_on_regression).unwrap_or(true),
        max_drop: rate("--max-drop", layered!(l.flags, l.file, max_drop))?,
        fail_on_tool_regression: layered!(l.flags, l.file, fail_on_tool_regression)
            .unwrap_or(false),
        lock_path: lock,
        alpha,
    })
}

/// What the evaluation runs: the models (bm25 unless a layer names some), trials, split,
/// steps, concurrency and cost cap; its run goes into `<out>/run`.
fn eval_options(l: &Layers, out: &std::path::Path) -> anyhow::Result<EvalOptions> {
    let trials = layered!(l.flags, l.file, trials).unwrap_or(1);
    if trials == 0 {
        bail!("--trials must be at least 1");
    }
    let from_flags = l.flags.models.as_ref().is_some_and(|m| !m.is_empty());
    let models: Vec<String> = if from_flags {
        l.flags.models.clone().unwrap_or_default()
    } else {
        l.file.models.clone().unwrap_or_else(|| vec!["bm25".into()])
    }
    .into_iter()
    .map(|m| m.trim().to_string())
    .filter(|m| !m.is_empty())
    .collect();
    if models.is_empty() {
        bail!("--model: no model spec given");
    }
    let what = if from_flags { "--model" } else { "[ci] models" };
    Ok(EvalOptions {
        models: crate::models::ModelSpec::parse_all(&models, what)?,
        trials,
        split: layered!(l.flags, l.file, split).unwrap_or(SplitArg::All),
        out: Some(out.join(super::files::RUN_DIR)),
        label: None,
        resume: None,
        concurrency: layered!(l.flags, l.file, concurrency)
            .unwrap_or(crate::models::provider::DEFAULT_CONCURRENCY),
        max_steps: layered!(l.flags, l.file, max_steps).unwrap_or(1).max(1),
        shard: None,
        only: Vec::new(),
        incremental: None,
        model: Default::default(),
        max_cost: layered!(l.flags, l.file, max_cost),
    })
}

/// `--retries`, at most [`crate::limits::MAX_RETRIES`].
fn retries(l: &Layers) -> anyhow::Result<u32> {
    Ok(match layered!(l.flags, l.file, retries) {
        Some(n) if n > crate::limits::MAX_RETRIES => anyhow::bail!(
            "--retries {n}: at most {} (each retry waits longer than the last)",
            crate::limits::MAX_RETRIES
        ),
        Some(n) => n,
        None => crate::models::llm::LlmOptions::default().retries,
    })
}

/// `--curve-sizes`, comma-separated (`None`: the default sizes).
fn curve_sizes(l: &Layers) -> anyhow::Result<Option<Vec<crate::eval::curve::Size>>> {
    let Some(text) = layered!(l.flags, l.file, curve_sizes).filter(|s| !s.trim().is_empty()) else {
        return Ok(None);
    };
    text.split(',')
        .map(|s| s.parse())
        .collect::<Result<Vec<_>, String>>()
        .map(Some)
        .map_err(|e| anyhow::anyhow!("--curve-sizes: {e}"))
}

/// The contract tests' options, when `--contract` is on.
fn contract(l: &Layers) -> anyhow::Result<Option<crate::contract::ContractOptions>> {
    if layered!(l.flags, l.file, contract) != Some(true) {
        return Ok(None);
    }
    Ok(Some(crate::contract::ContractOptions {
        allow_writes: layered!(l.flags, l.file, allow_writes).unwrap_or(false),
        call_timeout: crate::limits::duration_from_secs(
            layered!(l.flags, l.file, call_timeout).unwrap_or(10.0),
            "--call-timeout",
        )
        .map_err(anyhow::Error::msg)?,
        ..Default::default()
    }))
}

impl CiSettings {
    /// The model options these settings ask for.
    pub(crate) fn model_options(&self) -> anyhow::Result<crate::models::ModelOptions> {
        let timeout = crate::limits::duration_from_secs(self.timeout, "--timeout")
            .map_err(anyhow::Error::msg)?;
        Ok(crate::models::ModelOptions {
            base_url: self.base_url.clone(),
            api_key: None,
            llm: crate::models::llm::LlmOptions {
                timeout,
                retries: self.retries,
                concurrency: self.concurrency,
                cache: self.cache_dir.clone().map(crate::models::cache::Cache::new),
                budget: self
                    .max_calls
                    .map(|m| std::sync::Arc::new(crate::models::llm::Budget::new(m))),
                seed: self.seed,
                max_steps: self.eval.max_steps,
                ..Default::default()
            },
        })
    }
}

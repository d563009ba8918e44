//! `toolgate ci`'s settings, resolved once: flags (and their `TOOLGATE_*` variables) over
//! toolgate.toml's `[ci]` over defaults, into the stage option types.

use std::path::PathBuf;

use anyhow::bail;

use crate::limits::rate;

use super::files::DEFAULT_OUT;
use crate::config::CiConfig;
use crate::eval::EvalOptions;
use crate::gate::{GatePolicy, LintFailOn, LockCheck};
use crate::tasks::SplitArg;

/// Everything one `toolgate ci` does, settled.
#[derive(Clone, Debug)]
pub struct CiSettings {
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

/// Merges the flags' layer over the file's layer. `lock` is where the lock file lives;
/// `on_actions` turns the comment on by default.
pub fn resolve(
    flags: &CiConfig,
    file: &CiConfig,
    lock: PathBuf,
    on_actions: bool,
) -> anyhow::Result<CiSettings> {
    macro_rules! pick {
        ($f:ident) => {
            flags.$f.clone().or_else(|| file.$f.clone())
        };
    }
    let alpha = crate::score::stats::alpha(
        "--alpha",
        pick!(alpha).unwrap_or(crate::score::stats::DEFAULT_ALPHA),
    )
    .map_err(anyhow::Error::msg)?;
    let trials = pick!(trials).unwrap_or(1);
    if trials == 0 {
        bail!("--trials must be at least 1");
    }
    let models: Vec<String> = if flags.models.as_ref().is_some_and(|m| !m.is_empty()) {
        flags.models.clone().unwrap_or_default()
    } else {
        file.models.clone().unwrap_or_else(|| vec!["bm25".into()])
    }
    .into_iter()
    .map(|m| m.trim().to_string())
    .filter(|m| !m.is_empty())
    .collect();
    if models.is_empty() {
        bail!("--model: no model spec given");
    }
    let what = if flags.models.as_ref().is_some_and(|m| !m.is_empty()) {
        "--model"
    } else {
        "[ci] models"
    };
    let models = crate::models::ModelSpec::parse_all(&models, what)?;
    let max_drop = rate("--max-drop", pick!(max_drop))?;
    let policy = GatePolicy {
        fail_under: rate("--fail-under", pick!(fail_under))?,
        min_tool_accuracy: rate("--min-tool-accuracy", pick!(min_tool_accuracy))?,
        fail_under_recall: pick!(fail_under_recall),
        lint_fail_on: pick!(lint_fail_on).unwrap_or(LintFailOn::Error),
        fail_on_new: pick!(fail_on_new).unwrap_or(LintFailOn::Warning),
        lock_check: pick!(lock_check).unwrap_or(LockCheck::Fail),
        max_error_rate: rate("--max-error-rate", pick!(max_error_rate))?.unwrap_or(0.05),
        fail_on_regression: pick!(fail_on_regression).unwrap_or(true),
        max_drop,
        fail_on_tool_regression: pick!(fail_on_tool_regression).unwrap_or(false),
        lock_path: lock,
        alpha,
    };
    let out = pick!(out).unwrap_or_else(|| PathBuf::from(DEFAULT_OUT));
    let eval = EvalOptions {
        models,
        trials,
        split: pick!(split).unwrap_or(SplitArg::All),
        out: Some(out.join(super::files::RUN_DIR)),
        label: None,
        resume: None,
        concurrency: pick!(concurrency).unwrap_or(crate::models::provider::DEFAULT_CONCURRENCY),
        max_steps: pick!(max_steps).unwrap_or(1).max(1),
        shard: None,
        only: Vec::new(),
        incremental: None,
        model: Default::default(),
        max_cost: pick!(max_cost),
    };
    let no_cache = pick!(no_cache).unwrap_or(false);
    let curve = crate::eval::curve::When::from(pick!(curve));
    let curve_sizes = match pick!(curve_sizes).filter(|s| !s.trim().is_empty()) {
        None => None,
        Some(text) => Some(
            text.split(',')
                .map(|s| s.parse())
                .collect::<Result<Vec<_>, String>>()
                .map_err(|e| anyhow::anyhow!("--curve-sizes: {e}"))?,
        ),
    };
    Ok(CiSettings {
        tasks: pick!(tasks),
        eval,
        policy,
        base: pick!(base),
        badge: pick!(badge),
        write_baseline: None,
        resume: false,
        // On GitHub Actions the comment is what users come for; elsewhere there is no PR.
        comment: pick!(comment).unwrap_or(on_actions),
        comment_id: pick!(comment_id).unwrap_or_else(|| "default".into()),
        comment_author: pick!(comment_author),
        cache_dir: (!no_cache).then(|| PathBuf::from(".toolgate-cache")),
        timeout: pick!(timeout).unwrap_or(60.0),
        retries: match pick!(retries) {
            Some(n) if n > crate::limits::MAX_RETRIES => anyhow::bail!(
                "--retries {n}: at most {} (each retry waits longer than the last)",
                crate::limits::MAX_RETRIES
            ),
            Some(n) => n,
            None => crate::models::llm::LlmOptions::default().retries,
        },
        base_url: pick!(base_url),
        max_calls: pick!(max_calls),
        seed: pick!(seed),
        merge: vec![],
        incremental: false,
        full_every: None,
        concurrency: pick!(concurrency),
        belt: pick!(belt).filter(|b| !b.trim().is_empty()),
        curve,
        curve_sizes,
        ablation: crate::eval::curve::When::from(pick!(ablation)),
        lock_section: None,
        notices: Vec::new(),
        settings_review: None,
        base_lock: None,
        contract: match pick!(contract) {
            Some(true) => Some(crate::contract::ContractOptions {
                allow_writes: pick!(allow_writes).unwrap_or(false),
                call_timeout: crate::limits::duration_from_secs(
                    pick!(call_timeout).unwrap_or(10.0),
                    "--call-timeout",
                )
                .map_err(anyhow::Error::msg)?,
                ..Default::default()
            }),
            _ => None,
        },
        out,
    })
}

impl CiSettings {
    /// The model options these settings ask for.
    pub fn model_options(&self) -> anyhow::Result<crate::models::ModelOptions> {
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

//! `toolgate run SERVER -t tasks.jsonl -m bm25` and `toolgate report DIR`: flags to options,
//! then the eval stage (or the improve stage), the gate, and the printed report.

use std::path::{Path, PathBuf};

use anyhow::bail;

use super::{load_catalog, rate};
use crate::cli::{Format, GateArgs, ReportArgs, RunArgs};
use crate::config::Config;
use crate::eval::{self, EvalOptions, RunFile};
use crate::gate::{Exit, GateInput, GatePolicy, decide};
use crate::improve::{self, ImproveOptions};
use crate::models;
use crate::out::{print, write_file};
use crate::report::run as run_report;

/// The model options the flags ask for.
pub fn model_options(args: &RunArgs) -> anyhow::Result<models::ModelOptions> {
    Ok(models::ModelOptions {
        base_url: args.base_url.clone(),
        api_key: args.api_key.clone(),
        llm: models::llm::LlmOptions {
            timeout: super::secs(args.timeout, "--timeout")?,
            retries: args.retries,
            concurrency: args.concurrency,
            cache: (!args.no_cache).then(|| models::cache::Cache::new(args.cache_dir.clone())),
            budget: args
                .max_calls
                .map(|m| std::sync::Arc::new(models::llm::Budget::new(m))),
            seed: args.seed,
            max_steps: args.max_steps.max(1),
            ..Default::default()
        },
    })
}

impl TryFrom<&RunArgs> for EvalOptions {
    type Error = anyhow::Error;

    fn try_from(args: &RunArgs) -> anyhow::Result<Self> {
        Ok(EvalOptions {
            models: args.models.clone(),
            trials: args.trials,
            split: args.split,
            out: args.out.clone(),
            label: args.label.clone(),
            resume: args.resume.clone(),
            concurrency: args.concurrency,
            max_steps: args.max_steps.max(1),
            model: model_options(args)?,
        })
    }
}

/// The gate policy of `--fail-under`, `--min-tool-accuracy` and `--max-error-rate`.
pub fn policy(g: &GateArgs) -> anyhow::Result<GatePolicy> {
    Ok(GatePolicy {
        fail_under: rate("--fail-under", g.fail_under)?,
        min_tool_accuracy: rate("--min-tool-accuracy", g.min_tool_accuracy)?,
        max_error_rate: rate("--max-error-rate", Some(g.max_error_rate))?.unwrap_or(0.05),
        ..GatePolicy::default()
    })
}

pub async fn run(args: &RunArgs, cfg: &Config) -> anyhow::Result<Exit> {
    let policy = policy(&args.gate)?;
    let mut opts = EvalOptions::try_from(args)?;
    let previous = match &args.resume {
        Some(dir) => Some(RunFile::read(dir)?),
        None => None,
    };
    let mut server = args.server.clone();
    if server.server.is_none() && server.server_args.is_empty() && cfg.server.is_none() {
        server.server = previous.as_ref().map(|p| p.catalog.source.clone());
    }
    let tasks_path = match (&args.tasks, &previous) {
        (Some(p), _) => p.clone(),
        (None, Some(prev)) => PathBuf::from(&prev.suite.path),
        (None, None) => {
            bail!("no task file: pass -t tasks.jsonl (make one with `toolgate generate`)")
        }
    };
    if opts.models.is_empty() {
        opts.models = match &previous {
            Some(p) => p.models.iter().map(|m| m.spec.clone()).collect(),
            None => vec!["bm25".into()],
        };
    }
    let providers: std::collections::BTreeSet<&str> = opts
        .models
        .iter()
        .filter_map(|s| models::provider_of(s))
        .map(|p| p.name)
        .collect();
    if providers.len() > 1 && (args.api_key.is_some() || args.base_url.is_some()) {
        bail!(
            "--api-key/--base-url apply to one provider, but this run mixes {}: set each provider's own variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, …) instead",
            providers.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    let catalog = load_catalog(&server, cfg).await?;
    let tasks = eval::load_tasks(&catalog, &tasks_path, args.split)?;
    if args.fix || !args.mutate.is_empty() {
        let iopts = ImproveOptions {
            out: args.out.clone().or_else(|| args.resume.clone()),
            trials: args.trials,
            concurrency: args.concurrency,
            mutate: args.mutate.clone(),
            fixer: args.fixer.clone(),
            fix_tools: args.fix_tool.clone(),
            fix_max: args.fix_max,
        };
        let text = if args.fix {
            improve::fix::run(&iopts, &catalog, &tasks, &opts.models, &opts.model).await?
        } else {
            improve::mutate::run(&iopts, &catalog, &tasks, &opts.models, &opts.model).await?
        };
        print(&text);
        return Ok(Exit::Pass);
    }
    let mut rd = eval::evaluate(&catalog, &tasks_path, &tasks, &opts).await?;
    let decision = rd.finalize(&catalog, &tasks, &policy)?;
    if decision.passed() {
        write_badge(&rd.run, &args.gate)?;
    }
    print_run(&rd.run, args.format);
    Ok(verdict(&decision))
}

/// Says why the gate failed (on stderr) and returns the exit.
fn verdict(d: &crate::gate::GateDecision) -> Exit {
    if !d.passed() {
        let what = if d.exit() == Exit::CouldNotRun {
            "the run cannot be scored"
        } else {
            "gate failed"
        };
        eprintln!("toolgate: {what}: {}", d.wording().join("; "));
    }
    d.exit()
}

/// Writes `--badge FILE` when asked.
fn write_badge(run: &RunFile, gate_args: &GateArgs) -> anyhow::Result<()> {
    if let Some(path) = &gate_args.badge
        && let Some(svg) = crate::report::badge::for_run(run)
    {
        write_file(path, &svg)?;
    }
    Ok(())
}

fn print_run(run: &RunFile, format: Format) {
    match format {
        Format::Json => print(&crate::eval::v1::to_text(run).unwrap_or_default()),
        Format::Markdown | Format::Github => print(&run_report::markdown(run)),
        Format::Terminal | Format::Sarif => print(&run_report::terminal(run)),
    }
}

/// `toolgate report DIR`: re-render (and re-gate) a finished run.
pub fn report(a: &ReportArgs) -> anyhow::Result<Exit> {
    let dir: &Path = &a.run;
    let policy = policy(&a.gate)?;
    let mut run = RunFile::read(dir)?;
    let decision = decide(
        &GateInput {
            run: Some(&run),
            ..Default::default()
        },
        &policy,
    );
    let thresholds = a.gate.fail_under.is_some() || a.gate.min_tool_accuracy.is_some();
    let decision = match &run.gate {
        // Without new thresholds the recorded decision stands, unless it is now stricter.
        Some(g) if !thresholds && !g.passed && decision.passed() => crate::gate::GateDecision {
            reasons: g.failures.clone(),
            notices: vec![],
        },
        _ => decision,
    };
    if thresholds || run.gate.is_none() || !decision.passed() {
        run.gate = Some((&decision).into());
    }
    eval::rundir::write_reports(dir, &run)?;
    if decision.passed() {
        write_badge(&run, &a.gate)?;
    }
    print_run(&run, a.format);
    let exit = verdict(&decision);
    // A recorded failure from an older toolgate has only its wording.
    if exit == Exit::Pass && run.gate.as_ref().is_some_and(|g| !g.passed) {
        let g = run
            .gate
            .as_ref()
            .map(|g| g.reasons.join("; "))
            .unwrap_or_default();
        eprintln!("toolgate: gate failed: {g}");
        return Ok(Exit::GateFailed);
    }
    Ok(exit)
}

//! `toolgate run SERVER -t tasks.jsonl -m bm25`: a resumable, scored run directory, reports,
//! and the accuracy gate.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::{Outcome, load_catalog, write_file};
use crate::catalog::Catalog;
use crate::cli::{Format, GateArgs, RunArgs, SplitArg};
use crate::config::Config;
use crate::eval::PredictionLine;
use crate::eval::run_file::PredictionWriter;
use crate::eval::run_file::{
    CatalogInfo, GateResult, ModelInfo, RUN_SCHEMA, RunFile, SuiteInfo, read_predictions,
};
use crate::eval::runner::{self, OUTCOMES_FILE};
use crate::models;
use crate::report::run as run_report;
use crate::tasks::{Split, Task, parse_tasks, read_tasks, suite_hash};

fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Checks that every tool a task names exists in the catalog (errors name the line).
pub fn check_tasks_against(catalog: &Catalog, path: &Path) -> anyhow::Result<()> {
    let (numbered, _) = parse_tasks(path)?;
    let mut errors = Vec::new();
    for (line, t) in &numbered {
        let named = t
            .expected
            .iter()
            .flat_map(|e| std::iter::once(&e.tool).chain(&e.acceptable))
            .chain(&t.lure);
        for name in named {
            if catalog.tool(name).is_none() {
                errors.push(format!(
                    "{}:{line}: task `{}` names `{name}`, which is not a tool of {}",
                    path.display(),
                    t.id,
                    catalog.source
                ));
            }
        }
    }
    if !errors.is_empty() {
        let n = errors.len();
        errors.truncate(10);
        bail!(
            "{n} task(s) name tools the server does not have:\n  {}",
            errors.join("\n  ")
        );
    }
    Ok(())
}

fn slug(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    out.trim_matches('-').to_string()
}

fn new_run_dir(args: &RunArgs, specs: &[String]) -> PathBuf {
    if let Some(out) = &args.out {
        return out.clone();
    }
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        .to_string()
        .replace([':', '-'], "")
        .replace('T', "-")
        .trim_end_matches('Z')
        .to_string();
    let label = args.label.clone().unwrap_or_else(|| specs.join("+"));
    PathBuf::from("runs").join(format!("{stamp}-{}", slug(&label)))
}

/// Applies `--fail-under` and `--min-tool-accuracy` to every model's results.
pub fn gate(run: &RunFile, g: &GateArgs) -> GateResult {
    let mut reasons = Vec::new();
    for r in &run.results {
        let m = &r.metrics;
        if let Some(min) = g.fail_under
            && m.accuracy.value < min
        {
            reasons.push(format!(
                "{}: tool accuracy {:.1}% is under --fail-under {:.1}% (n={})",
                r.model,
                m.accuracy.value * 100.0,
                min * 100.0,
                m.accuracy.n
            ));
        }
        if let Some(min) = g.min_tool_accuracy {
            for t in m
                .per_tool
                .iter()
                .filter(|t| t.support > 0 && t.accuracy.value < min)
            {
                reasons.push(format!(
                    "{}: `{}` accuracy {:.1}% is under --min-tool-accuracy {:.1}% (n={})",
                    r.model,
                    t.tool,
                    t.accuracy.value * 100.0,
                    min * 100.0,
                    t.support
                ));
            }
        }
    }
    if run.status != "complete" && (g.fail_under.is_some() || g.min_tool_accuracy.is_some()) {
        reasons.push(format!(
            "the run is {}, not complete: its numbers cannot pass a gate",
            run.status
        ));
    }
    GateResult {
        passed: reasons.is_empty(),
        reasons,
    }
}

pub async fn run(args: &RunArgs, cfg: &Config) -> anyhow::Result<Outcome> {
    for (name, v) in [
        ("--fail-under", args.gate.fail_under),
        ("--min-tool-accuracy", args.gate.min_tool_accuracy),
    ] {
        if let Some(v) = v
            && !(0.0..=1.0).contains(&v)
        {
            bail!("{name} takes a rate between 0 and 1 (e.g. 0.8), not {v}");
        }
    }
    if args.trials == 0 {
        bail!("--trials must be at least 1");
    }
    let previous = match &args.resume {
        Some(dir) => Some(RunFile::read(dir)?),
        None => None,
    };
    let mut server = args.server.clone();
    if server.server.is_none() && cfg.server.is_none() {
        server.server = previous.as_ref().map(|p| p.catalog.source.clone());
    }
    let tasks_path = match (&args.tasks, &previous) {
        (Some(p), _) => p.clone(),
        (None, Some(prev)) => PathBuf::from(&prev.suite.path),
        (None, None) => {
            bail!("no task file: pass -t tasks.jsonl (make one with `toolgate generate`)")
        }
    };
    let catalog = load_catalog(&server, cfg).await?;
    let (tasks, split) = load_tasks(&catalog, &tasks_path, args.split)?;
    let mut specs = args.models.clone();
    if specs.is_empty() {
        specs = match &previous {
            Some(p) => p.models.iter().map(|m| m.spec.clone()).collect(),
            None => vec!["bm25".into()],
        };
    }
    let providers: std::collections::BTreeSet<&str> = specs
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
    let model_opts = model_options(args)?;
    if args.fix {
        return super::fix::run(args, &catalog, &tasks, &specs, &model_opts).await;
    }
    if !args.mutate.is_empty() {
        return super::mutate::run(args, &catalog, &tasks, &specs, &model_opts).await;
    }
    let (dir, mut run, predictions) = evaluate(
        args,
        &catalog,
        &tasks_path,
        &tasks,
        split,
        &specs,
        &model_opts,
        previous,
    )
    .await?;
    finish(
        &dir,
        &mut run,
        &catalog,
        &tasks,
        &predictions,
        &args.gate,
        args.format,
    )
}

/// Reads the task file, checks it names only tools of `catalog`, and keeps `split`.
pub fn load_tasks(
    catalog: &Catalog,
    tasks_path: &Path,
    split: SplitArg,
) -> anyhow::Result<(Vec<Task>, &'static str)> {
    let mut tasks = read_tasks(tasks_path)?;
    check_tasks_against(catalog, tasks_path)?;
    let name = match split {
        SplitArg::All => "all",
        SplitArg::Dev => "dev",
        SplitArg::Heldout => "heldout",
    };
    match split {
        SplitArg::All => {}
        SplitArg::Dev => tasks.retain(|t| t.split == Split::Dev),
        SplitArg::Heldout => tasks.retain(|t| t.split == Split::Heldout),
    }
    if tasks.is_empty() {
        bail!("{} has no {name} tasks", tasks_path.display());
    }
    Ok((tasks, name))
}

/// The model options `args` ask for.
pub fn model_options(args: &RunArgs) -> anyhow::Result<models::ModelOptions> {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        bail!("--timeout must be a positive number of seconds");
    }
    Ok(models::ModelOptions {
        base_url: args.base_url.clone(),
        api_key: args.api_key.clone(),
        llm: models::llm::LlmOptions {
            timeout: std::time::Duration::from_secs_f64(args.timeout),
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

/// Runs (or resumes) every model over `tasks`, persisting each decision as it arrives, and
/// returns the run directory, its run file (not yet scored) and all predictions.
#[allow(clippy::too_many_arguments)]
pub async fn evaluate(
    args: &RunArgs,
    catalog: &Catalog,
    tasks_path: &Path,
    tasks: &[Task],
    split: &str,
    specs: &[String],
    model_opts: &models::ModelOptions,
    previous: Option<RunFile>,
) -> anyhow::Result<(PathBuf, RunFile, Vec<PredictionLine>)> {
    let models: Vec<Box<dyn models::Model>> = specs
        .iter()
        .map(|s| models::build(s, catalog, model_opts))
        .collect::<anyhow::Result<_>>()?;
    let trials: Vec<u32> = models
        .iter()
        .map(|m| if m.deterministic() { 1 } else { args.trials })
        .collect();
    let catalog_sha = crate::catalog::canonical::catalog_hash(catalog);
    let suite_sha = suite_hash(tasks);
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    for t in tasks {
        *by_kind.entry(t.kind.as_str().to_string()).or_default() += 1;
    }
    let (dir, mut run) = match (&args.resume, previous) {
        (Some(dir), Some(prev)) => {
            if prev.catalog.sha256 != catalog_sha {
                bail!(
                    "{} was made from another catalog (sha256 {}…, now {}…): its predictions cannot be resumed against this server",
                    dir.display(),
                    crate::catalog::canonical::short_hash(&prev.catalog.sha256),
                    crate::catalog::canonical::short_hash(&catalog_sha)
                );
            }
            if prev.suite.sha256 != suite_sha {
                bail!(
                    "{} was made from another task suite than {} ({split} split)",
                    dir.display(),
                    tasks_path.display()
                );
            }
            let prev_specs: Vec<String> = prev.models.iter().map(|m| m.spec.clone()).collect();
            let new_specs: Vec<String> = models.iter().map(|m| m.spec()).collect();
            if prev_specs != new_specs {
                bail!(
                    "{} ran models {prev_specs:?}; resume it with the same models, not {new_specs:?}",
                    dir.display()
                );
            }
            (dir.clone(), prev)
        }
        _ => {
            let dir = new_run_dir(args, specs);
            if dir.join(crate::eval::run_file::RUN_FILE).exists() {
                bail!(
                    "{} already holds a run: pass --resume {} to continue it, or another --out",
                    dir.display(),
                    dir.display()
                );
            }
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("could not create {}", dir.display()))?;
            let run = RunFile {
                schema_version: RUN_SCHEMA.into(),
                toolgate_version: env!("CARGO_PKG_VERSION").into(),
                created: now(),
                finished: None,
                status: "running".into(),
                catalog: CatalogInfo {
                    source: catalog.source.clone(),
                    sha256: catalog_sha.clone(),
                    tools: catalog.tools.iter().map(|t| t.name().to_string()).collect(),
                },
                suite: SuiteInfo {
                    path: tasks_path.display().to_string(),
                    sha256: suite_sha.clone(),
                    tasks: tasks.len(),
                    by_kind,
                },
                models: models
                    .iter()
                    .zip(&trials)
                    .map(|(m, t)| ModelInfo {
                        spec: m.spec(),
                        deterministic: m.deterministic(),
                        trials: *t,
                        served_by: vec![],
                        notes: vec![],
                    })
                    .collect(),
                trials: args.trials,
                split: split.into(),
                max_steps: args.max_steps.max(1),
                results: vec![],
                gate: None,
            };
            run.write(&dir)?;
            (dir, run)
        }
    };
    let existing = read_predictions(&dir)?;
    let done: HashSet<(String, String, u32)> = existing
        .iter()
        .map(|p| (p.model.clone(), p.task_id.clone(), p.trial))
        .collect();
    if !done.is_empty() {
        eprintln!(
            "resuming {}: {} decision(s) already made",
            dir.display(),
            done.len()
        );
    }
    let mut writer = PredictionWriter::open(&dir)?;
    let concurrency = args.concurrency.max(1) * models.len().max(1);
    let ran = runner::execute(&models, &trials, tasks, &done, &mut writer, concurrency).await?;
    for (info, m) in run.models.iter_mut().zip(&models) {
        for n in m.notes() {
            if !info.notes.contains(&n) {
                info.notes.push(n);
            }
        }
    }
    eprintln!("{ran} decision(s) made; run directory {}", dir.display());
    let predictions: Vec<PredictionLine> = read_predictions(&dir)?;
    Ok((dir, run, predictions))
}

/// Scores, writes run.json, outcomes.jsonl and the reports, prints, and gates.
pub fn finish(
    dir: &Path,
    run: &mut RunFile,
    catalog: &Catalog,
    tasks: &[Task],
    predictions: &[PredictionLine],
    gate_args: &GateArgs,
    format: Format,
) -> anyhow::Result<Outcome> {
    let g = finalize(dir, run, catalog, tasks, predictions, gate_args)?;
    write_badge(run, gate_args)?;
    print_run(run, format);
    if !g.passed {
        eprintln!("toolgate: gate failed: {}", g.reasons.join("; "));
        return Ok(Outcome::GateFailed);
    }
    Ok(Outcome::Pass)
}

/// Scores the predictions, gates, and writes run.json, outcomes.jsonl, report.md and
/// report.html into `dir`.
pub fn finalize(
    dir: &Path,
    run: &mut RunFile,
    catalog: &Catalog,
    tasks: &[Task],
    predictions: &[PredictionLine],
    gate_args: &GateArgs,
) -> anyhow::Result<GateResult> {
    let specs: Vec<String> = run.models.iter().map(|m| m.spec.clone()).collect();
    for info in run.models.iter_mut() {
        let mut seen: Vec<String> = predictions
            .iter()
            .filter(|p| p.model == info.spec)
            .filter_map(|p| p.decision.served_by.clone())
            .collect();
        seen.sort();
        seen.dedup();
        info.served_by = seen;
    }
    let (results, outcomes) = runner::score(catalog, tasks, &specs, predictions);
    let expected: usize = run
        .models
        .iter()
        .map(|m| tasks.len() * m.trials as usize)
        .sum();
    run.status = if predictions.len() >= expected {
        "complete".into()
    } else {
        "partial".into()
    };
    run.results = results;
    run.finished = Some(now());
    let g = gate(run, gate_args);
    run.gate = Some(g.clone());
    run.write(dir)?;
    let mut lines = String::new();
    for o in &outcomes {
        lines.push_str(&serde_json::to_string(o)?);
        lines.push('\n');
    }
    write_file(&dir.join(OUTCOMES_FILE), &lines)?;
    write_reports(dir, run)?;
    Ok(g)
}

/// Writes `--badge FILE` when asked.
pub fn write_badge(run: &RunFile, gate_args: &GateArgs) -> anyhow::Result<()> {
    if let Some(path) = &gate_args.badge
        && let Some(svg) = crate::report::badge::for_run(run)
    {
        write_file(path, &svg)?;
    }
    Ok(())
}

pub fn write_reports(dir: &Path, run: &RunFile) -> anyhow::Result<()> {
    write_file(&dir.join("report.md"), &run_report::markdown(run))?;
    write_file(&dir.join("report.html"), &crate::report::html::render(run))?;
    Ok(())
}

pub fn print_run(run: &RunFile, format: Format) {
    match format {
        Format::Json => println!("{}", serde_json::to_string_pretty(run).unwrap_or_default()),
        Format::Markdown | Format::Github => print!("{}", run_report::markdown(run)),
        Format::Terminal | Format::Sarif => print!("{}", run_report::terminal(run)),
    }
}

/// `toolgate report DIR`: re-render (and re-gate) a finished run.
pub fn report(dir: &Path, format: Format, gate_args: &GateArgs) -> anyhow::Result<Outcome> {
    let mut run = RunFile::read(dir)?;
    if gate_args.fail_under.is_some() || gate_args.min_tool_accuracy.is_some() {
        run.gate = Some(gate(&run, gate_args));
    }
    write_reports(dir, &run)?;
    write_badge(&run, gate_args)?;
    print_run(&run, format);
    match &run.gate {
        Some(g) if !g.passed => {
            eprintln!("toolgate: gate failed: {}", g.reasons.join("; "));
            Ok(Outcome::GateFailed)
        }
        _ => Ok(Outcome::Pass),
    }
}

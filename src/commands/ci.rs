//! `toolgate ci`: the whole gate in one process. Connect once, check the lock, lint,
//! evaluate, compare with a base, write every output into one directory, and on GitHub
//! write the job summary, step outputs, annotations and the sticky pull-request comment.
//! Flags override toolgate.toml's `[ci]`; the exit code is decided here, after every output
//! is written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::{Outcome, load_catalog, lock_path, write_file};
use crate::catalog::lock::{self, LockFile};
use crate::cli::{CiArgs, Format, GateArgs, LintFailOn, LockCheck, RunArgs, ServerArgs, SplitArg};
use crate::config::{CiConfig, Config};
use crate::eval::RunFile;
use crate::eval::baseline::{self, BASELINE_FILE, Baseline};
use crate::github::{self, GithubEnv, comment};
use crate::lint::Severity;
use crate::report::ci::{self as ci_report, CiReport, LockStatus};
use crate::report::{LintReport, badge};
use crate::tasks::template::{GenerateOptions, generate};

pub const DEFAULT_OUT: &str = "toolgate-out";
const NOT_A_PR: &str = "this run is not for a pull request";

/// The settings of one `toolgate ci`, flags over `[ci]` over defaults.
struct Settings {
    out: PathBuf,
    lock_check: LockCheck,
    lint_fail_on: LintFailOn,
    tasks: Option<PathBuf>,
    models: Vec<String>,
    trials: u32,
    split: SplitArg,
    gate: GateArgs,
    base: Option<PathBuf>,
    comment: bool,
    comment_id: String,
    comment_author: Option<String>,
    alpha: f64,
}

fn rate(name: &str, v: Option<f64>) -> anyhow::Result<Option<f64>> {
    if let Some(x) = v
        && !(0.0..=1.0).contains(&x)
    {
        bail!("{name} takes a rate between 0 and 1 (e.g. 0.8), not {x}");
    }
    Ok(v)
}

fn settings(a: &CiArgs, c: &CiConfig, on_actions: bool) -> anyhow::Result<Settings> {
    let alpha = a.alpha.or(c.alpha).unwrap_or(0.05);
    if !(alpha > 0.0 && alpha < 1.0) {
        bail!("--alpha must be between 0 and 1, not {alpha}");
    }
    let trials = a.trials.or(c.trials).unwrap_or(1);
    if trials == 0 {
        bail!("--trials must be at least 1");
    }
    let models = if !a.models.is_empty() {
        a.models.clone()
    } else {
        c.models.clone().unwrap_or_else(|| vec!["bm25".into()])
    };
    let models: Vec<String> = models
        .into_iter()
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .collect();
    if models.is_empty() {
        bail!("--model: no model spec given");
    }
    Ok(Settings {
        out: a
            .out
            .clone()
            .or(c.out.clone())
            .unwrap_or_else(|| PathBuf::from(DEFAULT_OUT)),
        lock_check: a.lock_check.or(c.lock_check).unwrap_or(LockCheck::Fail),
        lint_fail_on: a
            .lint_fail_on
            .or(c.lint_fail_on)
            .unwrap_or(LintFailOn::Error),
        tasks: a.tasks.clone().or(c.tasks.clone()),
        models,
        trials,
        split: a.split.or(c.split).unwrap_or(SplitArg::All),
        gate: GateArgs {
            badge: a.badge.clone().or(c.badge.clone()),
            fail_under: rate("--fail-under", a.fail_under.or(c.fail_under))?,
            min_tool_accuracy: rate(
                "--min-tool-accuracy",
                a.min_tool_accuracy.or(c.min_tool_accuracy),
            )?,
        },
        base: a.base.clone().or(c.base.clone()),
        // On GitHub Actions the comment is what users come for; elsewhere there is no PR.
        comment: a.comment.or(c.comment).unwrap_or(on_actions),
        comment_id: a
            .comment_id
            .clone()
            .or(c.comment_id.clone())
            .unwrap_or_else(|| "default".into()),
        comment_author: a.comment_author.clone().or(c.comment_author.clone()),
        alpha,
    })
}

/// `toolgate run`'s arguments for this evaluation: clap's own defaults (so they are stated in
/// one place, cli.rs), then what `ci` settles.
fn run_args(a: &CiArgs, c: &CiConfig, s: &Settings, run_dir: &Path) -> anyhow::Result<RunArgs> {
    use clap::{Args, FromArgMatches};
    let matches = RunArgs::augment_args(clap::Command::new("run"))
        .try_get_matches_from(["run"])
        .context("internal: the run defaults do not parse")?;
    let mut r = RunArgs::from_arg_matches(&matches).context("internal: run defaults")?;
    r.tasks = s.tasks.clone();
    r.models = s.models.clone();
    r.trials = s.trials;
    r.split = s.split;
    r.out = Some(run_dir.to_path_buf());
    r.gate = s.gate.clone();
    r.base_url = a.base_url.clone().or(c.base_url.clone());
    r.max_calls = a.max_calls.or(c.max_calls);
    r.seed = a.seed.or(c.seed);
    if let Some(v) = a.concurrency.or(c.concurrency) {
        r.concurrency = v;
    }
    if let Some(v) = a.timeout.or(c.timeout) {
        r.timeout = v;
    }
    if let Some(v) = a.max_steps.or(c.max_steps) {
        r.max_steps = v;
    }
    Ok(r)
}

fn lock_status(policy: LockCheck, path: &Path, current: &LockFile) -> anyhow::Result<LockStatus> {
    let policy_name = match policy {
        LockCheck::Fail => "fail",
        LockCheck::Warn => "warn",
        LockCheck::Off => "off",
    };
    let mut status = LockStatus {
        path: path.display().to_string(),
        status: "off".into(),
        policy: policy_name.into(),
        diff: None,
    };
    if policy == LockCheck::Off {
        return Ok(status);
    }
    if !path.is_file() {
        status.status = "missing".into();
        return Ok(status);
    }
    let old = LockFile::read(path)?;
    let d = lock::diff(&old, current);
    status.status = if d.is_empty() { "match" } else { "changed" }.into();
    if !d.is_empty() {
        status.diff = Some(d);
    }
    Ok(status)
}

/// Clears the evaluation of an earlier `toolgate ci` in `run_dir` (only toolgate's own files).
fn clear_run_dir(run_dir: &Path) -> anyhow::Result<()> {
    if !run_dir.exists() {
        return Ok(());
    }
    if !run_dir.join(crate::eval::run_file::RUN_FILE).is_file() {
        bail!(
            "{} exists but is not a toolgate run directory: choose another --out",
            run_dir.display()
        );
    }
    std::fs::remove_dir_all(run_dir)
        .with_context(|| format!("could not clear the previous run in {}", run_dir.display()))
}

fn lint_fails(lint: &LintReport, on: LintFailOn) -> Option<String> {
    let s = &lint.summary;
    match on {
        LintFailOn::Never => None,
        LintFailOn::Error if s.errors > 0 => Some(format!(
            "{} lint error(s) (the gate fails on lint errors; see the Lint section)",
            s.errors
        )),
        LintFailOn::Warning if lint.fails(Severity::Warning) => Some(format!(
            "{} lint error(s) and {} warning(s) (the gate fails on warnings)",
            s.errors, s.warnings
        )),
        _ => None,
    }
}

/// Files toolgate ci writes into the output directory (cleared at the start, so a file left
/// from an earlier run is never mistaken for this one's).
const OUT_FILES: &[&str] = &[
    "ci.json",
    "summary.md",
    "comment.md",
    "lint.json",
    "lint.sarif",
    "badge.svg",
    "baseline.json",
    "toolgate.lock",
    "tasks.jsonl",
];

pub async fn run(a: &CiArgs, cfg: &Config) -> anyhow::Result<Outcome> {
    let c = &cfg.ci;
    let gh = if a.no_github.unwrap_or(false) {
        GithubEnv::default()
    } else {
        GithubEnv::from_env()
    };
    let s = settings(a, c, gh.actions)?;
    match gate(a, cfg, &s, &gh).await {
        Ok(outcome) => Ok(outcome),
        Err(e) => {
            // toolgate could not do its job: say so wherever a reader looks, so a stale
            // "passed" comment or an empty output never stands in for this run.
            report_error(&s, &gh, &format!("{e:#}")).await;
            Err(e)
        }
    }
}

/// Writes summary.md, ci.json, the job summary, step outputs and the PR comment for a run
/// that could not finish. Failures here are printed, never raised over the original error.
async fn report_error(s: &Settings, gh: &GithubEnv, error: &str) {
    let error = mask(error);
    let error: String = error.chars().take(4000).collect();
    let ctx = gh.context();
    let markdown = ci_report::error_markdown(&error, ctx.commit.as_deref(), ctx.run_url.as_deref());
    let json = serde_json::json!({
        "schema_version": ci_report::CI_SCHEMA,
        "toolgate_version": env!("CARGO_PKG_VERSION"),
        "status": "error",
        "passed": false,
        "error": error,
    });
    let written = std::fs::create_dir_all(&s.out).is_ok()
        && write_file(&s.out.join("summary.md"), &markdown).is_ok()
        && write_file(
            &s.out.join("ci.json"),
            &format!(
                "{}\n",
                serde_json::to_string_pretty(&json).unwrap_or_default()
            ),
        )
        .is_ok();
    if !written {
        eprintln!(
            "toolgate: could not write the error report into {}",
            s.out.display()
        );
    }
    if !gh.actions {
        return;
    }
    if let Some(p) = &gh.step_summary
        && let Err(e) = github::outputs::write_summary(p, &markdown)
    {
        eprintln!("toolgate: {e:#}");
    }
    if let Some(p) = &gh.output {
        let first_line = error.lines().next().unwrap_or_default().to_string();
        if let Err(e) =
            github::outputs::write_outputs(p, &[("passed", "false".into()), ("error", first_line)])
        {
            eprintln!("toolgate: {e:#}");
        }
    }
    if s.comment {
        let body = format!("{}\n{markdown}", comment::marker(&s.comment_id));
        match post_comment(gh, s, &body).await {
            Ok(comment::Posted::Created { url }) | Ok(comment::Posted::Updated { url }) => {
                eprintln!("toolgate: pull-request comment {url}");
            }
            Ok(comment::Posted::Skipped { reason }) => {
                eprintln!("toolgate: no pull-request comment: {reason}")
            }
            Err(e) => eprintln!("toolgate: warning: the pull-request comment failed: {e:#}"),
        }
    }
}

/// Masks the values of credential variables set in this environment.
fn mask(text: &str) -> String {
    let mut t = text.to_string();
    for v in crate::catalog::env::secret_values() {
        t = t.replace(&v, "***");
    }
    t
}

async fn gate(a: &CiArgs, cfg: &Config, s: &Settings, gh: &GithubEnv) -> anyhow::Result<Outcome> {
    let c = &cfg.ci;
    let mut notices = Vec::new();
    let mut outputs: BTreeMap<String, String> = BTreeMap::new();
    let put = |outputs: &mut BTreeMap<String, String>, key: &str, path: &Path| {
        outputs.insert(key.to_string(), path.display().to_string());
    };

    // The base, read first: a bad base file fails before anything is spent.
    let base = match &s.base {
        None => None,
        Some(p) if !p.exists() => {
            notices.push(format!(
                "No base at {}: score deltas are not shown (the first run on a branch has none).",
                p.display()
            ));
            None
        }
        Some(p) => Some((p.clone(), baseline::read_base(p)?)),
    };

    // Connect once; everything below reads this catalog.
    let server = ServerArgs {
        server: a.server.clone(),
        server_args: vec![],
        headers: a
            .headers
            .iter()
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty())
            .collect(),
        bearer_env: a.bearer_env.clone(),
        connect_timeout: a.connect_timeout,
        request_timeout: a.request_timeout,
        max_pages: None,
        pass_env: a
            .pass_env
            .iter()
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .collect(),
    };
    let catalog = load_catalog(&server, cfg).await?;
    std::fs::create_dir_all(&s.out)
        .with_context(|| format!("could not create the output directory {}", s.out.display()))?;
    let out = &s.out;
    for f in OUT_FILES {
        let p = out.join(f);
        if p.is_file() {
            std::fs::remove_file(&p)
                .with_context(|| format!("could not remove the old {}", p.display()))?;
        }
    }

    // Pin check.
    let head_lock = LockFile::from_catalog(&catalog);
    let lock_file = lock_path(a.lock.as_ref(), cfg);
    let lock = lock_status(s.lock_check, &lock_file, &head_lock)?;
    write_file(&out.join("toolgate.lock"), &head_lock.to_text())?;
    put(&mut outputs, "lock", &out.join("toolgate.lock"));

    // Lint.
    let lint = super::lint::report_for(&catalog, cfg, None);
    write_file(
        &out.join("lint.json"),
        &super::lint::render(&lint, Format::Json),
    )?;
    write_file(
        &out.join("lint.sarif"),
        &super::lint::render(&lint, Format::Sarif),
    )?;
    put(&mut outputs, "lint_json", &out.join("lint.json"));
    put(&mut outputs, "sarif", &out.join("lint.sarif"));

    // Tasks: the user's, or generated from this catalog.
    let (tasks_path, generated) = match &s.tasks {
        Some(p) => (p.clone(), false),
        None => {
            let g = generate(
                &catalog,
                &GenerateOptions {
                    per_tool: 3,
                    near_miss: 1,
                    no_tool: 5,
                    seed: 1,
                    heldout: 0.0,
                    only: vec![],
                },
            );
            if g.tasks.is_empty() {
                bail!(
                    "no tasks could be generated from {}: pass --tasks FILE",
                    catalog.source
                );
            }
            let p = out.join("tasks.jsonl");
            crate::tasks::write_tasks(&p, &g.tasks)?;
            notices.push(format!(
                "No task file was given, so {} tasks were generated from this catalog (templates, seed 1). They change when descriptions change, so they cannot be compared with a base: generate a task file once (`toolgate generate`), review it and commit it.",
                g.tasks.len()
            ));
            (p, true)
        }
    };
    let (tasks, split) = super::run::load_tasks(&catalog, &tasks_path, s.split)?;

    // Evaluate (resumable in <out>/run).
    let run_dir = out.join("run");
    let resume = a.resume.unwrap_or(false);
    let previous = if resume && run_dir.join(crate::eval::run_file::RUN_FILE).is_file() {
        Some(RunFile::read(&run_dir)?)
    } else {
        clear_run_dir(&run_dir)?;
        None
    };
    let mut rargs = run_args(a, c, s, &run_dir)?;
    if previous.is_some() {
        rargs.resume = Some(run_dir.clone());
    }
    let model_opts = super::run::model_options(&rargs)?;
    let (dir, mut run, predictions) = super::run::evaluate(
        &rargs,
        &catalog,
        &tasks_path,
        &tasks,
        split,
        &s.models,
        &model_opts,
        previous,
    )
    .await?;
    let run_gate = super::run::finalize(&dir, &mut run, &catalog, &tasks, &predictions, &s.gate)?;
    put(&mut outputs, "run_json", &dir.join("run.json"));
    put(&mut outputs, "report_html", &dir.join("report.html"));
    put(&mut outputs, "report_markdown", &dir.join("report.md"));
    let outcomes = super::compare::read_outcomes(&dir)?;

    // Compare with the base.
    let comparison = base
        .as_ref()
        .map(|(p, b)| baseline::compare(p, b, &run, &outcomes, &lint, &head_lock, s.alpha));

    // The gate.
    let mut reasons = run_gate.reasons.clone();
    if let Some(r) = lint_fails(&lint, s.lint_fail_on) {
        reasons.push(r);
    }
    if lock.status == "changed" {
        let d = lock.diff.as_ref();
        let n = d.map_or(0, |d| d.added.len() + d.removed.len() + d.changed.len());
        let msg = format!(
            "the server's tool definitions differ from {} ({n} tool(s)); review and run `toolgate pin`",
            lock.path
        );
        if s.lock_check == LockCheck::Fail {
            reasons.push(msg);
        } else {
            notices.push(msg);
        }
    }

    // Files.
    let baseline = Baseline::new(run.clone(), outcomes, lint.clone(), head_lock);
    let baseline_text = baseline.to_text()?;
    write_file(&out.join(BASELINE_FILE), &baseline_text)?;
    put(&mut outputs, "baseline", &out.join(BASELINE_FILE));
    if let Some(p) = &a.write_baseline {
        write_file(p, &baseline_text)?;
        eprintln!(
            "wrote the baseline {} (commit it to compare pull requests with it)",
            p.display()
        );
    }
    if let Some(svg) = badge::for_run(&run) {
        write_file(&out.join("badge.svg"), &svg)?;
        put(&mut outputs, "badge", &out.join("badge.svg"));
        if let Some(p) = &s.gate.badge {
            write_file(p, &svg)?;
            put(&mut outputs, "badge", p);
        }
    }
    put(&mut outputs, "summary", &out.join("summary.md"));
    put(&mut outputs, "ci_json", &out.join("ci.json"));
    let ctx = gh.context();
    let mut report = CiReport {
        schema_version: ci_report::CI_SCHEMA.into(),
        toolgate_version: env!("CARGO_PKG_VERSION").into(),
        status: "ok".into(),
        commit: ctx.commit,
        run_url: ctx.run_url,
        passed: reasons.is_empty(),
        reasons,
        server: catalog.source.clone(),
        catalog_sha256: lint.catalog_sha256.clone(),
        tools: catalog.tools.len(),
        total_tokens: lint.total_tokens,
        lock,
        lint: lint.summary.clone(),
        lint_fail_on: format!("{:?}", s.lint_fail_on).to_lowercase(),
        tasks: tasks_path.display().to_string(),
        tasks_generated: generated,
        run,
        comparison,
        outputs,
        notices,
    };
    let full_run = crate::report::run::markdown(&report.run);

    // GitHub: annotations, the comment, then the summary and outputs (which report it).
    let mut comment_url = String::new();
    if gh.actions {
        let annotations = crate::report::github::annotations(&lint);
        // Keep stdout pure JSON when JSON was asked for (the runner reads commands on stderr too).
        if a.format == Format::Json {
            eprint!("{annotations}");
        } else {
            print!("{annotations}");
        }
    }
    if s.comment {
        let body = format!(
            "{}\n{}",
            comment::marker(&s.comment_id),
            ci_report::markdown(&report, &lint, &full_run)
        );
        write_file(&out.join("comment.md"), &body)?;
        match post_comment(gh, s, &body).await {
            Ok(comment::Posted::Created { url }) | Ok(comment::Posted::Updated { url }) => {
                eprintln!("toolgate: pull-request comment {url}");
                comment_url = url;
            }
            Ok(comment::Posted::Skipped { reason }) if reason.starts_with(NOT_A_PR) => {
                eprintln!("toolgate: no pull-request comment: {reason}");
            }
            Ok(comment::Posted::Skipped { reason }) => {
                notice(gh, &format!("no pull-request comment: {reason}"));
                report
                    .notices
                    .push(format!("No pull-request comment: {reason}."));
            }
            Err(e) => {
                let msg = format!("the pull-request comment failed: {e:#}");
                if gh.actions {
                    println!(
                        "::warning title=toolgate comment::{}",
                        crate::report::github::escape_data(&msg)
                    );
                } else {
                    eprintln!("toolgate: warning: {msg}");
                }
                report.notices.push(format!("{msg}."));
            }
        }
    }
    let summary = ci_report::markdown(&report, &lint, &full_run);
    write_file(&out.join("summary.md"), &summary)?;
    write_file(
        &out.join("ci.json"),
        &format!("{}\n", serde_json::to_string_pretty(&report)?),
    )?;
    if gh.actions {
        write_github(gh, &report, &summary, &comment_url)?;
    }
    match a.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        Format::Markdown => print!("{summary}"),
        _ => print!("{}", ci_report::terminal(&report)),
    }
    if report.passed {
        Ok(Outcome::Pass)
    } else {
        eprintln!("toolgate: gate failed: {}", report.reasons.join("; "));
        Ok(Outcome::GateFailed)
    }
}

fn notice(gh: &GithubEnv, msg: &str) {
    if gh.actions {
        println!(
            "::notice title=toolgate comment::{}",
            crate::report::github::escape_data(msg)
        );
    } else {
        eprintln!("toolgate: notice: {msg}");
    }
}

async fn post_comment(gh: &GithubEnv, s: &Settings, body: &str) -> anyhow::Result<comment::Posted> {
    let skip = |reason: &str| {
        Ok(comment::Posted::Skipped {
            reason: reason.into(),
        })
    };
    let Some(pr) = gh.pull_request()? else {
        return skip(&format!(
            "{NOT_A_PR} (GITHUB_EVENT_PATH has no pull_request)"
        ));
    };
    let Some(repo) = &gh.repository else {
        return skip("GITHUB_REPOSITORY is not set");
    };
    let Some(token) = &gh.token else {
        return skip(
            "GITHUB_TOKEN is not set (give the action `github-token`, with pull-requests: write)",
        );
    };
    let (owner, name) = github::split_repo(repo)?;
    let marker = comment::marker(&s.comment_id);
    let posted = comment::upsert(
        &comment::Target {
            api_url: &gh.api_url,
            token,
            owner,
            repo: name,
            number: pr.number,
            marker: &marker,
            author: s.comment_author.as_deref(),
            from_fork: pr.from_fork,
        },
        body,
    )
    .await?;
    Ok(posted)
}

fn write_github(
    gh: &GithubEnv,
    r: &CiReport,
    summary: &str,
    comment_url: &str,
) -> anyhow::Result<()> {
    if let Some(p) = &gh.step_summary {
        github::outputs::write_summary(p, summary)?;
    }
    let Some(p) = &gh.output else {
        return Ok(());
    };
    let first = r.run.results.first().map(|m| &m.metrics.accuracy);
    let mut outs: Vec<(&str, String)> = vec![
        ("passed", r.passed.to_string()),
        (
            "score",
            first.map(|a| format!("{:.4}", a.value)).unwrap_or_default(),
        ),
        (
            "score-low",
            first.map(|a| format!("{:.4}", a.lo)).unwrap_or_default(),
        ),
        (
            "score-high",
            first.map(|a| format!("{:.4}", a.hi)).unwrap_or_default(),
        ),
        ("lock-status", r.lock.status.clone()),
        ("lint-errors", r.lint.errors.to_string()),
        ("lint-warnings", r.lint.warnings.to_string()),
        ("catalog-sha256", r.catalog_sha256.clone()),
        ("suite-sha256", r.run.suite.sha256.clone()),
        ("comment-url", comment_url.to_string()),
        ("error", String::new()),
        (
            "out-dir",
            r.outputs
                .get("ci_json")
                .and_then(|p| Path::new(p).parent())
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        ),
    ];
    let delta = r
        .first_comparison()
        .map(|m| format!("{:.4}", m.overall.delta))
        .unwrap_or_default();
    outs.push(("score-delta", delta));
    // Report paths, named after their kind in ci.json (`run_json` → `run-json`).
    let paths: Vec<(String, String)> = r
        .outputs
        .iter()
        .map(|(k, v)| (k.replace('_', "-"), v.clone()))
        .collect();
    outs.extend(paths.iter().map(|(k, v)| (k.as_str(), v.clone())));
    github::outputs::write_outputs(p, &outs)
}

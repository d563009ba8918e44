//! `toolgate ci`: the whole gate in one process. From one catalog: check the lock, lint,
//! evaluate, compare with a base, decide through the gate stage, write every output into one
//! folder, and on GitHub write the job summary, step outputs, annotations and the sticky
//! pull-request comment. The exit code is decided after every output is written.

mod applied;
pub mod belt;
pub mod files;
pub mod fork;
mod inputs;
mod lint_delta;
pub mod policy;
pub mod prepare;
pub mod relay;
pub mod settings;
pub mod shards;
pub mod sinks;
pub mod templates;
pub mod workflow;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use applied::{applied_policy, contract_notices};
use inputs::incremental_base;
pub use inputs::{lock_status, tasks_file};
pub use settings::{CiSettings, resolve};

use crate::catalog::Catalog;
use crate::catalog::lock::LockFile;
use crate::eval::baseline::{self, Baseline};
use crate::eval::{self, EvalOptions};
use crate::gate::{Exit, GateInput, decide};
use crate::github::{GithubEnv, comment};
use crate::lint::LintSettings;
use crate::out::{write_file, write_shown};
use crate::record::RunFile;
use crate::record::contract::ContractReport;
use crate::record::read_outcomes;
use crate::report::ci::{self as ci_report, CiReport, CiStatus};
use crate::report::{Format, LintReport, badge};
use files::OutDir;

/// Where `toolgate ci`'s run comes from.
pub enum Source {
    /// The server's catalog (already listed): evaluate here.
    Live(Box<Catalog>),
    /// Fan-in: the shard folders of a CI matrix (`ci --shard K/N` jobs), joined.
    Shards(Vec<PathBuf>),
    /// The server's catalog, evaluated inside a belt (`--belt`).
    Belt(Box<Catalog>, Box<belt::BeltRun>),
}

/// Runs the gate over the catalog (or the shards) and writes every output. `format` is what
/// goes to stdout; `contract` is what the contract tests found, when they ran.
pub async fn run(
    s: &CiSettings,
    lint_settings: &LintSettings,
    source: Source,
    gh: &GithubEnv,
    format: Format,
    contract: Option<ContractReport>,
) -> anyhow::Result<Exit> {
    // Every server session is over: the reviewed files must be as they were read at start.
    crate::fsio::verify_pins()?;
    let mut notices = s.notices.clone();
    let mut outputs: BTreeMap<String, String> = BTreeMap::new();
    let mut put = |key: &str, path: &Path| {
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
    let out = OutDir(s.out.clone());
    let (catalog, shards, mut belt) = match source {
        Source::Live(c) => (*c, None, None),
        Source::Belt(c, b) => (*c, None, Some(*b)),
        Source::Shards(dirs) => {
            let (catalog, gathered) = shards::gather(&dirs, &mut notices)?;
            (catalog, Some(gathered), None)
        }
    };
    let belt_info = belt.as_ref().map(|b| &b.info);
    notices.extend(
        base.as_ref()
            .and_then(|(_, b)| belt::base_notice(&b.run, belt_info)),
    );
    out.prepare()?;

    // Pin check.
    let head_lock = LockFile::from_catalog(&catalog);
    let lock = belt::check_lock(s, &head_lock, belt.as_ref(), &mut notices)?;
    write_file(&out.file(files::LOCK), &head_lock.to_text())?;
    put("lock", &out.file(files::LOCK));

    // Lint.
    let locate = catalog.snapshot_path.clone().or_else(|| {
        s.policy
            .lock_path
            .is_file()
            .then(|| s.policy.lock_path.clone())
    });
    let lint = LintReport::for_catalog(&catalog, lint_settings, locate.as_deref())?;
    // Streamed through the mask: at scale each is tens of megabytes.
    crate::out::write_shown_json(&out.file(files::LINT_JSON), &lint)?;
    crate::out::write_shown_json(
        &out.file(files::LINT_SARIF),
        &crate::report::sarif::lint(&lint),
    )?;
    put("lint_json", &out.file(files::LINT_JSON));
    put("sarif", &out.file(files::LINT_SARIF));
    let lint_delta = lint_delta::delta(
        s,
        lint_settings,
        &head_lock,
        &lint,
        base.as_ref().map(|(_, b)| b),
    )?;
    let (lint_delta, delta_gates) = match lint_delta {
        Some((d, g)) => (Some(d), g),
        None => (None, false),
    };

    crate::limits::trim_heap();

    // Tasks: the user's, or generated from this catalog.
    let (tasks_path, generated) = tasks_file(s, &catalog, &lock, &out, &mut notices)?;
    let tasks = eval::load_tasks(&catalog, &tasks_path, s.eval.split)?;

    // Evaluate (resumable in <out>/run), or join the shards there; in a belt, on your tools
    // and the belt's (deterministic models also on yours alone).
    if let Some(b) = belt.as_mut() {
        belt::prepare(b, &catalog, &tasks, &s.eval.models, &s.model_options()?).await?;
    }
    let on = belt.as_ref().map_or(&catalog, |b| &b.catalog);
    let run_dir = out.run_dir();
    let mut rd = match shards {
        Some(g) => shards::join(g, &out, &tasks, &tasks_path)?,
        None => {
            let mut opts = EvalOptions {
                model: s.model_options()?,
                ..s.eval.clone()
            };
            if s.resume && run_dir.join(crate::record::files::RUN_FILE).is_file() {
                opts.resume = Some(run_dir.clone());
                opts.out = None;
            } else {
                out.clear_run()?;
                opts.incremental = incremental_base(s, gh, base.as_ref(), &mut notices);
            }
            let mut rd = eval::evaluate(on, &tasks_path, &tasks, &opts).await?;
            crate::limits::trim_heap();
            if let Some(b) = &belt {
                rd.run.belt = Some(b.info.clone());
                rd.alone = b.alone.clone();
                rd.run.curve = belt::curve(s, b, &catalog, &tasks).await?;
            }
            rd.run.ablation = crate::eval::ablation::measure(&crate::eval::ablation::Request {
                catalog: on,
                tasks: &tasks,
                models: &s.eval.models,
                alpha: s.policy.alpha,
                model: &s.model_options()?,
                when: s.ablation,
                concurrency: s.eval.concurrency,
                run_dir: Some(&rd.dir),
            })
            .await?;
            if let Some(why) = &rd.incremental_note {
                notices.push(format!(
                    "Incremental evaluation was asked for but this run went in full: {why}."
                ));
            }
            if let Some(r) = &rd.run.reused {
                notices.push(r.sentence());
            }
            rd
        }
    };
    rd.finalize(on, &tasks, &s.policy)?;
    crate::limits::trim_heap();
    crate::report::write_run_reports(&rd.dir, &rd.run)?;
    put("run_json", &rd.dir.join(crate::record::files::RUN_FILE));
    put(
        "report_html",
        &rd.dir.join(crate::record::files::REPORT_HTML),
    );
    put(
        "report_markdown",
        &rd.dir.join(crate::record::files::REPORT_MD),
    );
    let outcomes = read_outcomes(&rd.dir)?;
    let (at_risk, at_risk_total) = crate::report::ci::at_risk::collect(&outcomes, &tasks);
    let predictions = rd.predictions()?;
    // Moved, not copied: at scale the run is tens of megabytes.
    let run: RunFile = rd.run;

    // Compare with the base, then decide.
    let comparison = base
        .as_ref()
        .map(|(p, b)| baseline::compare(p, b, &run, &outcomes, &lint, &head_lock, s.policy.alpha));
    let comparable: Vec<_> = comparison
        .iter()
        .filter(|c| c.comparable)
        .flat_map(|c| c.models.iter().cloned())
        .collect();
    // Once more before the verdict: a server group that was still being ended cannot have
    // changed what the gate reads.
    crate::fsio::verify_pins()?;
    let decision = decide(
        &GateInput {
            lint: Some(&lint.summary),
            lock: Some(&lock),
            run: Some(&run),
            comparisons: &comparable,
            contract: contract.as_ref().map(|c| &c.summary),
            lint_new: lint_delta
                .as_ref()
                .filter(|_| delta_gates)
                .map(|d| (d.introduced.as_slice(), d.against.as_str())),
        },
        &s.policy,
    );
    notices.extend(decision.notices.iter().map(ToString::to_string));
    if let Some(c) = &contract {
        notices.extend(contract_notices(c, &lint.catalog_sha256));
        write_shown(
            &out.file(files::CONTRACT_JSON),
            &format!("{}\n", serde_json::to_string_pretty(c)?),
        )?;
        put("contract_json", &out.file(files::CONTRACT_JSON));
    }
    let measured = decision.exit() != Exit::CouldNotRun;

    // Files. A run that measured nothing leaves no badge and no baseline behind.
    let (run, lint) = if measured {
        // The run and the lint report go into the baseline and come back out: at scale each is
        // tens of megabytes, and the baseline is streamed (10,000 tools: 82 MB), never held
        // as one text.
        let mut baseline = Baseline::new(run, outcomes, lint, head_lock).with_decisions(
            predictions,
            &catalog,
            &tasks,
        );
        baseline.policy = Some(applied_policy(s, &catalog.source));
        baseline.write(&out.file(files::BASELINE_JSON))?;
        let Baseline {
            run,
            lint: Some(lint),
            ..
        } = baseline
        else {
            anyhow::bail!("internal error: the baseline lost the lint report");
        };
        put("baseline", &out.file(files::BASELINE_JSON));
        if let Some(p) = &s.write_baseline {
            let from = out.file(files::BASELINE_JSON);
            crate::fsio::write_atomic_with(p, &mut |w| {
                std::io::copy(&mut std::fs::File::open(&from)?, w).map(|_| ())
            })?;
            crate::elog!(
                "wrote the baseline {} (commit it to compare pull requests with it)",
                p.display()
            );
        }
        if let (Some(svg), Some(json)) = (badge::for_run(&run), badge::endpoint_json(&run)) {
            write_file(&out.file(files::BADGE_SVG), &svg)?;
            write_file(&out.file(files::BADGE_JSON), &json)?;
            put("badge", &out.file(files::BADGE_SVG));
            put("badge_json", &out.file(files::BADGE_JSON));
            if let Some(p) = &s.badge {
                write_file(p, &svg)?;
                write_file(&badge::endpoint_path(p), &json)?;
                put("badge", p);
                put("badge_json", &badge::endpoint_path(p));
            }
        }
        (run, lint)
    } else {
        if s.write_baseline.is_some() || s.badge.is_some() {
            notices.push(
                "No badge or baseline was written: this run's numbers cannot stand for the server."
                    .into(),
            );
        }
        (run, lint)
    };
    put("summary", &out.file(files::SUMMARY_MD));
    put("ci_json", &out.file(files::CI_JSON));
    put("junit", &out.file(files::JUNIT_XML));
    let ctx = gh.context();
    let mut report = CiReport {
        schema_version: ci_report::CI_SCHEMA.into(),
        toolgate_version: env!("CARGO_PKG_VERSION").into(),
        status: if measured {
            CiStatus::Ok
        } else {
            CiStatus::Errored
        },
        commit: ctx.commit,
        run_url: ctx.run_url,
        passed: decision.passed(),
        reasons: decision.wording(),
        failures: decision.reasons.clone(),
        server: catalog.source.clone(),
        catalog_sha256: lint.catalog_sha256.clone(),
        tools: catalog.tools.len(),
        total_tokens: lint.total_tokens,
        lock,
        lint: lint.summary.clone(),
        lint_fail_on: s.policy.lint_fail_on,
        fail_on_new: s.policy.fail_on_new,
        tasks: tasks_path.display().to_string(),
        tasks_generated: generated,
        run,
        comparison,
        lint_delta,
        at_risk,
        at_risk_total,
        outputs,
        notices,
        contract,
        settings: s.settings_review.clone(),
    };
    write_shown(
        &out.file(files::JUNIT_XML),
        &crate::report::junit::ci(&report, &lint, s.policy.min_tool_accuracy),
    )?;
    let full_run = crate::report::run::markdown_body(&report.run);

    // GitHub: annotations, the comment, then the summary and outputs (which report it).
    let mut comment_url = String::new();
    if gh.actions {
        let annotations = crate::report::github::annotations_folded(&lint);
        // Keep stdout pure JSON when JSON was asked for (the runner reads commands on stderr too).
        if format == Format::Json {
            crate::out::command_on_stderr(&annotations);
        } else {
            crate::out::command(&annotations);
        }
    }
    if s.comment {
        let body = crate::secrets::shown::mask_shown(&format!(
            "{}\n{}",
            comment::marker(&s.comment_id),
            ci_report::markdown(&report, &lint, &full_run)
        ));
        write_file(&out.file(files::COMMENT_MD), &body)?;
        comment_url = sinks::comment_on_pr(gh, s, &body, &mut report).await;
    }
    let summary =
        crate::secrets::shown::mask_shown(&ci_report::markdown(&report, &lint, &full_run));
    write_shown(&out.file(files::SUMMARY_MD), &summary)?;
    crate::out::write_shown_json(&out.file(files::CI_JSON), &report)?;
    if gh.actions {
        sinks::write_github(gh, &report, &summary, &comment_url)?;
    }
    match format {
        Format::Json => crate::out::println(&serde_json::to_string_pretty(&report)?),
        Format::Markdown => crate::out::print(&summary),
        _ => crate::out::print(&ci_report::terminal(&report)),
    }
    if !report.passed {
        let what = if measured {
            "gate failed"
        } else {
            "the run cannot be scored"
        };
        crate::elog!("toolgate: {what}: {}", report.reasons.join("; "));
    }
    Ok(decision.exit())
}

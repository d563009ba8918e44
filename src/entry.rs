//! The process: parse, run, map errors to a short report and an exit code (0 pass, 1 the gate
//! failed, 2 toolgate could not do its job). The binary is one call to [`main`], so the library
//! is the whole program and rustc sees which of its items nothing uses.

use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::commands::{self, Exit};
use crate::config::Config;

async fn run(cli: Cli) -> anyhow::Result<Exit> {
    let (cfg, cfg_path) = match Config::load(cli.config.as_deref()) {
        Ok(loaded) => loaded,
        Err(e) => {
            if let Command::Ci(a) = &cli.command {
                let sinks = commands::ci::Sinks::of(a);
                commands::ci::report_unparsed(&format!("{e:#}"), &sinks).await;
            }
            return Err(e);
        }
    };
    match &cli.command {
        Command::Inspect(a) => commands::inspect(a, &cfg).await,
        Command::Pin(a) => commands::pin(a, &cfg, a.check).await,
        Command::Verify(a) => commands::pin(a, &cfg, true).await,
        Command::Lint(a) => commands::lint::run(a, &cfg).await,
        Command::Generate(a) => commands::generate::run(a, &cfg).await,
        Command::Validate(a) => commands::validate::run(a, &cfg).await,
        Command::Approve(a) => commands::approve::run(a),
        Command::Run(a) => commands::run::run(a, &cfg).await,
        Command::Report(a) => commands::report::run(a),
        Command::Compare(a) => commands::compare::run(a),
        Command::Merge(a) => commands::merge::run(a),
        Command::Ci(a) => {
            commands::ci::run(a, &cfg, cfg_path.as_deref(), cli.config.is_some()).await
        }
        Command::Contract(a) => commands::contract::run(a, &cfg).await,
        Command::Init(a) => commands::init::run(a, &cfg).await,
        Command::Rule { id } => commands::rules::show(id),
        Command::Rules { write_docs } => commands::rules::list(write_docs.as_deref()),
    }
}

/// An empty `TOOLGATE_*` variable means "not set": a GitHub Action passes every input, given
/// or not, as a variable, and an empty one must not be read as an empty value.
fn drop_empty_toolgate_vars() {
    let empty: Vec<std::ffi::OsString> = std::env::vars_os()
        .filter(|(k, v)| k.to_string_lossy().starts_with("TOOLGATE_") && v.is_empty())
        .map(|(k, _)| k)
        .collect();
    for k in empty {
        // SAFETY: called first thing in main, before the runtime or any other thread starts.
        unsafe { std::env::remove_var(k) };
    }
}

/// A command line that did not parse: clap's message and exit code. For `ci`, the error also
/// replaces the sticky comment and the summary ("could not run: …"), so a bad input does not
/// leave the previous push's verdict standing.
fn parse_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let informational = matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    // What of `ci`'s arguments parses leniently says where the error goes.
    let sinks = (!informational)
        .then(|| commands::ci::Sinks::lenient(std::env::args_os()))
        .flatten();
    if let Some(sinks) = sinks {
        let text = e.render().to_string();
        let cause = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("the arguments did not parse")
            .trim_start_matches("error: ")
            .to_string();
        if let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            rt.block_on(commands::ci::report_unparsed(
                &format!("the ci arguments did not parse: {cause}"),
                &sinks,
            ));
        }
    }
    e.exit()
}

/// The first SIGINT, SIGTERM or SIGHUP.
async fn interrupted() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut int), Ok(mut term), Ok(mut hup)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = int.recv() => "SIGINT",
            _ = term.recv() => "SIGTERM",
            _ = hup.recv() => "SIGHUP",
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    }
}

/// The whole run of the `toolgate` binary.
pub fn main() -> ExitCode {
    crate::limits::tune_allocator();
    // A warden over a sandboxed server (`__toolgate-warden`) does nothing else, and never
    // returns from here.
    #[cfg(target_os = "linux")]
    crate::sandbox::warden::run_if_warden();
    #[cfg(target_os = "linux")]
    crate::sandbox::warden::die_on_sent_faults();
    // Before anything else (no thread exists yet): no process of ours or of a server we start
    // may read this process's memory or environment, and the keys leave the environment.
    if let Err(e) = crate::secrets::harden_process() {
        crate::elog!("toolgate: warning: {e}");
    }
    // SAFETY: first thing in main, before the async runtime or any other thread starts.
    unsafe { crate::secrets::take_secrets() };
    drop_empty_toolgate_vars();
    // Orphans of a server (a grandchild that left its group with setsid) come to us, and
    // are ended before we exit.
    crate::sandbox::reaper::become_subreaper();
    // SAFETY: as above, no other thread exists yet.
    unsafe { crate::models::embed::encoder::init_process_env() };
    // `ci --help` shows the common flags; `ci --help-all` every one (all parse either way).
    let words: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let parsed = crate::cli::help::command(crate::cli::help::wants_all(&words))
        .try_get_matches_from(std::env::args_os())
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return parse_error(e),
    };
    // SAFETY: still no other thread: header values leave the environment once parsed, and a
    // key given as --api-key leaves the argument block /proc/<toolgate>/cmdline shows.
    unsafe {
        crate::secrets::forget_parsed();
        crate::secrets::argv::scrub();
    }
    crate::report::style::init(cli.color);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            crate::elog!("toolgate: error: could not start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    // A signal (the runner cancelling the job) ends the run like an error, so the servers'
    // groups are ended (their guards drop) and the orphans reaped below; a panic too.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        runtime.block_on(async {
            tokio::select! {
                r = run(cli) => r,
                s = interrupted() => Err(anyhow::anyhow!("stopped by {s}")),
            }
        })
    }));
    let Ok(result) = result else {
        runtime.shutdown_timeout(std::time::Duration::from_millis(200));
        crate::sandbox::reaper::reap_all();
        return ExitCode::from(101);
    };
    // Do not wait for stray tasks (a hung server's reader) on the way out.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    crate::sandbox::reaper::reap_all();
    match result {
        Ok(exit) => ExitCode::from(exit.code()),
        Err(e) => {
            crate::elog!("toolgate: error: {e:#}");
            if let Some(help) = crate::error::help_for(&e) {
                crate::elog!("help: {help}");
            }
            ExitCode::from(2)
        }
    }
}

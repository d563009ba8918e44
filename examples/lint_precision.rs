//! Per-rule (and per-level) precision of the lint rules at warning/error level on labelled
//! corpora of real catalogs. With no paths it reports both: the tuning set
//! (fixtures/ecosystem with fixtures/lint-corpus/labels.json) and the held-out set
//! (fixtures/lint-heldout with its labels.json), which no rule was ever tuned on.
//!
//!     cargo run --example lint_precision [-- CATALOG_DIR LABELS_FILE] [--verbose] [--dump]
//!
//! `--dump` prints every finding as a JSON label stub (verdict left for the reviewer). Recall
//! is over the findings reviewers labelled right: those still reported, and those in
//! `missed.json` beside the labels that a rule change lost.

use std::path::PathBuf;
use std::process::ExitCode;

#[path = "support/precision_bench.rs"]
mod precision_bench;

use precision_bench as bench;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "--verbose");
    let dump = args.iter().any(|a| a == "--dump");
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let dir = PathBuf::from(paths.first().map_or("fixtures/ecosystem", |s| s.as_str()));
    let labels_path = PathBuf::from(
        paths
            .get(1)
            .map_or("fixtures/lint-corpus/labels.json", |s| s.as_str()),
    );
    if dump {
        let mut all = Vec::new();
        match bench::catalogs(&dir) {
            Ok(cats) => {
                for c in cats {
                    match bench::findings_of(&c) {
                        Ok(f) => {
                            all.extend(f.into_iter().filter(|s| {
                                s.severity >= toolgate::testing::lint::Severity::Warning
                            }));
                        }
                        Err(e) => {
                            eprintln!("lint_precision: {e:#}");
                            return ExitCode::from(2);
                        }
                    }
                }
            }
            Err(e) => {
                eprintln!("lint_precision: {e:#}");
                return ExitCode::from(2);
            }
        }
        println!("{}", serde_json::to_string_pretty(&all).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    if paths.is_empty() {
        // Both corpora: the one the rules were tuned on, and the held-out one nobody tuned on.
        let mut code = ExitCode::SUCCESS;
        for (name, dir, labels) in CORPORA {
            println!("== {name} ==");
            if report(&PathBuf::from(dir), &PathBuf::from(labels), verbose).is_err() {
                code = ExitCode::from(2);
            }
            println!();
        }
        return code;
    }
    match report(&dir, &labels_path, verbose) {
        Ok(()) => ExitCode::SUCCESS,
        Err(()) => ExitCode::from(2),
    }
}

/// The two corpora the bench reports by default.
const CORPORA: &[(&str, &str, &str)] = &[
    (
        "tuning set (the rules were fixed finding by finding on it)",
        "fixtures/ecosystem",
        "fixtures/lint-corpus/labels.json",
    ),
    (
        "held-out set (labelled once, never used to tune a rule)",
        "fixtures/lint-heldout",
        "fixtures/lint-heldout/labels.json",
    ),
];

fn report(dir: &std::path::Path, labels_path: &std::path::Path, verbose: bool) -> Result<(), ()> {
    let outcome = match bench::read_labels(labels_path).and_then(|l| bench::run(dir, &l)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("lint_precision: {e:#}");
            return Err(());
        }
    };
    println!(
        "{} catalogs in {}, labels {}",
        outcome.catalogs,
        dir.display(),
        labels_path.display()
    );
    // Right findings the rules no longer report (missed.json beside the labels): the
    // corpus's known recall loss.
    let missed_path = labels_path.with_file_name("missed.json");
    let mut missed: std::collections::BTreeMap<String, usize> = Default::default();
    if missed_path.exists() {
        match bench::read_labels(&missed_path) {
            Ok(l) => {
                for label in l.labels {
                    *missed.entry(label.key.code).or_default() += 1;
                }
            }
            Err(e) => {
                eprintln!("lint_precision: {e:#}");
                return Err(());
            }
        }
    }
    println!(
        "{:<7} {:>6} {:>6} {:>10} {:>9} {:>6} {:>7}",
        "rule", "right", "wrong", "unlabelled", "precision", "missed", "recall"
    );
    let (mut r, mut w) = (0, 0);
    for (code, s) in &outcome.per_rule {
        r += s.right;
        w += s.wrong;
        let m = missed.get(code).copied().unwrap_or(0);
        println!(
            "{code:<7} {:>6} {:>6} {:>10} {:>9.3} {m:>6} {:>7.3}",
            s.right,
            s.wrong,
            s.unlabelled,
            s.precision(),
            s.right as f64 / (s.right + m).max(1) as f64
        );
    }
    let all = if r + w == 0 {
        1.0
    } else {
        r as f64 / (r + w) as f64
    };
    println!(
        "{:<7} {r:>6} {w:>6} {:>10} {all:>9.3}",
        "all",
        outcome.unlabelled.len()
    );
    if verbose {
        for (seen, why) in &outcome.wrong {
            println!("wrong  {:?}: {} — {why}", seen.key, seen.message);
        }
        for seen in &outcome.unlabelled {
            println!("unlabelled {:?}: {}", seen.key, seen.message);
        }
        for key in &outcome.stale {
            println!("stale  {key:?}");
        }
    }
    // Per level: an error must be near-certain, a warning right 9 times in 10.
    println!(
        "{:<7} {:<8} {:>6} {:>6} {:>10} {:>9} {:>5}",
        "rule", "level", "right", "wrong", "unlabelled", "precision", "bar"
    );
    for ((code, level), s) in &outcome.per_level {
        let bar = if *level == toolgate::testing::lint::Severity::Error {
            0.97
        } else {
            0.9
        };
        let ok = if s.right + s.wrong == 0 {
            "-"
        } else if s.precision() >= bar {
            "ok"
        } else {
            "BELOW"
        };
        println!(
            "{code:<7} {:<8} {:>6} {:>6} {:>10} {:>9.3} {ok:>5}",
            level.as_str(),
            s.right,
            s.wrong,
            s.unlabelled,
            s.precision()
        );
    }
    if outcome.false_errors.is_empty() {
        println!("no server fails on a false error");
    } else {
        for (server, n) in &outcome.false_errors {
            println!("false error(s) fail {server}: {n}");
        }
    }
    Ok(())
}

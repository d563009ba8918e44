//! Per-rule precision of the lint rules at warning/error level on a labelled corpus of real
//! catalogs (default: fixtures/ecosystem with fixtures/lint-corpus/labels.json).
//!
//!     cargo run --example lint_precision [-- CATALOG_DIR LABELS_FILE] [--verbose] [--dump]
//!
//! `--dump` prints every finding as a JSON label stub (verdict left for the reviewer). Recall
//! is over the findings reviewers labelled right: those still reported, and those in
//! `missed.json` beside the labels that a rule change lost.

use std::path::PathBuf;
use std::process::ExitCode;

use toolgate::lint::precision_bench as bench;

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
                        Ok(f) => all.extend(
                            f.into_iter()
                                .filter(|s| s.severity >= toolgate::lint::Severity::Warning),
                        ),
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
    let outcome = match bench::read_labels(&labels_path).and_then(|l| bench::run(&dir, &l)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("lint_precision: {e:#}");
            return ExitCode::from(2);
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
                return ExitCode::from(2);
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
    ExitCode::SUCCESS
}

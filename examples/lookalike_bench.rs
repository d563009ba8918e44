//! Precision and recall of TG005 (look-alike-tools) and TG006 (missing-disambiguation) on the
//! labelled catalogs under fixtures/lookalike/ (real servers with hand labels, and the seeded
//! synthetic catalog from benches/lookalike_gen.py).
//!
//!     cargo run --example lookalike_bench [-- DIR] [--verbose] [--embed MODEL_DIR]
//!
//! With `--embed`, TG005/TG006 take the embedding cosine as a second signal (as `lint --embed`).

use std::path::PathBuf;
use std::process::ExitCode;

#[path = "support/lookalike_bench.rs"]
mod lookalike_bench;

use lookalike_bench::Score;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "--verbose");
    let embed = args
        .iter()
        .position(|a| a == "--embed")
        .and_then(|i| args.get(i + 1).cloned());
    let dir = args
        .iter()
        .enumerate()
        .find(|(i, a)| !a.starts_with("--") && (*i == 0 || args[i - 1] != "--embed"))
        .map_or_else(
            || PathBuf::from("fixtures/lookalike"),
            |(_, a)| PathBuf::from(a),
        );
    let semantic = |c: &toolgate::testing::catalog::Catalog| match &embed {
        None => Ok(None),
        Some(d) => toolgate::testing::models::embed::tool_embeddings(d, c).map(Some),
    };
    let scores = match lookalike_bench::run_with(&dir, &semantic) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("lookalike_bench: {e:#}");
            return ExitCode::from(2);
        }
    };
    println!(
        "{:<22} {:>5} | {:>4} {:>3} {:>3} {:>5} {:>5} | {:>4} {:>3} {:>3} {:>5} {:>5}",
        "catalog", "tools", "TG005", "fp", "fn", "P", "R", "TG006", "fp", "fn", "P", "R"
    );
    let (mut t5, mut t6) = (Score::default(), Score::default());
    let row = |name: &str, tools: usize, a: &Score, b: &Score| {
        println!(
            "{:<22} {:>5} | {:>5} {:>3} {:>3} {:>5.2} {:>5.2} | {:>5} {:>3} {:>3} {:>5.2} {:>5.2}",
            name,
            tools,
            a.true_pos + a.false_pos,
            a.false_pos,
            a.false_neg,
            a.precision(),
            a.recall(),
            b.true_pos + b.false_pos,
            b.false_pos,
            b.false_neg,
            b.precision(),
            b.recall()
        );
    };
    let mut tools = 0;
    let (mut h5, mut h6, mut htools) = (Score::default(), Score::default(), 0);
    for s in &scores {
        let heldout = s.path.contains("heldout");
        row(
            &format!("{}{}", if heldout { "*" } else { "" }, s.name),
            s.tools,
            &s.tg005,
            &s.tg006,
        );
        if heldout {
            h5.add(s.tg005);
            h6.add(s.tg006);
            htools += s.tools;
        } else {
            t5.add(s.tg005);
            t6.add(s.tg006);
            tools += s.tools;
        }
        if verbose {
            for (a, b) in &s.false_pairs {
                println!("    false pair: {a} ~ {b}");
            }
            for (a, b) in &s.missed_pairs {
                println!("    missed pair: {a} ~ {b}");
            }
        }
    }
    row("ALL (tuning)", tools, &t5, &t6);
    if htools > 0 {
        row("ALL (*held out)", htools, &h5, &h6);
    }
    ExitCode::SUCCESS
}

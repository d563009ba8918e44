//! Generation agrees with validation: every generated suite passes `validate`.

use super::*;

/// Issue 40: `generate` never writes a suite its own `validate` rejects: the real
/// filesystem server's `list_directory` and `list_directory_with_sizes` gave exact
/// duplicates, and two tools of one name gave duplicate ids.
#[test]
fn generated_suites_pass_validate() {
    let mut catalog = crate::catalog::snapshot::read(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/catalogs/filesystem.json"
    )))
    .unwrap();
    let twin = catalog.tools[0].clone();
    catalog.tools.push(twin);
    // Issue 41: with a held-out share, every tool with two tasks or more is in both splits.
    let g = generate(
        &catalog,
        &GenerateOptions {
            seed: 5,
            heldout: 0.3,
            ..Default::default()
        },
    );
    let mut splits: std::collections::BTreeMap<&str, std::collections::BTreeSet<bool>> =
        Default::default();
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for t in &g.tasks {
        let tool = t.expected_tool().unwrap_or("(no tool)");
        splits
            .entry(tool)
            .or_default()
            .insert(t.split == Split::Heldout);
        *counts.entry(tool).or_default() += 1;
    }
    for (tool, n) in counts {
        if n >= 2 {
            assert_eq!(splits[tool].len(), 2, "{tool}: {n} tasks, one split");
        }
    }
    for seed in 1..4 {
        let g = generate(
            &catalog,
            &GenerateOptions {
                seed,
                ..Default::default()
            },
        );
        let numbered: Vec<crate::tasks::task::Numbered> = g
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (i + 1, t.clone()))
            .collect();
        let errors: Vec<_> = crate::tasks::validate::validate(
            &catalog,
            numbered.iter().map(|(l, t)| (*l, t)),
            &[],
            0,
        )
        .into_iter()
        .filter(|p| p.severity == crate::lint::Severity::Error)
        .collect();
        assert!(errors.is_empty(), "seed {seed}: {errors:#?}");
        assert!(g.tasks.len() > 40, "{}", g.tasks.len());
    }
}

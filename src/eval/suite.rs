//! The task suite a run reads: the task file parsed once, every tool it names checked against
//! the catalog (errors name the line), and the split kept.

use std::path::Path;

use anyhow::bail;

use crate::catalog::Catalog;
use crate::tasks::{SplitArg, Task};

/// Checks that every tool a task names exists in the catalog (errors name the line).
fn check_numbered(
    catalog: &Catalog,
    path: &Path,
    numbered: &[crate::tasks::task::Numbered],
) -> anyhow::Result<()> {
    let mut errors = Vec::new();
    for (line, t) in numbered {
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

/// Reads the task file, checks it names only tools of `catalog`, and keeps `split`.
pub fn load_tasks(catalog: &Catalog, path: &Path, split: SplitArg) -> anyhow::Result<Vec<Task>> {
    // One parse: the tasks are checked against the catalog with their line numbers.
    let mut numbered = crate::tasks::task::read_numbered(path)?;
    check_numbered(catalog, path, &numbered)?;
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut all: Vec<Task> = numbered.iter().map(|(_, t)| t.clone()).collect();
    let voided = crate::tasks::review::void_if_moved(&text, &mut all);
    if voided {
        crate::elog!(
            "warning: {}: the approved tasks are not the set its `toolgate approve` header pins (a task was removed, added or edited by hand since): every approval in the file counts as void until `toolgate approve {}` is run again",
            path.display(),
            path.display()
        );
        for ((_, t), v) in numbered.iter_mut().zip(all) {
            *t = v;
        }
    }
    let stale: Vec<String> = numbered
        .iter()
        .filter(|(_, t)| t.approval() == crate::tasks::task::Approval::Stale)
        .map(|(line, t)| format!("{} (line {line})", t.id))
        .collect();
    if !stale.is_empty() && !voided {
        crate::elog!(
            "warning: {}: {} approved task(s) changed since their approval and count as unreviewed: {}; read them, then `toolgate approve {}`",
            path.display(),
            stale.len(),
            crate::text::list_some(&stale, 5),
            path.display()
        );
    }
    let mut tasks: Vec<Task> = numbered.into_iter().map(|(_, t)| t).collect();
    tasks.retain(|t| split.keeps(t.split));
    if tasks.is_empty() {
        bail!("{} has no {} tasks", path.display(), split.as_str());
    }
    Ok(tasks)
}

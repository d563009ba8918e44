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
pub(crate) fn load_tasks(
    catalog: &Catalog,
    path: &Path,
    split: SplitArg,
) -> anyhow::Result<Vec<Task>> {
    // One read and one parse: the tasks are checked against the catalog with their line
    // numbers, and the approval header is read from the same text (a 100,000-task file was
    // read twice and its tasks copied once more).
    let (numbered, pinned) = crate::tasks::task::read_numbered_pinned(path)?;
    check_numbered(catalog, path, &numbered)?;
    let (lines, mut tasks): (Vec<usize>, Vec<Task>) = numbered.into_iter().unzip();
    let voided = crate::tasks::review::void_unless_pinned(pinned.as_deref(), &mut tasks);
    if voided {
        crate::elog!(
            "warning: {}: the approved tasks are not the set its `toolgate approve` header pins (a task was removed, added or edited by hand since): every approval in the file counts as void until `toolgate approve {}` is run again",
            path.display(),
            path.display()
        );
    }
    let stale: Vec<String> = lines
        .iter()
        .zip(&tasks)
        .filter(|(_, t)| t.approval() == crate::tasks::task::Approval::Stale)
        .map(|(line, t)| format!("{} (line {line})", t.id))
        .collect();
    drop(lines);
    if !stale.is_empty() && !voided {
        crate::elog!(
            "warning: {}: {} approved task(s) changed since their approval and count as unreviewed: {}; read them, then `toolgate approve {}`",
            path.display(),
            stale.len(),
            crate::text::list_some(&stale, 5),
            path.display()
        );
    }
    tasks.retain(|t| split.keeps(t.split));
    if tasks.is_empty() {
        bail!("{} has no {} tasks", path.display(), split.as_str());
    }
    Ok(tasks)
}

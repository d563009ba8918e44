//! `toolgate approve TASKS`: a person has read the task file and stands behind it. Every
//! pending task (or the named ones) becomes `approved`; a suite with no pending task gives a
//! headline accuracy, a threshold gate and a coloured badge (a generated one is a smoke test).

use anyhow::bail;

use crate::cli::ApproveArgs;
use crate::gate::Exit;
use crate::tasks::task::{Approval, Review, read_numbered, suite_hash, write_tasks_after};

pub(crate) fn run(args: &ApproveArgs) -> anyhow::Result<Exit> {
    let numbered = read_numbered(&args.tasks)?;
    let mut tasks: Vec<_> = numbered.into_iter().map(|(_, t)| t).collect();
    // Approvals a moved header voided are not carried over: approving some tasks must not
    // re-pin the rest unread.
    let text = std::fs::read_to_string(&args.tasks).unwrap_or_default();
    if crate::tasks::review::void_if_moved(&text, &mut tasks) {
        crate::out::println(&format!(
            "the approved tasks of {} are not the set its header pins (a task was removed or added by hand): every earlier approval is void",
            args.tasks.display()
        ));
    }
    for id in &args.only {
        if !tasks.iter().any(|t| &t.id == id) {
            bail!(
                "--only {id}: {} has no task with that id",
                args.tasks.display()
            );
        }
    }
    let mut approved = 0;
    let mut restamped = Vec::new();
    for t in tasks
        .iter_mut()
        .filter(|t| args.only.is_empty() || args.only.contains(&t.id))
    {
        match t.approval() {
            Approval::Reviewed if t.review.is_none() => continue, // hand-written: nothing to stamp
            Approval::Reviewed => {}
            Approval::Pending => approved += 1,
            Approval::Stale => {
                approved += 1;
                restamped.push(t.id.clone());
            }
        }
        // The stamp pins the task as it reads now: an edit afterwards makes it unreviewed.
        t.review = Some(Review::Approved {
            stamp: Some(t.stamp()),
        });
    }
    // The header pins the approved set, so a task removed or added by hand later is seen.
    let header = crate::tasks::review::header_line(&tasks);
    write_tasks_after(&args.tasks, &tasks, Some(&header))?;
    if !restamped.is_empty() {
        crate::out::println(&format!(
            "re-approved {} task(s) edited since their approval: {}",
            restamped.len(),
            crate::text::list_some(&restamped, 10)
        ));
    }
    let pending = tasks.iter().filter(|t| !t.reviewed()).count();
    crate::out::println(&format!(
        "approved {approved} task(s) in {}; {pending} still pending; suite sha256 {}",
        args.tasks.display(),
        suite_hash(&tasks)
    ));
    if pending == 0 {
        crate::out::println(
            "the suite is reviewed: its runs give a headline accuracy, a threshold gate and a coloured badge. Commit the file.",
        );
    }
    Ok(Exit::Pass)
}

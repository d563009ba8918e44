//! `toolgate validate SERVER -t tasks.jsonl`.

use crate::adapt::load_catalog;
use crate::cli::ValidateArgs;
use crate::config::Config;
use crate::gate::Exit;
use crate::lint::Severity;
use crate::tasks::{parse_tasks, validate::validate};

pub(crate) async fn run(args: &ValidateArgs, cfg: &Config) -> anyhow::Result<Exit> {
    let catalog = load_catalog(&args.server, cfg).await?;
    let (tasks, malformed) = parse_tasks(&args.tasks)?;
    let problems = validate(
        &catalog,
        tasks.iter().map(|(l, t)| (*l, t)),
        &malformed,
        args.min_per_tool,
    );
    let errors = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .count();
    let warnings = problems.len() - errors;
    if args.json {
        crate::out::println(
            &serde_json::to_string_pretty(&serde_json::json!({
                "schema_version": "toolgate.validate/v1",
                "tasks": tasks.len(),
                "errors": errors,
                "warnings": warnings,
                "problems": problems,
            }))?
            .to_string(),
        );
    } else {
        let file = args.tasks.display();
        for p in &problems {
            let at = if p.line == 0 {
                file.to_string()
            } else {
                format!("{file}:{}", p.line)
            };
            let id =
                p.id.as_deref()
                    .map(|i| format!(" [{i}]"))
                    .unwrap_or_default();
            crate::out::println(&format!("{at}: {}{id}: {}", p.severity, p.message));
        }
        crate::out::println(&format!(
            "{} task(s) checked: {errors} error(s), {warnings} warning(s)",
            tasks.len()
        ));
    }
    if tasks.is_empty() && malformed.is_empty() {
        anyhow::bail!("{} has no tasks", args.tasks.display());
    }
    // Already said above, line by line: the exit is the gate's.
    Ok(crate::gate::validation(errors).exit())
}

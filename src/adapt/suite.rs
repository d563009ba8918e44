//! Writing a generated suite for the commands that make one (`generate`, `init`): the tasks,
//! what could not be generated, and how to approve them, said on stderr.

use anyhow::bail;

use crate::tasks::template::{GenerateOptions, generate};
use crate::tasks::write_tasks;

/// Generates a suite with `generator` (an LLM spec; `None`: templates), writes it to
/// `output` marked pending review, and says on stderr what it wrote, what it could not, and
/// how to approve it.
pub(crate) async fn write_suite(
    catalog: &crate::catalog::Catalog,
    opts: &GenerateOptions,
    generator: Option<&str>,
    model_opts: &crate::models::ModelOptions,
    output: &std::path::Path,
) -> anyhow::Result<()> {
    let out = match generator {
        None => generate(catalog, opts),
        Some(spec) => {
            let writer = crate::models::build_llm(spec, catalog, model_opts)?;
            crate::tasks::writer::generate(catalog, opts, &writer, spec).await
        }
    };
    let warned = out.tasks.iter().filter(|t| !t.warnings.is_empty()).count();
    if warned > 0 {
        crate::elog!(
            "{warned} task(s) kept with warnings after {} rewrites (see their `warnings` field)",
            crate::tasks::writer::MAX_REWRITES
        );
    }
    if out.tasks.is_empty() {
        bail!(
            "no tasks could be generated from {} (see the tools listed above)",
            catalog.source
        );
    }
    write_tasks(output, &out.tasks)?;
    let count = |k: crate::tasks::Kind| out.tasks.iter().filter(|t| t.kind == k).count();
    crate::elog!(
        "wrote {} tasks to {} ({} direct, {} near_miss, {} no_tool; seed {}).{}",
        out.tasks.len(),
        output.display(),
        count(crate::tasks::Kind::Direct),
        count(crate::tasks::Kind::NearMiss),
        count(crate::tasks::Kind::NoTool),
        opts.seed,
        if generator.is_none() {
            " Template tasks are a smoke test, not a confusion measure."
        } else {
            ""
        }
    );
    if !out.unsampleable.is_empty() {
        crate::elog!(
            "{} tool(s) could not be sampled and have no tasks:",
            out.unsampleable.len()
        );
        for (tool, reason) in &out.unsampleable {
            crate::elog!("  {tool}: {reason}");
        }
    }
    if !out.unphrased.is_empty() {
        crate::elog!(
            "{} tool(s) have no template tasks: a template cannot ask for them without echoing the name (write tasks for them, or use --generator):",
            out.unphrased.len()
        );
        for (tool, reason) in &out.unphrased {
            crate::elog!("  {tool}: {reason}");
        }
    }
    if !out.rejected.is_empty() {
        crate::elog!("{} request(s) were dropped:", out.rejected.len());
        for (id, reason) in &out.rejected {
            crate::elog!("  {id}: {reason}");
        }
    }
    crate::elog!(
        "The tasks are pending review: until a person approves them a run on this file is a smoke test (no headline accuracy, no threshold gate, a grey badge). Read them, fix or drop what is wrong, then `toolgate approve {}`.",
        output.display()
    );
    Ok(())
}

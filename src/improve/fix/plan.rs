//! What the fix loop works on: the dev tasks, the tools that could show a change at all (a
//! tool whose dev tasks could not, even if every one flipped, costs nothing), the tools that
//! fail on the baseline (most failures first), and which of them get a proposal.

use std::collections::BTreeMap;

use anyhow::bail;

use super::types::{Failing, tasks_for};
use crate::catalog::Catalog;
use crate::improve::ImproveOptions;
use crate::record::scores::{Outcome, OutcomeLine};
use crate::tasks::{Split, Task};

/// The dev tasks and how many proposals the correction counts.
pub(super) struct Plan {
    pub(super) dev: Vec<Task>,
    /// Proposals the Bonferroni correction is planned for.
    m: usize,
    alpha: f64,
}

impl Plan {
    /// The plan, or an error when nothing could be shown: no dev tasks, a named tool the
    /// server lacks, or no tool with enough dev tasks.
    pub(super) fn new(
        args: &ImproveOptions,
        catalog: &Catalog,
        tasks: &[Task],
    ) -> anyhow::Result<Plan> {
        let dev: Vec<Task> = tasks
            .iter()
            .filter(|t| t.split == Split::Dev)
            .cloned()
            .collect();
        if dev.is_empty() {
            bail!("--fix measures on the dev split, and the task file has no dev tasks");
        }
        let m = if args.fix_tools.is_empty() {
            args.fix_max.max(1)
        } else {
            args.fix_tools.len()
        };
        let plan = Plan {
            dev,
            m,
            alpha: args.alpha,
        };
        let candidates: Vec<&str> = if args.fix_tools.is_empty() {
            catalog.tools.iter().map(|t| t.name()).collect()
        } else {
            args.fix_tools.iter().map(String::as_str).collect()
        };
        if let Some(missing) = candidates.iter().find(|t| catalog.tool(t).is_none()) {
            bail!("--fix-tool {missing}: the server has no such tool")
        }
        if candidates.iter().all(|t| plan.too_small(t).is_some()) {
            let need = crate::improve::tasks_needed(m, args.alpha);
            bail!(
                "--fix: no tool has the {need} dev task(s) (expecting it or luring toward it) a rewrite needs to be shown better after correcting for {m} proposal(s); nothing was run. Add tasks (`toolgate generate --only TOOL`) or name fewer tools with --fix-tool"
            );
        }
        Ok(plan)
    }

    /// Why `tool`'s dev tasks could not show a change, if they could not.
    pub(super) fn too_small(&self, tool: &str) -> Option<String> {
        let n = tasks_for(&self.dev, tool, Split::Dev).len();
        crate::improve::too_small_note(tool, n, self.m, self.alpha)
    }

    /// How each expected tool failed on the baseline's outcomes.
    pub(super) fn failures(&self, base: &[OutcomeLine]) -> BTreeMap<String, Failing> {
        let mut failures: BTreeMap<String, Failing> = BTreeMap::new();
        for o in base {
            if let Some(exp) = &o.expected
                && o.outcome != Outcome::Correct
            {
                let e = failures.entry(exp.clone()).or_default();
                e.count += 1;
                if let Some(c) = &o.called {
                    e.chosen.push(c.clone());
                }
                if let Some(t) = self.dev.iter().find(|t| t.id == o.task_id)
                    && e.examples.len() < 3
                {
                    e.examples.push(t.request.clone());
                }
            }
        }
        failures
    }

    /// The tools that get a proposal: those named with --fix-tool, else the most failing ones
    /// whose dev tasks could show a change (at most --fix-max).
    pub(super) fn choose(
        &self,
        args: &ImproveOptions,
        failures: &BTreeMap<String, Failing>,
    ) -> Vec<String> {
        if !args.fix_tools.is_empty() {
            return args.fix_tools.clone();
        }
        let mut order: Vec<(&String, &Failing)> = failures.iter().collect();
        order.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(b.0)));
        order
            .iter()
            .filter(|(t, _)| self.too_small(t).is_none())
            .take(args.fix_max)
            .map(|(t, _)| (*t).clone())
            .collect()
    }
}

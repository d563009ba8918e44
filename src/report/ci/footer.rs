//! The comment's and summary's last line: what was measured, on what, against which base,
//! and what the headline number means.

use super::CiReport;
use super::cells::provenance;
use crate::catalog::canonical::short_hash as short;
use crate::report::markdown::code;

pub(super) fn footer(r: &CiReport, out: &mut String) {
    let models: Vec<String> = r
        .run
        .models
        .iter()
        .map(|m| {
            if m.deterministic {
                code(&m.spec)
            } else {
                format!("{} ×{} trials", code(&m.spec), m.trials)
            }
        })
        .collect();
    let mut base = String::new();
    if let Some(c) = &r.comparison {
        base = format!(
            " · base {} (catalog {}…, suite {}…)",
            code(&c.base.display().to_string()),
            short(&c.base_catalog_sha256),
            short(&c.base_suite_sha256)
        );
    }
    let routers = r
        .run
        .results
        .iter()
        .filter(|m| crate::record::metric::is_router(&m.model))
        .count();
    let defined = match (routers, r.run.results.len() - routers) {
        (0, _) => {
            "tool accuracy = share of tasks where the model called the intended tool (or rightly none)"
        }
        (_, 0) => {
            "findability@1 = share of tasks whose intended tool a search over the definitions puts first (or that match no tool when none fits)"
        }
        _ => {
            "tool accuracy (models) = share of tasks where the model called the intended tool (or rightly none); findability@1 (searches) = share whose intended tool the search puts first"
        }
    };
    out.push_str(&format!(
        "\n<sub>toolgate {} · {} · catalog sha256 {}… · {} tasks from {}{} (suite sha256 {}…) · {}{}{} · {defined}, 95% Wilson intervals; changes use exact paired McNemar tests, Bonferroni-corrected.</sub>\n",
        r.toolgate_version,
        code(&r.server),
        short(&r.catalog_sha256),
        r.run.suite.tasks,
        code(&r.tasks),
        if r.tasks_generated {
            ", generated on the fly (a smoke suite)"
        } else if !r.run.suite.reviewed() {
            ", not yet approved (a smoke suite)"
        } else {
            ""
        },
        short(&r.run.suite.sha256),
        models.join(", "),
        base,
        provenance(r.commit.as_deref(), r.run_url.as_deref())
    ));
}

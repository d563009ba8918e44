//! What a baseline remembers of each task, for an incremental run to decide what to re-run:
//! the task's content hash and its closest tools by BM25.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalog::Catalog;
use crate::models::bm25::Bm25;
use crate::tasks::Task;

/// How many BM25 neighbours of a task are compared.
pub(crate) const NEIGHBOURS: usize = 5;

/// What a baseline remembers of a task: its content hash and its closest tools.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TaskMark {
    pub sha256: String,
    pub neighbours: Vec<String>,
}

/// The content hash of one task.
pub(crate) fn task_sha(task: &Task) -> String {
    let v = serde_json::to_value(task).unwrap_or_default();
    crate::catalog::canonical::sha256_hex(&crate::catalog::canonical::to_canonical_string(&v))
}

/// Marks for every task of `tasks` against `catalog`.
pub(crate) fn marks(catalog: &Catalog, tasks: &[Task]) -> BTreeMap<String, TaskMark> {
    let router = Bm25::new(catalog, 0.0);
    tasks
        .iter()
        .map(|t| {
            // `top` touches only the request's postings and returns NEIGHBOURS entries: a full
            // ranking collected in place would keep a catalog-sized allocation per task.
            let neighbours: Vec<String> = router
                .top(&t.request, NEIGHBOURS)
                .into_iter()
                .filter(|(_, s)| *s > 0.0)
                .map(|(n, _)| n.to_string())
                .collect();
            debug_assert!(neighbours.capacity() <= NEIGHBOURS);
            (
                t.id.clone(),
                TaskMark {
                    sha256: task_sha(t),
                    neighbours,
                },
            )
        })
        .collect()
}

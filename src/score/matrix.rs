//! The confusion matrix as shown: large catalogs fold the tools with the least off-diagonal
//! mass into `(other tools)`.

use std::collections::BTreeMap;

use super::metrics::{ERROR, MatrixView, Metrics, NONE, OTHER};

impl Metrics {
    /// The confusion matrix to show: every label when there are at most `max` tools, else the
    /// `max` tools with the most off-diagonal mass, the rest folded into `(other tools)`.
    /// Rows and columns: the chosen labels, then `(other tools)` if any, `(no call)`, and
    /// `(error)` when there were errors.
    pub(crate) fn matrix_view(&self, max: usize) -> MatrixView {
        let tools: Vec<&String> = self.labels.iter().filter(|l| l.as_str() != NONE).collect();
        let keep: std::collections::BTreeSet<String> = if tools.len() <= max {
            tools.iter().map(|t| (*t).clone()).collect()
        } else {
            let mut mass: BTreeMap<&str, u64> = BTreeMap::new();
            for (row, cols) in &self.confusion {
                for (col, n) in cols {
                    if row != col {
                        *mass.entry(row.as_str()).or_default() += n;
                        *mass.entry(col.as_str()).or_default() += n;
                    }
                }
            }
            let mut ranked: Vec<&String> = tools.clone();
            ranked.sort_by(|a, b| {
                mass.get(b.as_str())
                    .unwrap_or(&0)
                    .cmp(mass.get(a.as_str()).unwrap_or(&0))
                    .then(a.cmp(b))
            });
            ranked.into_iter().take(max).cloned().collect()
        };
        let fold = |l: &str| -> String {
            if l == NONE || l == ERROR || keep.contains(l) {
                l.to_string()
            } else {
                OTHER.to_string()
            }
        };
        let mut cells: BTreeMap<(String, String), u64> = BTreeMap::new();
        for (row, cols) in &self.confusion {
            for (col, n) in cols {
                *cells.entry((fold(row), fold(col))).or_default() += n;
            }
        }
        let mut rows: Vec<String> = self
            .labels
            .iter()
            .filter(|l| keep.contains(*l))
            .cloned()
            .collect();
        if tools.len() > keep.len() {
            rows.push(OTHER.into());
        }
        rows.push(NONE.into());
        let mut cols = rows.clone();
        if cells.keys().any(|(_, c)| c == ERROR) {
            cols.push(ERROR.into());
        }
        (rows, cols, cells)
    }
}

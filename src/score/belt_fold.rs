//! A belt run's metrics as reports show them: the belt's tools (hundreds of them) folded into
//! one row and column per belt server (`github/*`) in the confusion matrix and the per-tool
//! table, and named `server/tool` in the most-confused pairs. Your tools stay as they are.

use std::collections::BTreeMap;

use super::Rate;
use super::belt::{server_label, tool_label};
use super::metrics::{Metrics, NONE, ToolMetrics};
use crate::catalog::belt::combine::Origin;

/// Folds the belt's tools of `m` (those in `origin`) by server. Servers that received no call
/// get no row: the belt section lists every server.
pub(crate) fn fold(m: &mut Metrics, origin: &BTreeMap<String, Origin>) {
    let label = |name: &str| -> String {
        origin
            .get(name)
            .map(|o| server_label(&o.server))
            .unwrap_or_else(|| name.to_string())
    };
    let mut confusion: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    for (row, cols) in std::mem::take(&mut m.confusion) {
        let r = confusion.entry(label(&row)).or_default();
        for (col, n) in cols {
            *r.entry(label(&col)).or_default() += n;
        }
    }
    m.confusion = confusion;
    // Per server, in the order their tools first appear in the catalog.
    let mut servers: Vec<(String, u64, u64)> = Vec::new();
    let mut own: Vec<ToolMetrics> = Vec::new();
    for t in std::mem::take(&mut m.per_tool) {
        match origin.get(&t.tool) {
            None => own.push(t),
            Some(o) => {
                let l = server_label(&o.server);
                match servers.iter_mut().find(|s| s.0 == l) {
                    Some(s) => {
                        s.1 += t.precision.k;
                        s.2 += t.precision.n;
                    }
                    None => servers.push((l, t.precision.k, t.precision.n)),
                }
            }
        }
    }
    servers.retain(|s| s.2 > 0);
    let mut labels: Vec<String> = m
        .labels
        .iter()
        .filter(|l| l.as_str() != NONE && !origin.contains_key(l.as_str()))
        .cloned()
        .collect();
    labels.extend(servers.iter().map(|s| s.0.clone()));
    labels.push(NONE.into());
    m.labels = labels;
    own.extend(servers.into_iter().map(|(tool, k, n)| ToolMetrics {
        tool,
        support: 0,
        precision: Rate::new(k, n),
        ..Default::default()
    }));
    m.per_tool = own;
    let named = |name: &str| -> String {
        origin
            .get(name)
            .map(tool_label)
            .unwrap_or_else(|| name.to_string())
    };
    for p in &mut m.most_confused {
        p.called = named(&p.called);
        p.expected = named(&p.expected);
    }
    for p in &mut m.preconditions {
        p.before = named(&p.before);
        p.tool = named(&p.tool);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::metrics::ConfusedPair;

    #[test]
    fn belt_tools_fold_into_one_row_and_column_per_server() {
        let origin: BTreeMap<String, Origin> = [
            ("gh__a", "gh", "a"),
            ("gh__b", "gh", "b"),
            ("fs__r", "fs", "r"),
        ]
        .into_iter()
        .map(|(n, s, t)| {
            (
                n.to_string(),
                Origin {
                    server: s.into(),
                    tool: t.into(),
                },
            )
        })
        .collect();
        let tool = |t: &str, k: u64, n: u64| ToolMetrics {
            tool: t.into(),
            precision: Rate::new(k, n),
            ..Default::default()
        };
        let mut m = Metrics {
            labels: ["mine", "gh__a", "gh__b", "fs__r", NONE]
                .map(String::from)
                .to_vec(),
            per_tool: vec![
                tool("mine", 3, 4),
                tool("gh__a", 0, 2),
                tool("gh__b", 0, 1),
                tool("fs__r", 0, 0),
            ],
            most_confused: vec![ConfusedPair {
                expected: "mine".into(),
                called: "gh__b".into(),
                count: 1,
                examples: vec![],
            }],
            ..Default::default()
        };
        m.confusion.insert(
            "mine".into(),
            [("mine", 3), ("gh__a", 2), ("gh__b", 1)]
                .map(|(k, v)| (k.to_string(), v))
                .into(),
        );
        fold(&mut m, &origin);
        assert_eq!(m.labels, ["mine", "gh/*", NONE]);
        assert_eq!(m.confusion["mine"]["gh/*"], 3);
        assert_eq!(m.confusion["mine"]["mine"], 3);
        let tools: Vec<(&str, u64)> = m
            .per_tool
            .iter()
            .map(|t| (t.tool.as_str(), t.precision.n))
            .collect();
        assert_eq!(tools, [("mine", 4), ("gh/*", 3)]);
        assert_eq!(m.most_confused[0].called, "gh/b");
        let (rows, cols, cells) = m.matrix_view(30);
        assert_eq!(rows, ["mine", "gh/*", NONE]);
        assert_eq!(cols, rows);
        assert_eq!(cells[&("mine".to_string(), "gh/*".to_string())], 3);
    }
}

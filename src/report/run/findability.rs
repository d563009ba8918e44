//! Findability per tool, for ranking models (a host's tool search emulated with `toolsearch`,
//! BM25, embeddings): how many of each tool's tasks find it within the top 1, 3 and 5 results.
//! A host that shows the model only a search's top few hides a tool that ranks low, however
//! good its description reads once found; the least findable tools come first.

use crate::report::escape::esc;
use crate::report::markdown::code;
use crate::score::Metrics;
use crate::score::retrieval::RetrievalScores;

/// Tools listed (the least findable); the rest are counted.
const SHOWN: usize = 30;
/// The cut-offs shown per tool.
const KS: [usize; 3] = [1, 3, 5];

fn cell(s: &RetrievalScores, k: usize) -> String {
    s.recall
        .get(&k)
        .map(|r| format!("{}/{}", r.k, r.n))
        .unwrap_or_else(|| "–".into())
}

/// One row's numbers: found@1, found@3, found@5 and MRR@10.
fn numbers(s: &RetrievalScores) -> [String; 4] {
    [
        cell(s, KS[0]),
        cell(s, KS[1]),
        cell(s, KS[2]),
        format!("{:.2}", s.mrr.value),
    ]
}

/// The tools with tasks to find them, least findable first (found@3, then @5, then @1, then
/// by name), with how many more there are.
fn rows(m: &Metrics) -> Option<(Vec<(&String, &RetrievalScores)>, usize)> {
    let r = m.retrieval.as_ref()?;
    let mut rows: Vec<(&String, &RetrievalScores)> = r.per_tool.iter().collect();
    if rows.is_empty() {
        return None;
    }
    let at = |s: &RetrievalScores, k: usize| s.recall.get(&k).map(|r| r.value).unwrap_or(0.0);
    rows.sort_by(|a, b| {
        at(a.1, 3)
            .total_cmp(&at(b.1, 3))
            .then(at(a.1, 5).total_cmp(&at(b.1, 5)))
            .then(at(a.1, 1).total_cmp(&at(b.1, 1)))
            .then(a.0.cmp(b.0))
    });
    let more = rows.len().saturating_sub(SHOWN);
    rows.truncate(SHOWN);
    Some((rows, more))
}

const ABOUT: &str =
    "tasks whose expected tool is in the ranking's top 1, 3 and 5, least findable first";

/// The Markdown table ("" for a model that ranks nothing).
pub(crate) fn markdown(m: &Metrics) -> String {
    let Some((rows, more)) = rows(m) else {
        return String::new();
    };
    let mut out = format!(
        "\n**Findability per tool** ({ABOUT})\n\n| tool | found@1 | found@3 | found@5 | MRR@10 |\n|---|---:|---:|---:|---:|\n"
    );
    for (tool, s) in rows {
        out.push_str(&format!(
            "| {} | {} |\n",
            code(tool),
            numbers(s).join(" | ")
        ));
    }
    if more > 0 {
        out.push_str(&format!("\n…and {more} more tools, found more often.\n"));
    }
    out
}

/// The HTML table ("" for a model that ranks nothing).
pub(crate) fn html(m: &Metrics) -> String {
    let Some((rows, more)) = rows(m) else {
        return String::new();
    };
    let mut out = format!(
        "<h3>Findability per tool</h3><p class=muted>{}</p><table><thead><tr><th>tool</th><th>found@1</th><th>found@3</th><th>found@5</th><th>MRR@10</th></tr></thead><tbody>",
        esc(ABOUT)
    );
    for (tool, s) in rows {
        let cells: String = numbers(s)
            .iter()
            .map(|n| format!("<td class=num>{n}</td>"))
            .collect();
        out.push_str(&format!(
            "<tr><td><code>{}</code></td>{cells}</tr>",
            esc(tool)
        ));
    }
    out.push_str("</tbody></table>");
    if more > 0 {
        out.push_str(&format!(
            "<p class=muted>…and {more} more tools, found more often.</p>"
        ));
    }
    out
}

/// One terminal line naming the least findable tools ("" when every tool is found at 3).
pub(crate) fn terminal(m: &Metrics) -> String {
    let Some((rows, _)) = rows(m) else {
        return String::new();
    };
    let hidden: Vec<String> = rows
        .iter()
        .filter(|(_, s)| s.recall.get(&3).is_some_and(|r| r.k < r.n))
        .take(5)
        .map(|(t, s)| {
            let name = crate::report::terminal::plain(t).replace(['\n', '\t'], " ");
            format!("{name} {}", cell(s, 3))
        })
        .collect();
    if hidden.is_empty() {
        return String::new();
    }
    format!("least findable@3   {}\n", hidden.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Rate;
    use crate::score::retrieval::{Mean, Retrieval};

    fn scores(found: [(u64, u64); 3]) -> RetrievalScores {
        RetrievalScores {
            recall: KS
                .iter()
                .zip(found)
                .map(|(&k, (h, n))| (k, Rate::new(h, n)))
                .collect(),
            mrr: Mean::of(&[0.5]),
            ndcg: Mean::of(&[0.5]),
        }
    }

    #[test]
    fn least_findable_first_and_escaped() {
        let mut m = Metrics::default();
        assert_eq!(markdown(&m), "");
        let mut r = Retrieval::default();
        r.per_tool
            .insert("easy".into(), scores([(4, 4), (4, 4), (4, 4)]));
        r.per_tool
            .insert("<b>hidden</b>".into(), scores([(0, 5), (1, 5), (2, 5)]));
        r.per_tool
            .insert("middle".into(), scores([(1, 4), (3, 4), (4, 4)]));
        m.retrieval = Some(r);
        let md = markdown(&m);
        let (h, mid, e) = (
            md.find("hidden").unwrap(),
            md.find("middle").unwrap(),
            md.find("easy").unwrap(),
        );
        assert!(h < mid && mid < e, "{md}");
        assert!(md.contains("| 0/5 | 1/5 | 2/5 | 0.50 |"), "{md}");
        let page = html(&m);
        assert!(page.contains("&lt;b&gt;hidden") && !page.contains("<b>hidden"));
        let line = terminal(&m);
        assert!(line.contains("1/5") && line.contains("middle 3/4") && !line.contains("easy"));
    }
}

/// The results a search of `spec` shows a model: `toolsearch…:k` and `toolsearch-codex:k` as
/// written (5 and 8 by default), 3 for the other searches (hosts that defer tools show 3–5);
/// rounded down to a cut-off the retrieval metrics keep.
fn shown_k(spec: &str) -> usize {
    let parts = crate::record::model::parse(spec);
    let k = match parts.router().and_then(|r| r.default_k()) {
        Some(default) => parts.rest.parse().unwrap_or(default),
        None => 3,
    };
    crate::score::retrieval::CUTOFFS
        .iter()
        .copied()
        .filter(|c| *c <= k)
        .max()
        .unwrap_or(1)
}

/// For the comment: the tools a search of `spec` finds in its top k for fewer than half of
/// their requests, least findable first ("" when none, or for a model that ranks nothing).
pub(crate) fn hard_to_find(spec: &str, m: &Metrics) -> String {
    let Some(r) = m.retrieval.as_ref() else {
        return String::new();
    };
    let k = shown_k(spec);
    let mut hard: Vec<(&String, &crate::score::Rate)> = r
        .per_tool
        .iter()
        .filter_map(|(t, s)| s.recall.get(&k).map(|rate| (t, rate)))
        .filter(|(_, rate)| rate.n > 0 && rate.value < 0.5)
        .collect();
    if hard.is_empty() {
        return String::new();
    }
    hard.sort_by(|a, b| a.1.value.total_cmp(&b.1.value).then(a.0.cmp(b.0)));
    let total = hard.len();
    let shown: Vec<String> = hard
        .iter()
        .take(8)
        .map(|(t, rate)| format!("{} {}/{}", code(t), rate.k, rate.n))
        .collect();
    let more = if total > 8 {
        format!(" and {} more", total - 8)
    } else {
        String::new()
    };
    format!(
        "**Hard to find** with {} (in its top {k} for fewer than half of their requests): {}{more}.\n\n",
        code(spec),
        shown.join(", ")
    )
}

#[cfg(test)]
mod hard_tests {
    #[test]
    fn a_profiles_k_is_its_own() {
        assert_eq!(super::shown_k("toolsearch:3"), 3);
        assert_eq!(super::shown_k("toolsearch-codex:8"), 5);
        assert_eq!(super::shown_k("toolsearch-codex"), 5);
        assert_eq!(super::shown_k("toolsearch:10"), 10);
        assert_eq!(super::shown_k("bm25:3"), 3);
    }
}

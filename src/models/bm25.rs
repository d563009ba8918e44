//! The offline BM25 router: a lexical baseline that needs no key, no GPU and no network.
//!
//! Each tool is a document made of its name (split on `_ - .` and camelCase, counted three
//! times: names carry the most signal), its description, and its parameters' names and
//! descriptions. Words are lower-cased, stop words dropped, and stemmed (Snowball English).
//! A request is scored against every tool with Okapi BM25 (`k1` = 1.2, `b` = 0.75); the best
//! tool is called when its score reaches `min_score`, otherwise the router abstains (calls no
//! tool). Ties go to the tool listed first by name, so runs are deterministic.
//!
//! The threshold means the same on every catalog: IDF is computed as if the catalog had
//! [`PRIOR_DOCS`] more tools that share none of its words, so a one-tool catalog (where plain
//! BM25's IDF collapses to ~0.3 and nothing ever reaches a fixed score) and a 500-tool one give
//! a matched distinctive word about the same weight (2–3). The default 3.0 asks for a bit more
//! than one distinctive word matched once.
//!
//! Spec: `bm25` (min_score 3.0) or `bm25:<min_score>`. It never gives arguments. It is a
//! lexical router: a reproducible proxy for a model, not a model.

use std::collections::HashMap;

use anyhow::Context as _;

use super::{BoxFuture, Decision, Model};
use crate::catalog::{Catalog, Tool};
use crate::text;

pub(crate) const DEFAULT_MIN_SCORE: f64 = 3.0;
/// Background tools (sharing no words with the catalog) added to IDF's document count.
pub(crate) const PRIOR_DOCS: f64 = 10.0;
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// How many times a tool's name words count in its document.
const NAME_BOOST: usize = 3;

/// A (tool index, score) kept by [`Bm25::top`]'s heap, ordered so the heap's top is the worst
/// kept: the lower score, then the later name.
struct Ranked<'a>((usize, f64), &'a [String]);

impl PartialEq for Ranked<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for Ranked<'_> {}

impl PartialOrd for Ranked<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked<'_> {
    /// Greater = worse: a lower score, or the same score and a later name.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .0
            .1
            .total_cmp(&self.0.1)
            .then_with(|| self.1[self.0.0].cmp(&other.1[other.0.0]))
    }
}

pub(crate) struct Bm25 {
    min_score: f64,
    names: Vec<String>,
    /// term → (tool index, term frequency) for every tool containing it, with the term's IDF.
    postings: HashMap<String, (f64, Vec<(usize, f64)>)>,
    /// Per tool: the length normaliser `k1 · (1 − b + b · len / avg_len)`.
    norms: Vec<f64>,
    /// The tool listed first by name (ties' winner when no tool scores), if any.
    first_by_name: Option<usize>,
}

/// Stemmed content terms of a text.
pub(crate) fn terms(s: &str) -> Vec<String> {
    text::words(s)
        .into_iter()
        .filter(|w| !text::is_stop(w))
        .map(|w| text::stem(&w))
        .collect()
}

/// The words of a tool's document.
pub(crate) fn document(tool: &Tool) -> Vec<String> {
    let mut out = Vec::new();
    let name: Vec<String> = text::name_words(tool.name())
        .into_iter()
        .filter(|w| !text::is_stop(w))
        .map(|w| text::stem(&w))
        .collect();
    for _ in 0..NAME_BOOST {
        out.extend(name.iter().cloned());
    }
    out.extend(terms(tool.description().unwrap_or("")));
    for (pname, schema) in tool.params() {
        out.extend(
            text::name_words(pname)
                .iter()
                .filter(|w| !text::is_stop(w))
                .map(|w| text::stem(w)),
        );
        if let Some(d) = schema.get("description").and_then(|d| d.as_str()) {
            out.extend(terms(d));
        }
    }
    out
}

impl Bm25 {
    pub(crate) fn from_spec(rest: &str, catalog: &Catalog) -> anyhow::Result<Self> {
        let min_score = if rest.is_empty() {
            DEFAULT_MIN_SCORE
        } else {
            rest.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .with_context(|| format!("bm25:{rest}: the minimum score must be a number ≥ 0"))?
        };
        Ok(Self::new(catalog, min_score))
    }

    pub(crate) fn new(catalog: &Catalog, min_score: f64) -> Self {
        Self::over(
            catalog
                .tools
                .iter()
                .map(|t| (t.name().to_string(), document(t))),
            min_score,
        )
    }

    /// A BM25 index over given documents (a tool's name and its words), for routers that
    /// index other fields than [`document`]'s (the tool-search emulation).
    pub(crate) fn over(
        docs: impl IntoIterator<Item = (String, Vec<String>)>,
        min_score: f64,
    ) -> Self {
        let mut names = Vec::new();
        let mut lengths = Vec::new();
        let mut postings: HashMap<String, (f64, Vec<(usize, f64)>)> = HashMap::new();
        for (i, (name, words)) in docs.into_iter().enumerate() {
            let mut tf: HashMap<String, f64> = HashMap::new();
            for w in &words {
                *tf.entry(w.clone()).or_default() += 1.0;
            }
            for (w, f) in tf {
                postings.entry(w).or_default().1.push((i, f));
            }
            names.push(name);
            lengths.push(words.len() as f64);
        }
        let n = names.len() as f64;
        let avg_len = if lengths.is_empty() {
            1.0
        } else {
            (lengths.iter().sum::<f64>() / n).max(1.0)
        };
        for (idf, list) in postings.values_mut() {
            let d = list.len() as f64;
            *idf = ((n + PRIOR_DOCS - d + 0.5) / (d + 0.5) + 1.0).ln();
        }
        let norms = lengths
            .iter()
            .map(|l| K1 * (1.0 - B + B * l / avg_len))
            .collect();
        let first_by_name = (0..names.len()).min_by(|a, b| names[*a].cmp(&names[*b]));
        Bm25 {
            min_score,
            names,
            postings,
            norms,
            first_by_name,
        }
    }

    /// Each tool's BM25 score for `request`, in catalog order.
    fn scores(&self, request: &str) -> Vec<f64> {
        let mut scores = vec![0.0f64; self.names.len()];
        for t in terms(request) {
            if let Some((idf, list)) = self.postings.get(&t) {
                for (i, f) in list {
                    scores[*i] += idf * f * (K1 + 1.0) / (f + self.norms[*i]);
                }
            }
        }
        scores
    }

    /// Every tool's score for `request`, best first; ties by name.
    pub(crate) fn rank(&self, request: &str) -> Vec<(&str, f64)> {
        let scores = self.scores(request);
        let mut ranked: Vec<(&str, f64)> =
            self.names.iter().map(String::as_str).zip(scores).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        ranked
    }

    /// The `k` best tools the request touches and their scores, best first (ties by name), at
    /// a cost proportional to the postings the request touches: scores accumulate in a
    /// per-thread scratch vector, and only the tools touched are compared and reset. Untouched
    /// tools score 0 and are left out.
    pub(crate) fn top(&self, request: &str, k: usize) -> Vec<(&str, f64)> {
        thread_local! {
            static SCRATCH: std::cell::RefCell<(Vec<f64>, Vec<usize>)> = const {
                std::cell::RefCell::new((Vec::new(), Vec::new()))
            };
        }
        SCRATCH.with_borrow_mut(|(scores, touched)| {
            if scores.len() < self.names.len() {
                scores.resize(self.names.len(), 0.0);
            }
            for t in terms(request) {
                if let Some((idf, list)) = self.postings.get(&t) {
                    for (i, f) in list {
                        if scores[*i] == 0.0 {
                            touched.push(*i);
                        }
                        scores[*i] += idf * f * (K1 + 1.0) / (f + self.norms[*i]);
                    }
                }
            }
            // The k best by score, then name: a bounded heap whose top is the worst kept, so
            // most tools are turned away by one comparison of scores (names only on a tie).
            let better = |a: (usize, f64), b: (usize, f64)| {
                a.1 > b.1 || (a.1 == b.1 && self.names[a.0] < self.names[b.0])
            };
            let mut kept: std::collections::BinaryHeap<Ranked> =
                std::collections::BinaryHeap::with_capacity(if k == 0 {
                    touched.len()
                } else {
                    k.min(touched.len())
                });
            for &i in touched.iter() {
                let cand = (i, scores[i]);
                if k == 0 || kept.len() < k {
                    kept.push(Ranked(cand, &self.names));
                } else if let Some(worst) = kept.peek()
                    && better(cand, worst.0)
                {
                    kept.pop();
                    kept.push(Ranked(cand, &self.names));
                }
            }
            for i in touched.drain(..) {
                scores[i] = 0.0;
            }
            let mut hits: Vec<(&str, f64)> = kept
                .into_iter()
                .map(|Ranked((i, s), _)| (self.names[i].as_str(), s))
                .collect();
            // A caller that keeps the result (or collects it in place into k names) must not
            // keep more capacity than k.
            hits.shrink_to_fit();
            let order = |a: &(&str, f64), b: &(&str, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(b.0));
            hits.sort_by(order);
            hits
        })
    }

    /// The best tool and its score (ties by name). Untouched tools score 0 and touched ones
    /// more (IDF and term frequencies are positive), so when nothing is touched the best is the
    /// first tool by name at 0, as a full scan would say (what `choose` does; tested against
    /// the dense scan).
    #[cfg(test)]
    fn best(&self, request: &str) -> Option<(&str, f64)> {
        let first = *self.first_by_name.as_ref()?;
        Some(
            self.top(request, 1)
                .into_iter()
                .next()
                .unwrap_or((self.names[first].as_str(), 0.0)),
        )
    }

    pub(crate) fn choose(&self, request: &str) -> Decision {
        let ranked = self.top(request, crate::score::retrieval::DEPTH);
        let ranking = Some(ranked.iter().map(|(n, _)| n.to_string()).collect());
        let best = ranked.first().copied().or_else(|| {
            let first = *self.first_by_name.as_ref()?;
            Some((self.names[first].as_str(), 0.0))
        });
        match best {
            Some((name, score)) if score >= self.min_score && score > 0.0 => Decision {
                tool: Some(name.to_string()),
                score: Some(score),
                ranking,
                ..Default::default()
            },
            best => Decision {
                tool: None,
                ranking,
                score: best.map(|b| b.1),
                text: Some(format!(
                    "no tool scored {} or more (best: {})",
                    self.min_score,
                    best.map(|(n, s)| format!("{n} {s:.2}"))
                        .unwrap_or_else(|| "none".into())
                )),
                ..Default::default()
            },
        }
    }
}

impl Bm25 {
    /// What the spec means, for reports.
    pub(crate) fn explain(min_score: f64) -> String {
        format!(
            "bm25:{min_score} is the offline BM25 router: it calls its best-scoring tool when the BM25 score reaches {min_score} (about one distinctive word of the request matched, on any catalog size) and calls nothing otherwise. It is a lexical router — a reproducible proxy for a model, not a model"
        )
    }
}

impl Model for Bm25 {
    fn spec(&self) -> String {
        format!("bm25:{}", self.min_score)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn decide<'a>(&'a self, task: &'a crate::tasks::Task, _trial: u32) -> BoxFuture<'a, Decision> {
        Box::pin(async move { self.choose(&task.request) })
    }
}

#[cfg(test)]
#[path = "bm25_tests.rs"]
mod tests;

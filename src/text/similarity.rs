//! The look-alike similarity index: the terms compared for each tool, and an inverted index
//! over IDF-weighted terms that finds alike pairs without comparing every pair.

use std::collections::{HashMap, HashSet};

use super::synonyms::{concept, verb_class};
use super::{content_words, is_stop, name_words, stem};

#[cfg(test)]
/// The terms the look-alike rules compare for one tool: like [`similarity_doc`], folded with
/// [`concept`] (listing verbs and object-noun synonyms too).
pub(crate) fn lookalike_doc(name: &str, description: &str) -> (Vec<String>, Vec<String>) {
    lookalike_doc_of(name, &content_words(description))
}

/// [`lookalike_doc`] from the description's [`content_words`], already worked out.
pub(crate) fn lookalike_doc_of(name: &str, content: &[String]) -> (Vec<String>, Vec<String>) {
    let names: Vec<String> = name_words(name)
        .into_iter()
        .filter(|w| !is_stop(w))
        .map(|w| concept(&stem(&w)))
        .collect();
    let mut terms: Vec<String> = content.iter().map(|w| concept(w)).collect();
    terms.extend(names.iter().cloned());
    (terms, names)
}

/// The terms the look-alike index compares for one tool: stemmed content words of the
/// description and of the name, verbs folded into their class; and the name's own terms.
pub fn similarity_doc(name: &str, description: &str) -> (Vec<String>, Vec<String>) {
    similarity_doc_of(name, &content_words(description))
}

/// [`similarity_doc`] from the description's [`content_words`], already worked out.
pub(crate) fn similarity_doc_of(name: &str, content: &[String]) -> (Vec<String>, Vec<String>) {
    let class = |w: &str| verb_class(w).to_string();
    let names: Vec<String> = name_words(name)
        .into_iter()
        .filter(|w| !is_stop(w))
        .map(|w| class(&stem(&w)))
        .collect();
    let mut terms: Vec<String> = content.iter().map(|w| class(w)).collect();
    terms.extend(names.iter().cloned());
    (terms, names)
}

/// A pair of tools whose descriptions and names are alike.
#[derive(Clone, Debug)]
pub struct SimilarPair {
    pub a: usize,
    pub b: usize,
    /// Cosine similarity of IDF-weighted description+name terms.
    pub text: f64,
    /// Jaccard overlap of name words.
    pub name: f64,
    /// The combined score the rules threshold.
    pub score: f64,
}

/// Weight of text vs name overlap in the combined look-alike score.
const TEXT_WEIGHT: f64 = 0.6;

/// Candidate lists longer than this are not walked: a term shared by that many tools is
/// weak evidence of a look-alike pair, and walking it would make the work quadratic.
const POSTING_CAP: usize = 100;

/// Finds all pairs with combined score at or above `threshold`.
///
/// Near-linear: candidates come from an inverted index over terms shared by at most
/// [`POSTING_CAP`] tools, plus tools whose name terms are the same set (`cancel_event` /
/// `delete_event` after verb folding), plus tools that share a combination of two or three of
/// their rarest common terms held by at most [`COMBO_CAP`] tools (at 20,000 tools every word
/// is common, and `acme` + `invoice` still picks out a handful); each candidate is then scored
/// exactly (cosine over all IDF-weighted terms, Jaccard over name terms).
pub fn similar_pairs(docs: &[(Vec<String>, Vec<String>)], threshold: f64) -> Vec<SimilarPair> {
    similar_pairs_with(docs, threshold, &[])
}

/// [`similar_pairs`], plus the pairs `forced` (sorted index pairs, `a < b`) scored and kept
/// whatever their score: pairs another signal found ([`super::job_twins`]).
pub(crate) fn similar_pairs_with(
    docs: &[(Vec<String>, Vec<String>)],
    threshold: f64,
    forced: &[(usize, usize)],
) -> Vec<SimilarPair> {
    let n = docs.len();
    let mut ids: HashMap<&str, usize> = HashMap::new();
    for (terms, _) in docs {
        for t in terms {
            let next = ids.len();
            ids.entry(t.as_str()).or_insert(next);
        }
    }
    let mut df = vec![0usize; ids.len()];
    let bags: Vec<HashMap<usize, f64>> = docs
        .iter()
        .map(|(terms, _)| {
            let mut bag: HashMap<usize, f64> = HashMap::new();
            for t in terms {
                *bag.entry(ids[t.as_str()]).or_default() += 1.0;
            }
            for id in bag.keys() {
                df[*id] += 1;
            }
            bag
        })
        .collect();
    // Unit-length, IDF-weighted term vectors, sorted by term id for merge-joins.
    let vectors: Vec<Vec<(usize, f64)>> = bags
        .into_iter()
        .map(|bag| {
            let mut v: Vec<(usize, f64)> = bag
                .into_iter()
                .map(|(id, tf)| {
                    let idf = ((1.0 + n as f64) / (1.0 + df[id] as f64)).ln() + 1.0;
                    (id, (1.0 + f64::ln(tf)) * idf)
                })
                .collect();
            let norm = v.iter().map(|(_, w)| w * w).sum::<f64>().sqrt().max(1e-12);
            v.iter_mut().for_each(|(_, w)| *w /= norm);
            v.sort_by_key(|(id, _)| *id);
            v
        })
        .collect();
    let mut postings: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, v) in vectors.iter().enumerate() {
        for (id, _) in v {
            if df[*id] <= POSTING_CAP {
                postings.entry(*id).or_default().push(i);
            }
        }
    }
    let names: Vec<Vec<&str>> = docs
        .iter()
        .map(|(_, nm)| {
            let mut v: Vec<&str> = nm.iter().map(String::as_str).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let mut same_name: HashMap<&[&str], Vec<usize>> = HashMap::new();
    for (i, nm) in names.iter().enumerate() {
        if !nm.is_empty() {
            same_name.entry(nm.as_slice()).or_default().push(i);
        }
    }
    // Candidate pairs as a sorted, de-duplicated list of index pairs (8 bytes each; a hash
    // set of them cost three times that at 20,000 tools), compacted as it grows.
    let mut candidates: Vec<(u32, u32)> = Vec::new();
    let mut compact_at = 1 << 20;
    let mut pair_up = |list: &[usize]| {
        for (k, &i) in list.iter().enumerate() {
            for &j in &list[k + 1..] {
                candidates.push((i.min(j) as u32, i.max(j) as u32));
            }
        }
        if candidates.len() >= compact_at {
            candidates.sort_unstable();
            candidates.dedup();
            compact_at = (2 * candidates.len()).max(1 << 20);
        }
    };
    for list in postings
        .values()
        .chain(same_name.values().filter(|l| l.len() <= POSTING_CAP))
    {
        pair_up(list);
    }
    // Terms too common to walk alone still tell tools apart together: two tools that share
    // their rarest common terms (`acme` and `invoice` among 20,000 tools, each in hundreds)
    // are candidates when few tools hold that combination.
    combination_runs(&vectors, &df, &mut pair_up);
    candidates.extend(
        forced
            .iter()
            .filter(|(a, b)| a < b && *b < n)
            .map(|&(a, b)| (a as u32, b as u32)),
    );
    candidates.sort_unstable();
    candidates.dedup();
    let mut out: Vec<SimilarPair> = candidates
        .into_iter()
        .map(|(a, b)| (a as usize, b as usize))
        .filter_map(|(a, b)| {
            let text = dot(&vectors[a], &vectors[b]);
            let name = jaccard(&names[a], &names[b]);
            let score = TEXT_WEIGHT * text + (1.0 - TEXT_WEIGHT) * name;
            (score >= threshold || forced.binary_search(&(a, b)).is_ok()).then_some(SimilarPair {
                a,
                b,
                text,
                name,
                score,
            })
        })
        .collect();
    out.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then((x.a, x.b).cmp(&(y.a, y.b)))
    });
    out
}

/// A description concept counts as boilerplate when more than this share of a catalog's tools,
/// and at least [`BOILERPLATE_MIN`] of them, use it.
const BOILERPLATE_SHARE: f64 = 0.2;
const BOILERPLATE_MIN: usize = 8;

/// The concepts (description and name terms) more than [`BOILERPLATE_SHARE`] of the tools
/// use.
pub(crate) fn boilerplate(docs: &[(Vec<String>, Vec<String>)]) -> HashSet<&str> {
    let mut df: HashMap<&str, usize> = Default::default();
    for (terms, _) in docs {
        let mut own: Vec<&str> = terms.iter().map(String::as_str).collect();
        own.sort_unstable();
        own.dedup();
        for t in own {
            *df.entry(t).or_default() += 1;
        }
    }
    let at_least = ((docs.len() as f64 * BOILERPLATE_SHARE) as usize).max(BOILERPLATE_MIN);
    df.into_iter()
        .filter(|(_, n)| *n > at_least)
        .map(|(t, _)| t)
        .collect()
}

/// The most tools one combination of terms may group: a combination shared by more is
/// walked no further (the template siblings of one service: `acme` + `billing` in 50 tools).
const COMBO_CAP: usize = 16;

/// How many of a tool's common terms (each in more than [`POSTING_CAP`] tools), rarest first,
/// are combined in twos and in threes.
const PAIR_TERMS: usize = 8;
const TRIPLE_TERMS: usize = 6;

/// The groups of tools that share a combination of two or three of their rarest common terms,
/// each group of at most [`POSTING_CAP`] tools. Keys are hashed and sorted, not kept in a map:
/// about 50 per tool.
fn combination_runs(vectors: &[Vec<(usize, f64)>], df: &[usize], each: &mut dyn FnMut(&[usize])) {
    use std::hash::{Hash, Hasher};
    let key = |ids: &[usize]| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        ids.hash(&mut h);
        h.finish()
    };
    let mut keyed: Vec<(u64, u32)> = Vec::new();
    for (i, v) in vectors.iter().enumerate() {
        let mut common: Vec<usize> = v
            .iter()
            .map(|(id, _)| *id)
            .filter(|id| df[*id] > POSTING_CAP)
            .collect();
        common.sort_by_key(|id| (df[*id], *id));
        let pairs = &common[..common.len().min(PAIR_TERMS)];
        for a in 0..pairs.len() {
            for b in a + 1..pairs.len() {
                let mut k = [pairs[a], pairs[b]];
                k.sort_unstable();
                keyed.push((key(&k), i as u32));
            }
        }
        let triples = &common[..common.len().min(TRIPLE_TERMS)];
        for a in 0..triples.len() {
            for b in a + 1..triples.len() {
                for c in b + 1..triples.len() {
                    let mut k = [triples[a], triples[b], triples[c]];
                    k.sort_unstable();
                    keyed.push((key(&k), i as u32));
                }
            }
        }
    }
    keyed.sort_unstable();
    let mut group = Vec::with_capacity(POSTING_CAP);
    for run in keyed.chunk_by(|x, y| x.0 == y.0) {
        if run.len() >= 2 && run.len() <= COMBO_CAP {
            group.clear();
            group.extend(run.iter().map(|(_, i)| *i as usize));
            each(&group);
        }
    }
}

fn dot(x: &[(usize, f64)], y: &[(usize, f64)]) -> f64 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < x.len() && j < y.len() {
        match x[i].0.cmp(&y[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += x[i].1 * y[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

/// Jaccard overlap of two sorted, de-duplicated word lists.
fn jaccard(x: &[&str], y: &[&str]) -> f64 {
    let inter = x.iter().filter(|w| y.binary_search(w).is_ok()).count() as f64;
    let union = (x.len() + y.len()) as f64 - inter;
    if union == 0.0 { 0.0 } else { inter / union }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boilerplate_is_what_many_tools_share() {
        let doc = |n: &str| {
            lookalike_doc(
                n,
                &format!("{n} items. Use this for a collection of resources."),
            )
        };
        let many: Vec<_> = (0..10).map(|i| doc(&format!("list_thing{i}"))).collect();
        let b = boilerplate(&many);
        assert!(b.contains("collect") && b.contains("resourc"), "{b:?}");
        assert!(!b.iter().any(|t| t.contains("thing")), "{b:?}");
        // A few tools share no boilerplate: every concept counts.
        assert!(boilerplate(&many[..8]).is_empty());
    }

    #[test]
    fn alike_texts_pair_and_unrelated_do_not() {
        let doc = |t: &str, n: &str| (content_words(t), name_words(n));
        let docs = vec![
            doc("Read the complete contents of a file as text", "read_file"),
            doc(
                "Read the complete contents of a file from disk as text",
                "read_text_file",
            ),
            doc("Send an email message to a recipient", "send_email"),
        ];
        let pairs = similar_pairs(&docs, 0.5);
        assert_eq!(pairs.len(), 1);
        assert_eq!((pairs[0].a, pairs[0].b), (0, 1));
    }
}

//! Text helpers shared by rules: word and name tokenising, stop words, and the IDF-weighted
//! similarity index used to find look-alike tools without comparing every pair.

use std::collections::{HashMap, HashSet};

const STOP: &[&str] = &[
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "by",
    "can",
    "for",
    "from",
    "has",
    "have",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "of",
    "on",
    "or",
    "that",
    "the",
    "their",
    "them",
    "this",
    "to",
    "was",
    "will",
    "with",
    "you",
    "your",
    "all",
    "any",
    "each",
    "which",
    "when",
    "use",
    "used",
    "using",
    "tool",
    "returns",
    "return",
    "given",
    "specified",
    "provided",
    "s",
];

pub fn is_stop(w: &str) -> bool {
    STOP.contains(&w)
}

/// Lower-case alphanumeric words of a text.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect()
}

/// The English Snowball (Porter2) stem: "files"/"file", "reading"/"read", "attendees"/"attende".
pub fn stem(w: &str) -> String {
    static STEMMER: std::sync::LazyLock<rust_stemmers::Stemmer> = std::sync::LazyLock::new(|| {
        rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English)
    });
    STEMMER.stem(w).into_owned()
}

/// Verbs that ask for the same kind of action, grouped under one class, so `cancel_event` and
/// `delete_event`, or `find_events` and `search_events`, are seen as alike.
const VERB_CLASSES: &[(&str, &[&str])] = &[
    (
        "create",
        &[
            "create", "add", "new", "make", "insert", "schedule", "book", "register", "post",
        ],
    ),
    (
        "read",
        &[
            "get", "read", "fetch", "retrieve", "open", "view", "show", "describe", "load",
        ],
    ),
    (
        "search",
        &[
            "search", "find", "query", "lookup", "look", "filter", "match", "discover",
        ],
    ),
    (
        "update",
        &[
            "update",
            "edit",
            "modify",
            "change",
            "patch",
            "reschedule",
            "rename",
            "amend",
            "alter",
        ],
    ),
    (
        "delete",
        &[
            "delete", "remove", "cancel", "drop", "destroy", "erase", "purge", "revoke", "void",
            "unlink",
        ],
    ),
    ("send", &["send", "notify", "email", "message", "alert"]),
];

/// A stemmed word's verb class, or the word itself.
pub fn verb_class(stemmed: &str) -> &str {
    static BY_STEM: std::sync::LazyLock<HashMap<String, &'static str>> =
        std::sync::LazyLock::new(|| {
            VERB_CLASSES
                .iter()
                .flat_map(|(class, members)| members.iter().map(move |m| (stem(m), *class)))
                .collect()
        });
    BY_STEM.get(stemmed).copied().unwrap_or(stemmed)
}

/// Content words (stop words dropped, stemmed).
pub fn content_words(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| !is_stop(w))
        .map(|w| stem(&w))
        .collect()
}

/// Splits a tool or parameter name on `_ - . /`, spaces and camelCase: `getUserByID` →
/// `get user by id`.
pub fn name_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let boundary = c.is_uppercase()
            && !cur.is_empty()
            && (chars[i - 1].is_lowercase()
                || chars[i - 1].is_ascii_digit()
                || chars.get(i + 1).is_some_and(|n| n.is_lowercase()));
        if boundary {
            out.push(std::mem::take(&mut cur));
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// True when `text` mentions `name` as a whole word (or its space-separated form).
pub fn mentions(text: &str, name: &str) -> bool {
    let lower = text.to_lowercase();
    let n = name.to_lowercase();
    let hit = |needle: &str| {
        lower.match_indices(needle).any(|(i, _)| {
            let before = lower[..i].chars().next_back();
            let after = lower[i + needle.len()..].chars().next();
            let edge =
                |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
            edge(before) && edge(after)
        })
    };
    hit(&n) || (n.contains(['_', '-']) && hit(&name_words(name).join(" ")))
}

/// The terms the look-alike index compares for one tool: stemmed content words of the
/// description and of the name, verbs folded into their class; and the name's own terms.
pub fn similarity_doc(name: &str, description: &str) -> (Vec<String>, Vec<String>) {
    let class = |w: String| verb_class(&w).to_string();
    let names: Vec<String> = name_words(name)
        .into_iter()
        .filter(|w| !is_stop(w))
        .map(|w| class(stem(&w)))
        .collect();
    let mut terms: Vec<String> = content_words(description).into_iter().map(class).collect();
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
/// `delete_event` after verb folding); each candidate is then scored exactly (cosine over all
/// IDF-weighted terms, Jaccard over name terms).
pub fn similar_pairs(docs: &[(Vec<String>, Vec<String>)], threshold: f64) -> Vec<SimilarPair> {
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
    let mut candidates: std::collections::HashSet<(usize, usize)> = HashSet::new();
    for list in postings
        .values()
        .chain(same_name.values().filter(|l| l.len() <= POSTING_CAP))
    {
        for (k, &i) in list.iter().enumerate() {
            for &j in &list[k + 1..] {
                candidates.insert((i.min(j), i.max(j)));
            }
        }
    }
    let mut out: Vec<SimilarPair> = candidates
        .into_iter()
        .filter_map(|(a, b)| {
            let text = dot(&vectors[a], &vectors[b]);
            let name = jaccard(&names[a], &names[b]);
            let score = TEXT_WEIGHT * text + (1.0 - TEXT_WEIGHT) * name;
            (score >= threshold).then_some(SimilarPair {
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
    fn verbs_fold_into_classes_after_stemming() {
        assert_eq!(verb_class(&stem("creates")), "create");
        assert_eq!(verb_class(&stem("adds")), "create");
        assert_eq!(verb_class(&stem("cancels")), "delete");
        assert_eq!(verb_class(&stem("calendar")), "calendar");
    }

    #[test]
    fn splits_names() {
        assert_eq!(name_words("getUserByID"), vec!["get", "user", "by", "id"]);
        assert_eq!(
            name_words("read_text-file.v2"),
            vec!["read", "text", "file", "v2"]
        );
        assert_eq!(name_words("HTTPServer"), vec!["http", "server"]);
    }

    #[test]
    fn mentions_whole_names_only() {
        assert!(mentions("Use read_text_file instead.", "read_text_file"));
        assert!(!mentions("Use read_text_file instead.", "read_text"));
        assert!(mentions("prefer the search nodes tool", "search_nodes"));
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

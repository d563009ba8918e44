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

/// Look-alike folding only (the sampler keeps [`verb_class`]): verbs that ask for a listing,
/// and verbs that take data out as a file.
const LIST_VERBS: &[&str] = &["list", "browse", "enumerate", "show", "view"];
const EXPORT_VERBS: &[&str] = &["export", "download", "dump"];

/// Object nouns that name the same thing, folded under the first, so `find_clients` and
/// `search_customers` are seen as one job. Look-alike folding only.
const NOUN_CLASSES: &[&[&str]] = &[
    &["customer", "client"],
    &["folder", "directory", "dir"],
    &["employee", "staff", "worker", "personnel"],
    &["company", "organization", "organisation", "org"],
    &["product", "item"],
    &["issue", "ticket"],
    &["event", "meeting", "appointment"],
    &["message", "note", "memo"],
    &["document", "doc"],
    &["repository", "repo"],
    &["supplier", "vendor"],
    &["photo", "picture", "image"],
    &["car", "vehicle"],
];

/// Verbs that are not in a class but start tool names (`export_users`, `git_diff`).
const MORE_VERBS: &[&str] = &[
    "export",
    "import",
    "archive",
    "unarchive",
    "share",
    "count",
    "move",
    "copy",
    "merge",
    "push",
    "fork",
    "sync",
    "run",
    "execute",
    "start",
    "stop",
    "toggle",
    "trigger",
    "upload",
    "download",
    "approve",
    "reject",
    "close",
    "reopen",
    "assign",
    "publish",
    "invite",
    "set",
    "check",
    "validate",
    "convert",
    "compress",
    "summarize",
    "translate",
    "generate",
    "echo",
    "write",
    "commit",
    "reset",
    "checkout",
    "diff",
    "simulate",
    "restore",
    "install",
    "deploy",
    "restart",
    "clone",
    "print",
    "render",
    "compare",
    "calculate",
    "estimate",
    "track",
    "log",
    "record",
    "switch",
    "stage",
    "unstage",
    "transfer",
    "pay",
    "charge",
    "sign",
    "mark",
    "pin",
    "tag",
    "star",
    "watch",
    "follow",
    "like",
    "rate",
    "review",
    "comment",
    "reply",
    "forward",
];

/// Prepositions that end a name's object (`list_directory_with_sizes` acts on a directory).
const PREPOSITIONS: &[&str] = &[
    "with",
    "by",
    "for",
    "from",
    "in",
    "as",
    "including",
    "to",
    "of",
    "on",
    "via",
    "without",
    "into",
    "using",
    "at",
    "per",
    "between",
    "across",
    "about",
    "within",
    "among",
    "over",
    "under",
    "that",
    "which",
    "so",
];

fn stems_of(list: &[&str]) -> HashSet<String> {
    list.iter().map(|w| stem(w)).collect()
}

/// The object-noun class of a stemmed word (`client` → `custom`), or the word itself.
pub fn noun(stemmed: &str) -> String {
    static NOUNS: std::sync::LazyLock<HashMap<String, String>> = std::sync::LazyLock::new(|| {
        NOUN_CLASSES
            .iter()
            .flat_map(|class| class.iter().map(move |m| (stem(m), stem(class[0]))))
            .collect()
    });
    NOUNS
        .get(stemmed)
        .cloned()
        .unwrap_or_else(|| stemmed.to_string())
}

/// The concept a stemmed word stands for in look-alike comparisons: its listing or verb class,
/// else its noun class, else the word itself.
pub fn concept(stemmed: &str) -> String {
    static LIST: std::sync::LazyLock<HashSet<String>> =
        std::sync::LazyLock::new(|| stems_of(LIST_VERBS));
    static EXPORT: std::sync::LazyLock<HashSet<String>> =
        std::sync::LazyLock::new(|| stems_of(EXPORT_VERBS));
    if LIST.contains(stemmed) {
        return "list".to_string();
    }
    if EXPORT.contains(stemmed) {
        return "export".to_string();
    }
    let verb = verb_class(stemmed);
    if verb != stemmed {
        return verb.to_string();
    }
    noun(stemmed)
}

/// The terms the look-alike rules compare for one tool: like [`similarity_doc`], folded with
/// [`concept`] (listing verbs and object-noun synonyms too).
pub fn lookalike_doc(name: &str, description: &str) -> (Vec<String>, Vec<String>) {
    let names: Vec<String> = name_words(name)
        .into_iter()
        .filter(|w| !is_stop(w))
        .map(|w| concept(&stem(&w)))
        .collect();
    let mut terms: Vec<String> = content_words(description)
        .iter()
        .map(|w| concept(w))
        .collect();
    terms.extend(names.iter().cloned());
    (terms, names)
}

/// What a tool's name says it does: the action (verb concept) and the object it acts on (the
/// head noun, before any preposition), plus the concepts its description names.
#[derive(Clone, Debug, Default)]
pub struct Role {
    pub verb: Option<String>,
    pub object: Option<String>,
    /// Concepts (and plain stems) of the description's words.
    named: HashSet<String>,
    /// Stemmed description words in order, for compounds ("review comments").
    seq: Vec<String>,
    /// The name's words, stemmed and folded as nouns.
    name: Vec<String>,
    /// The object as written (`unstaged`), for negated forms.
    object_word: Option<String>,
    /// The name's words as concepts (verbs and nouns folded).
    name_concepts: Vec<String>,
    /// Stemmed content words of the description, and of the name.
    stems: Vec<String>,
    name_stems: Vec<String>,
}

fn is_verb(word: &str) -> bool {
    static VERBS: std::sync::LazyLock<HashSet<String>> = std::sync::LazyLock::new(|| {
        let mut all = stems_of(MORE_VERBS);
        all.extend(stems_of(LIST_VERBS));
        all.extend(stems_of(EXPORT_VERBS));
        for (_, members) in VERB_CLASSES {
            all.extend(stems_of(members));
        }
        all
    });
    VERBS.contains(&stem(word))
}

/// Parses a tool's role from its name (and its description's first word when the name has no
/// verb: `git_branch` "List Git branches").
pub fn role(name: &str, description: &str) -> Role {
    let words: Vec<String> = name_words(name);
    // The last word is the object unless it is the only verb (`git_add`): `social_stats_followers`
    // and `social_subscribe_post` act on followers and posts.
    let n = words.len();
    let verb_at = words[..n.saturating_sub(1)]
        .iter()
        .position(|w| is_verb(w))
        .or_else(|| (n == 2 && is_verb(&words[1])).then_some(1));
    let desc_words = self::words(description);
    // The verb: a known verb of the name; else the word before the name's last (an unknown
    // verb in verb position: `forms_duplicate_form`); else, for a one-word name, the
    // description's leading verb (`branches` "List Git branches").
    let verb = match verb_at {
        Some(i) => Some(concept(&stem(&words[i]))),
        None if words.len() >= 2 => Some(concept(&stem(&words[words.len() - 2]))),
        None => desc_words
            .first()
            .filter(|w| is_verb(w))
            .map(|w| concept(&stem(w))),
    };
    let head = |ws: &[String]| {
        ws.iter()
            .take_while(|w| !PREPOSITIONS.contains(&w.as_str()))
            .filter(|w| !is_stop(w) && !w.chars().all(|c| c.is_ascii_digit()))
            .last()
            .cloned()
    };
    // The object: the name's head noun, else the description's (`git_add` "Adds file
    // contents to …" acts on contents).
    let object_word = head(&words[verb_at.map_or(0, |i| i + 1)..]).or_else(|| {
        let at = desc_words.iter().position(|w| is_verb(w))?;
        head(&desc_words[at + 1..])
    });
    let object = object_word.as_deref().map(|w| noun(&stem(w)));
    let stems: Vec<String> = desc_words
        .iter()
        .filter(|w| !is_stop(w))
        .map(|w| stem(w))
        .collect();
    let mut named: HashSet<String> = HashSet::new();
    for s in &stems {
        named.insert(concept(s));
        named.insert(noun(s));
        named.insert(s.clone());
    }
    Role {
        verb,
        object,
        named,
        seq: stems.iter().map(|s| noun(s)).collect(),
        name: words
            .iter()
            .filter(|w| !is_stop(w))
            .map(|w| noun(&stem(w)))
            .collect(),
        name_concepts: words
            .iter()
            .filter(|w| !is_stop(w))
            .map(|w| concept(&stem(w)))
            .collect(),
        name_stems: words.iter().map(|w| stem(w)).collect(),
        stems,
        object_word,
    }
}

impl Role {
    /// The description names `concept`.
    fn names(&self, concept: &str) -> bool {
        self.named.contains(concept)
    }

    /// The description names the role's own object ("unstaged" counts as named by "not yet
    /// staged").
    fn names_object(&self) -> bool {
        let Some(o) = &self.object else { return false };
        self.names(o)
            || self
                .object_word
                .as_deref()
                .and_then(|w| w.strip_prefix("un"))
                .is_some_and(|w| w.len() > 2 && self.names(&stem(w)))
    }

    /// Every word that sets this name apart from `other`'s (besides verb and object) is also
    /// named by both descriptions: `read_text_file` next to `read_file` ("… as text").
    pub fn qualifiers_shared_with(&self, other: &Role) -> bool {
        let own = |r: &Role, w: &String| {
            r.verb.as_deref() == Some(w.as_str()) || r.object.as_deref() == Some(w.as_str())
        };
        let apart = |x: &Role, y: &Role| {
            x.name
                .iter()
                .filter(|w| {
                    !y.name.contains(w)
                        && !own(x, w)
                        && concept(w) != x.verb.clone().unwrap_or_default()
                })
                .all(|w| x.names(w) && y.names(w))
        };
        apart(self, other) && apart(other, self)
    }

    /// The role's verb and object are both known and equal to `other`'s.
    pub fn same_as(&self, other: &Role) -> bool {
        self.verb.is_some()
            && self.object.is_some()
            && self.verb == other.verb
            && self.object == other.object
    }

    /// The description says "`first` `second`" ("review comments": comments of reviews).
    fn compound(&self, first: &str, second: &str) -> bool {
        self.seq.windows(2).any(|w| w[0] == first && w[1] == second)
    }
}

/// True when two tools plainly do different jobs, however alike their wording: their names act
/// on different objects that each description names (`export_users` / `export_products`,
/// `create_issue` / `create_repository`), unless one object is a kind of the other ("review
/// comments" / reviews); or they act on one object with different actions, and each
/// description names its own action and not the other's (`create_board` / `delete_board`).
pub fn distinct_jobs(a: &Role, b: &Role) -> bool {
    distinct_objects(a, b) || distinct_actions(a, b) || (states_own(a, b) && states_own(b, a))
}

/// Different objects, each named by its own description.
fn distinct_objects(a: &Role, b: &Role) -> bool {
    let (Some(oa), Some(ob)) = (&a.object, &b.object) else {
        return false;
    };
    // "review comments" in a tool named for comments: comments of reviews, a kind of the
    // other tool's object (a word of the tool's own name, like a service prefix, is not).
    let kind_of = |x: &Role, own: &str, other: &str| {
        x.compound(other, own) && !x.name.iter().any(|w| w == other)
    };
    oa != ob && a.names_object() && b.names_object() && !kind_of(a, oa, ob) && !kind_of(b, ob, oa)
}

/// One object, different actions (name verbs of different meaning, or a verb on one side
/// only), and descriptions that say different things once the words of both names are set
/// aside: `create_board` "… from the given fields" / `update_board` "… fields left out keep
/// their values". "Open a new issue … and return its id" next to `create_issue` "Create a new
/// issue … and return its id" says the same thing.
fn distinct_actions(a: &Role, b: &Role) -> bool {
    if a.object.is_none() || a.object != b.object || a.verb == b.verb {
        return false;
    }
    let rest = |x: &Role| -> HashSet<String> {
        x.stems
            .iter()
            .filter(|s| !a.name_stems.contains(s) && !b.name_stems.contains(s))
            .map(|s| concept(s))
            .collect()
    };
    let (ra, rb) = (rest(a), rest(b));
    let inter = ra.intersection(&rb).count();
    let union = ra.len() + rb.len() - inter;
    !(inter >= 2 && inter as f64 > RESTATED * union as f64)
}

/// Overlap (Jaccard, of at least two concepts) of what two descriptions say besides their
/// names' words above which two tools with different actions on one object count as doing
/// the same thing.
const RESTATED: f64 = 0.5;

/// `x`'s name has a word `y`'s lacks that `x`'s description states and `y`'s does not
/// (`gmail_get_calendar` / `jira_get_calendar`, each describing its own service).
fn states_own(x: &Role, y: &Role) -> bool {
    x.name_concepts
        .iter()
        .filter(|w| !y.name_concepts.contains(w))
        .any(|w| x.names(w) && !y.names(w))
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

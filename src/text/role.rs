//! Tool roles: what a name says a tool does (verb and object, plus what its description
//! names), and whether two look-alike tools plainly do different jobs.

use std::collections::HashSet;

use super::synonyms::{
    EXPORT_VERBS, LIST_VERBS, MORE_VERBS, PREPOSITIONS, VERB_CLASSES, concept, noun, stems_of,
};
use super::{is_stop, name_words, stem, words};

/// What a tool's name says it does: the action (verb concept) and the object it acts on (the
/// head noun, before any preposition), plus the concepts its description names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Role {
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
    /// Stemmed content words of the name.
    name_stems: Vec<String>,
    /// The stemmed content words of the description, each with its concept (worked out once:
    /// pairs compare them many times).
    stem_concepts: Vec<(String, String)>,
    /// Which of `stem_concepts` are the catalog's boilerplate ([`Role::mark_boilerplate`]).
    boilerplate: Vec<bool>,
}

pub(super) fn is_verb(word: &str) -> bool {
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

/// Words that name everything about the noun before them, not an object of their own.
pub(super) const FACETS: &[&str] = &["details", "detail", "info", "information"];

/// Parses a tool's role from its name (and its description's first word when the name has no
/// verb: `git_branch` "List Git branches").
pub(crate) fn role(name: &str, description: &str) -> Role {
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
    // A facet word after the head noun says "all about it", not another object:
    // `get_commit_details` and `get_user_info` act on a commit and a user.
    let head = |ws: &[String]| {
        let nouns: Vec<&String> = ws
            .iter()
            .take_while(|w| !PREPOSITIONS.contains(&w.as_str()))
            .filter(|w| !is_stop(w) && !w.chars().all(|c| c.is_ascii_digit()))
            .collect();
        match nouns.as_slice() {
            [.., before, last] if FACETS.contains(&last.to_lowercase().as_str()) => {
                Some((*before).clone())
            }
            [.., last] => Some((*last).clone()),
            [] => None,
        }
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
    // A hyphenated word names the object written as one ("to-do items" for `list_todos`,
    // "e-mail" for `send_email`).
    let joined = description
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| w.contains('-') && w.len() <= 32)
        .map(|w| stem(&w.replace('-', "").to_lowercase()))
        .filter(|w| !w.is_empty());
    for s in stems.iter().cloned().chain(joined) {
        named.insert(concept(&s));
        named.insert(noun(&s));
        named.insert(s);
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
        stem_concepts: stems
            .into_iter()
            .map(|s| {
                let c = concept(&s);
                (s, c)
            })
            .collect(),
        object_word,
        boilerplate: Vec::new(),
    }
}

impl Role {
    /// Marks the description's concepts that are in `set`, the catalog's boilerplate, which
    /// [`restates_besides`] sets aside.
    pub(crate) fn mark_boilerplate(&mut self, set: &HashSet<&str>) {
        self.boilerplate = self
            .stem_concepts
            .iter()
            .map(|(_, c)| set.contains(c.as_str()))
            .collect();
    }

    /// The description names `concept`.
    fn names(&self, concept: &str) -> bool {
        self.named.contains(concept)
    }

    /// The description names the role's own object ("unstaged" counts as named by "not yet
    /// staged", a "watcher" by "watching").
    fn names_object(&self) -> bool {
        let Some(o) = &self.object else { return false };
        let word = self.object_word.as_deref().unwrap_or("");
        let base = |w: Option<&str>| w.is_some_and(|w| w.len() > 2 && self.names(&stem(w)));
        self.names(o)
            || base(word.strip_prefix("un"))
            || base(word.strip_suffix("ers").or_else(|| word.strip_suffix("er")))
    }

    /// Every word that sets this name apart from `other`'s (besides verb and object) is also
    /// named by both descriptions: `read_text_file` next to `read_file` ("… as text").
    pub(crate) fn qualifiers_shared_with(&self, other: &Role) -> bool {
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
    pub(crate) fn same_as(&self, other: &Role) -> bool {
        self.verb.is_some()
            && self.object.is_some()
            && self.verb == other.verb
            && self.object == other.object
    }

    /// The two names say the same thing in other words: the same concepts, word for word once
    /// synonyms are folded (`create_event` / `schedule_meeting`), and the same number of them
    /// (`get_users` is not `get_user`: a plural says the tool lists).
    pub(crate) fn synonym_names(&self, other: &Role) -> bool {
        let set = |r: &Role| r.name_concepts.iter().cloned().collect::<HashSet<String>>();
        let plural = |r: &Role| {
            r.object_word
                .as_deref()
                .is_some_and(|w| w.ends_with('s') && !w.ends_with("ss"))
        };
        set(self) == set(other) && plural(self) == plural(other)
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
pub(crate) fn distinct_jobs(a: &Role, b: &Role) -> bool {
    distinct_objects(a, b)
        || distinct_actions(a, b)
        || (states_own(a, b) && states_own(b, a) && !synonym_verbs(a, b))
}

/// One object, a name verb only one side's is known to the verb lexicon, and descriptions
/// that say the same thing besides the names' words: the unknown word is a synonym
/// (`count_orders` / `tally_orders`), so each description stating its own verb does not set
/// the tools apart. Two known verbs of different classes (`create` / `retrieve`) are
/// different actions, however much boilerplate their descriptions share.
fn synonym_verbs(a: &Role, b: &Role) -> bool {
    a.object.is_some()
        && a.object == b.object
        && a.verb != b.verb
        && !(a.verb.as_deref().is_some_and(is_verb) && b.verb.as_deref().is_some_and(is_verb))
        && restates(a, b)
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
    let (inter, union) = overlap_besides_names(a, b);
    !(inter >= 2 && inter as f64 > RESTATED * union as f64)
}

/// The concepts two descriptions share, and all they name, once the words of both names are
/// set aside.
fn overlap_besides_names(a: &Role, b: &Role) -> (usize, usize) {
    overlap_besides(a, b, false)
}

/// [`overlap_besides_names`], also setting aside (with `marked`) the concepts
/// [`Role::mark_boilerplate`] marked.
fn overlap_besides(a: &Role, b: &Role, marked: bool) -> (usize, usize) {
    // Called for many pairs of a large catalog: concepts worked out per tool, compared as
    // sorted lists of borrowed strings (no set or string built per pair).
    fn rest<'x>(x: &'x Role, a: &Role, b: &Role, marked: bool) -> Vec<&'x str> {
        let mut v: Vec<&str> = x
            .stem_concepts
            .iter()
            .enumerate()
            .filter(|(i, _)| !(marked && x.boilerplate.get(*i) == Some(&true)))
            .map(|(_, sc)| sc)
            .filter(|(s, _)| !a.name_stems.contains(s) && !b.name_stems.contains(s))
            .map(|(_, c)| c.as_str())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
    let (ra, rb) = (rest(a, a, b, marked), rest(b, a, b, marked));
    let inter = ra.iter().filter(|c| rb.binary_search(c).is_ok()).count();
    (inter, ra.len() + rb.len() - inter)
}

/// Two descriptions that say the same thing once the words of both names are set aside: at
/// least [`RESTATES_MIN`] concepts, overlapping (Jaccard) by at least [`RESTATES`]. Catches
/// a synonym pair such as `count_orders` "Count the orders placed by a customer …" next to
/// `tally_orders` "Tally the orders placed by a customer …", which word overlap alone scores
/// low (the names' distinct verbs weigh most).
pub(crate) fn restates(a: &Role, b: &Role) -> bool {
    restated(a, b, false)
}

/// [`restates`] once the catalog's boilerplate ([`Role::mark_boilerplate`]) is set aside:
/// concepts that many of its descriptions share ("Use this for a collection of resources;
/// choose the corresponding get tool …" in every listing tool of a server) say nothing about
/// what one tool does.
pub(crate) fn restates_besides(a: &Role, b: &Role) -> bool {
    restated(a, b, true)
}

fn restated(a: &Role, b: &Role, marked: bool) -> bool {
    let (inter, union) = overlap_besides(a, b, marked);
    inter >= RESTATES_MIN && inter as f64 >= RESTATES * union as f64
}

/// Concepts two descriptions must share for [`restates`].
const RESTATES_MIN: usize = 4;
/// Overlap for [`restates`].
const RESTATES: f64 = 0.9;

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

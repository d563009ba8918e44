//! TG032's one-letter slips: names one edit apart found from the names alone (hashed
//! one-deletion neighbourhoods, linear in the catalog), and when such a pair is a slip rather
//! than a numbering or another verb.

use crate::catalog::Tool;
use crate::text;

/// True when `a` becomes `b` by inserting, deleting or replacing one character.
pub(super) fn one_edit_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    match long.len() - short.len() {
        0 => short.iter().zip(&long).filter(|(x, y)| x != y).count() == 1,
        1 => {
            let i = short.iter().zip(&long).take_while(|(x, y)| x == y).count();
            short[i..] == long[i + 1..]
        }
        _ => false,
    }
}

/// True when the two names differ in exactly one word, and there only by a plural `s` or by
/// one letter of a word of five letters or more that is not a different verb (`team` /
/// `teams`, `ledgre` / `ledger`; never `get` / `set`, `read` / `reap`, or numbers such as
/// `report_00014` / `report_00011`).
pub(super) fn one_word_slip(a: &str, b: &str) -> bool {
    let (wa, wb) = (text::name_words(a), text::name_words(b));
    if wa.len() != wb.len() {
        return false;
    }
    let mut differ = wa
        .iter()
        .zip(&wb)
        .filter(|(x, y)| !x.eq_ignore_ascii_case(y));
    let (Some((x, y)), None) = (differ.next(), differ.next()) else {
        return false;
    };
    let (x, y) = (x.to_lowercase(), y.to_lowercase());
    let plural = x.len().abs_diff(y.len()) == 1
        && (x.strip_suffix('s') == Some(y.as_str()) || y.strip_suffix('s') == Some(x.as_str()));
    // A digit that differs is a numbering (`report_00014`, `report_00011`), not a slip.
    let letters = |w: &str| w.chars().all(char::is_alphabetic);
    if !letters(&x) || !letters(&y) {
        return false;
    }
    let verbs = |w: &str| text::verb_class_of(&text::stem(w));
    let other_verb = matches!((verbs(&x), verbs(&y)), (Some(p), Some(q)) if p != q);
    plural || (x.len().min(y.len()) >= 5 && one_edit_apart(&x, &y) && !other_verb)
}

/// Share of description words two tools have in common (Jaccard over stemmed words) from
/// which names one letter apart are a slip: "a team's members and roles" and "a team's
/// members and permissions" share 0.8.
pub(super) const SLIP_SHARED: f64 = 0.6;

/// Most tools one deletion bucket may hold before it is skipped: names that differ in one
/// character by the hundred (`tool_0001` … `tool_0999`) are a numbering, not a slip, and the
/// bound keeps the pair count linear.
const MAX_BUCKET: usize = 32;

/// Pairs (later, earlier) of tools whose lower-cased names are one edit apart, found through
/// one-deletion neighbourhoods: a name and each of its one-character deletions are keys, and
/// two names one insertion, deletion or substitution apart share a key.
pub(super) fn slip_candidates(tools: &[&Tool]) -> Vec<(usize, usize)> {
    use std::hash::{Hash, Hasher};
    // (hash of a key, tool): sorted, runs of one hash are a bucket. A hash shared by chance is
    // weeded out by the edit check the caller makes on every pair.
    let mut keys: Vec<(u64, u32)> = Vec::new();
    let hash = |chars: &mut dyn Iterator<Item = char>| {
        let mut h = std::hash::DefaultHasher::new();
        for c in chars {
            c.hash(&mut h);
        }
        h.finish()
    };
    for (i, t) in tools.iter().enumerate() {
        let chars: Vec<char> = t.name().to_lowercase().chars().collect();
        if !(5..=64).contains(&chars.len()) {
            continue;
        }
        let i = i as u32;
        keys.push((hash(&mut chars.iter().copied()), i));
        for k in 0..chars.len() {
            // Names that differ in a digit are numbered, never a slip: no key for them.
            if !chars[k].is_alphabetic() {
                continue;
            }
            keys.push((
                hash(&mut chars[..k].iter().chain(&chars[k + 1..]).copied()),
                i,
            ));
        }
    }
    keys.sort_unstable();
    keys.dedup();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for bucket in keys.chunk_by(|a, b| a.0 == b.0) {
        if bucket.len() < 2 || bucket.len() > MAX_BUCKET {
            continue;
        }
        for (x, &(_, i)) in bucket.iter().enumerate() {
            for &(_, j) in &bucket[x + 1..] {
                let (i, j) = (i as usize, j as usize);
                if i != j {
                    pairs.push((i.max(j), i.min(j)));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Jaccard similarity of the two descriptions' stemmed words.
pub(super) fn shared_words(a: &Tool, b: &Tool) -> f64 {
    let words = |t: &Tool| -> std::collections::HashSet<String> {
        text::words_iter(t.description().unwrap_or(""))
            .map(|w| text::stem(&w))
            .collect()
    };
    let (wa, wb) = (words(a), words(b));
    let union = wa.union(&wb).count();
    if union == 0 {
        return 0.0;
    }
    wa.intersection(&wb).count() as f64 / union as f64
}

//! Argument values: whether what a model passed matches what a task expects — canonical
//! dates and times of day, case- and space-insensitive text (paths and code keep their case),
//! lists in any order, nested objects; free text may sit inside a longer value unless a
//! negation turns it around; identifiers, emails and dates must match exactly.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::{Map, Value};

/// Differences between expected and actual arguments (empty when every expected value matches).
pub(crate) fn compare_args(
    want: &Map<String, Value>,
    got: &Map<String, Value>,
    schema: Option<&Value>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (k, w) in want {
        let prop = schema
            .and_then(|s| s.get("properties"))
            .and_then(|p| p.get(k));
        match got.get(k) {
            None => out.push(format!("`{k}` missing (expected {w})")),
            Some(g) if !values_match(w, g, k, prop) => {
                out.push(format!("`{k}`: expected {w}, got {g}"));
            }
            Some(_) => {}
        }
    }
    out
}

static EMAIL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[^@\s]+@[^@\s]+\.[^@\s]+$").expect("regex"));
static UUID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new("(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$").expect("regex")
});
static DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|z|[+-]\d{2}:?\d{2})?)?$")
        .expect("regex")
});

/// Seconds since 1970-01-01T00:00Z of an ISO 8601 date or date-time (UTC when no offset),
/// with a flag telling whether a time of day was given.
pub(crate) fn parse_instant(s: &str) -> Option<(i64, bool)> {
    let c = DATE.captures(s.trim())?;
    let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<i64>().ok());
    let (y, m, d) = (num(1)?, num(2)?, num(3)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm).
    let yy = if m <= 2 { y - 1 } else { y };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let timed = c.get(4).is_some();
    let (hh, mi, ss) = (
        num(4).unwrap_or(0),
        num(5).unwrap_or(0),
        num(6).unwrap_or(0),
    );
    if hh > 23 || mi > 59 || ss > 60 {
        return None;
    }
    let mut seconds = days * 86_400 + hh * 3600 + mi * 60 + ss;
    if let Some(off) = c
        .get(7)
        .map(|m| m.as_str())
        .filter(|o| !o.eq_ignore_ascii_case("z"))
    {
        let sign = if off.starts_with('-') { -1 } else { 1 };
        let digits: String = off.chars().filter(char::is_ascii_digit).collect();
        let h: i64 = digits.get(..2)?.parse().ok()?;
        let mm: i64 = digits.get(2..4)?.parse().ok()?;
        seconds -= sign * (h * 3600 + mm * 60);
    }
    Some((seconds, timed))
}

fn norm_text(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whitespace runs folded to one space, case kept.
fn norm_space(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

static TIME_OF_DAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(\d{1,2})(?::(\d{2}))(?::(\d{2}))?\s*([ap]\.?m\.?)?$").expect("regex")
});

/// A time of day as seconds after midnight: `9:00` = `09:00` = `9:00 am`, `9:30 pm` = `21:30`.
fn time_of_day(s: &str) -> Option<u32> {
    let c = TIME_OF_DAY.captures(s.trim())?;
    let num = |i: usize| c.get(i).map_or(Some(0), |m| m.as_str().parse::<u32>().ok());
    let (mut h, m, sec) = (num(1)?, num(2)?, num(3)?);
    if let Some(half) = c.get(4) {
        let pm = half.as_str().to_ascii_lowercase().starts_with('p');
        if !(1..=12).contains(&h) {
            return None;
        }
        h = match (h, pm) {
            (12, false) => 0,
            (12, true) => 12,
            (h, true) => h + 12,
            (h, false) => h,
        };
    }
    (h <= 23 && m <= 59 && sec <= 60).then_some(h * 3600 + m * 60 + sec)
}

/// Values whose case is meaning: paths (`/src/Main.rs` is not `/src/main.rs`), code, shell
/// commands, patterns, branches and refs.
fn case_sensitive(key: &str, want: &str) -> bool {
    const KEYS: &[&str] = &[
        "path",
        "file",
        "filename",
        "filepath",
        "dir",
        "directory",
        "code",
        "command",
        "cmd",
        "script",
        "regex",
        "pattern",
        "expression",
        "sql",
        "branch",
        "ref",
        "sha",
        "selector",
    ];
    let k = key.to_lowercase();
    let w = want.trim();
    let pathlike = !w.contains(char::is_whitespace)
        && (w.starts_with('/')
            || w.starts_with("~/")
            || w.starts_with("./")
            || w.contains('/')
            || w.contains('\\'));
    pathlike
        || KEYS.iter().any(|f| {
            k == *f
                || k.ends_with(&format!("_{f}"))
                || k.ends_with(&format!("_{f}s"))
                || key.ends_with(&format!("{}{}", f[..1].to_uppercase(), &f[1..]))
        })
}

/// Values a tool matches byte for byte, as their role implies: the text an edit replaces or
/// inserts (`oldText`, `old_string`, `new_str`, a search-and-replace pair), a patch or diff,
/// or any parameter whose schema description says it must match exactly or verbatim.
/// Case, spaces and line breaks are meaning there.
fn verbatim(key: &str, schema: Option<&Value>) -> bool {
    const KEYS: &[&str] = &[
        "oldtext",
        "old_text",
        "oldstring",
        "old_string",
        "oldstr",
        "old_str",
        "newtext",
        "new_text",
        "newstring",
        "new_string",
        "newstr",
        "new_str",
        "search_text",
        "replace_text",
        "find_text",
        "replacement_text",
        "patch",
        "diff",
    ];
    static EXACT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(must|should|has to|needs to)\s+(be\s+)?match(es)?\s+exactly|\bexact(ly)?\s+(match|text|string|copy|content)|\bverbatim\b|byte[ -]for[ -]byte|character[ -]for[ -]character|including (all )?(whitespace|indentation)")
            .expect("regex")
    });
    let k = key.to_lowercase();
    KEYS.contains(&k.as_str())
        || schema
            .and_then(|s| s.get("description"))
            .and_then(Value::as_str)
            .is_some_and(|d| EXACT.is_match(d))
}

/// `got` holds `want` only under a negation `want` does not have: "do not include drafts"
/// for "include drafts", "without attachments" for "attachments".
fn negates(got: &str, want: &str) -> bool {
    const NEG: &[&str] = &[
        "not",
        "no",
        "never",
        "without",
        "except",
        "excluding",
        "exclude",
        "don't",
        "dont",
        "doesn't",
        "isn't",
        "aren't",
        "nor",
        "neither",
        "non",
    ];
    let neg_in = |t: &str| {
        t.split_whitespace()
            .any(|w| NEG.contains(&w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')))
    };
    if neg_in(want) {
        return false;
    }
    got.match_indices(want).all(|(i, _)| {
        let before: Vec<&str> = got[..i].split_whitespace().rev().take(3).collect();
        before
            .iter()
            .any(|w| NEG.contains(&w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')))
    })
}

/// Whether a string value is an identifier-like value that must match exactly.
fn exact_kind(key: &str, schema: Option<&Value>, want: &str) -> bool {
    let fmt = schema
        .and_then(|s| s.get("format"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let k = key.to_lowercase();
    matches!(
        fmt,
        "email" | "uuid" | "uri" | "url" | "hostname" | "ipv4" | "ipv6"
    ) || schema.is_some_and(|s| s.get("enum").is_some() || s.get("pattern").is_some())
        || k == "id"
        || k.ends_with("_id")
        || k.ends_with("id") && key.ends_with("Id")
        || k.ends_with("ids")
        || EMAIL.is_match(want)
        || UUID.is_match(want)
        || (!want.contains(char::is_whitespace)
            && want.chars().any(|c| c.is_ascii_digit())
            && want.len() >= 4)
}

/// Whether a value is free text that may sit inside a longer value: a message, a body, a
/// query, a title — or any value of three words or more. Names, enums, statuses and other
/// short values compare whole ("paid" is not "unpaid", "Ann" is not "Joanne").
fn free_text(key: &str, want: &str) -> bool {
    const FREE: &[&str] = &[
        "message",
        "body",
        "text",
        "content",
        "query",
        "q",
        "search",
        "prompt",
        "description",
        "notes",
        "note",
        "comment",
        "summary",
        "title",
        "subject",
        "agenda",
        "reason",
    ];
    let k = key.to_lowercase();
    FREE.iter()
        .any(|f| k == *f || k.ends_with(&format!("_{f}")))
        || want.split_whitespace().count() >= 3
}

/// `hay` holds `needle` as whole words.
fn contains_words(hay: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Whether `got` matches `want` for argument `key` (schema `schema`, when known).
pub(crate) fn values_match(want: &Value, got: &Value, key: &str, schema: Option<&Value>) -> bool {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            let props = schema.and_then(|s| s.get("properties"));
            w.iter().all(|(k, wv)| {
                g.get(k)
                    .is_some_and(|gv| values_match(wv, gv, k, props.and_then(|p| p.get(k))))
            })
        }
        (Value::Array(w), Value::Array(g)) => {
            if w.len() != g.len() {
                return false;
            }
            let items = schema.and_then(|s| s.get("items"));
            let mut used = vec![false; g.len()];
            w.iter().all(|wv| {
                let hit = g
                    .iter()
                    .enumerate()
                    .find(|(i, gv)| !used[*i] && values_match(wv, gv, key, items));
                match hit {
                    Some((i, _)) => {
                        used[i] = true;
                        true
                    }
                    None => false,
                }
            })
        }
        (Value::Number(w), Value::Number(g)) => match (w.as_f64(), g.as_f64()) {
            (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a.abs().max(1.0),
            _ => w == g,
        },
        (Value::Number(w), Value::String(g)) => g.trim().parse::<f64>().ok() == w.as_f64(),
        (Value::String(w), Value::String(g)) => {
            if let (Some((a, ta)), Some((b, tb))) = (parse_instant(w), parse_instant(g)) {
                return ta == tb && a == b;
            }
            if EMAIL.is_match(w.trim()) {
                return w.trim().eq_ignore_ascii_case(g.trim());
            }
            if let (Some(a), Some(b)) = (time_of_day(w), time_of_day(g)) {
                return a == b;
            }
            if verbatim(key, schema) {
                return w == g;
            }
            if case_sensitive(key, w) {
                return norm_space(w) == norm_space(g);
            }
            if exact_kind(key, schema, w) {
                let enum_like = schema.is_some_and(|s| s.get("enum").is_some());
                return if enum_like {
                    w.trim().eq_ignore_ascii_case(g.trim())
                } else {
                    w.trim() == g.trim()
                };
            }
            let (w, g) = (norm_text(w), norm_text(g));
            w == g || (free_text(key, &w) && contains_words(&g, &w) && !negates(&g, &w))
        }
        (w, g) => w == g,
    }
}

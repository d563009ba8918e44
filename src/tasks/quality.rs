//! Checks on written requests (by an LLM or a person): an echoed prompt or instruction is not
//! a request, a request that omits the values it must be solved with is not solvable, and two
//! requests with the same words are one task counted twice.

use serde_json::{Map, Value};

use crate::text;

/// Phrases of the writer's own prompt: a request that carries them echoed the instructions.
const INSTRUCTION_MARKS: &[&str] = &[
    "write one request",
    "mention every value",
    "do not name the tool",
    "an assistant has a tool",
    "with exactly these arguments",
    "quote its description",
    "as an ai",
    "here is a request",
    "here's a request",
    "user request:",
    "request:",
];

/// Why `request` looks like an echo of `prompt` (the writer's instructions), if it does: an
/// instruction phrase, a JSON object, or eight words in a row taken from the prompt.
pub(crate) fn echoed(request: &str, prompt: &str) -> Option<String> {
    let lower = request.to_lowercase();
    if let Some(m) = INSTRUCTION_MARKS.iter().find(|m| lower.contains(*m)) {
        return Some(format!("it repeats the writer's instructions (\"{m}\")"));
    }
    if request.contains("{\"") || request.contains("\":") {
        return Some("it contains the arguments as JSON".into());
    }
    let rw = text::words(request);
    let pw = text::words(prompt);
    const RUN: usize = 8;
    if rw.len() >= RUN {
        let shingles: std::collections::HashSet<String> =
            pw.windows(RUN).map(|w| w.join(" ")).collect();
        if rw.windows(RUN).any(|w| shingles.contains(&w.join(" "))) {
            return Some(format!("{RUN} words in a row come from the prompt"));
        }
    }
    None
}

/// Expected argument values the request never mentions, so no model could pass them. Dates
/// and times may be written in many ways and are not checked; long free text need only be
/// present in part (its first three words).
pub(crate) fn missing_values(request: &str, args: &Map<String, Value>) -> Vec<String> {
    let lower = request.to_lowercase();
    let mut out = Vec::new();
    let mut check = |key: &str, v: &Value| match v {
        Value::String(s) => {
            let s = s.trim();
            if s.is_empty() || crate::score::values::parse_instant(s).is_some() {
                return;
            }
            let words: Vec<&str> = s.split_whitespace().collect();
            let probe = if words.len() > 3 {
                words[..3].join(" ")
            } else {
                s.to_string()
            };
            if !lower.contains(&probe.to_lowercase()) {
                out.push(format!("`{key}` = {s:?}"));
            }
        }
        Value::Number(n) => {
            let t = n.to_string();
            if !lower.contains(&t) {
                out.push(format!("`{key}` = {t}"));
            }
        }
        _ => {}
    };
    for (k, v) in args {
        match v {
            Value::Array(items) => items.iter().for_each(|i| check(k, i)),
            other => check(k, other),
        }
    }
    out
}

/// The request's words, sorted and without numbers: two requests with the same shape say the
/// same thing about other values.
pub(crate) fn shape(request: &str) -> String {
    let mut w: Vec<String> = text::words(request)
        .into_iter()
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .collect();
    w.sort();
    w.dedup();
    w.join(" ")
}

/// Near duplicates: the same shape, or word sets that overlap by 90% or more (Jaccard).
pub(crate) fn near_duplicate(a: &str, b: &str) -> bool {
    let (sa, sb) = (shape(a), shape(b));
    if sa == sb {
        return true;
    }
    let wa: std::collections::HashSet<&str> = sa.split(' ').collect();
    let wb: std::collections::HashSet<&str> = sb.split(' ').collect();
    let inter = wa.intersection(&wb).count() as f64;
    let union = wa.union(&wb).count() as f64;
    union > 0.0 && inter / union >= 0.9
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn echoes_and_missing_values_are_caught() {
        let prompt = "An assistant has a tool described as: \"Reserve a meeting room\". Write one request a user would type that makes the assistant call it with exactly these arguments: {\"room\":\"Vega\"}. Mention every value.";
        assert!(echoed("Write one request a user would type: book Vega", prompt).is_some());
        assert!(echoed("Book {\"room\":\"Vega\"} now", prompt).is_some());
        assert!(echoed("Please book the Vega room at noon", prompt).is_none());
        let args = json!({"room": "Vega", "size": 8, "start": "2026-05-08T12:00:00Z"});
        let args = args.as_object().unwrap();
        assert!(missing_values("Book Vega for 8 people at noon on May 8", args).is_empty());
        let miss = missing_values("Book a room for 8 people", args);
        assert_eq!(miss, vec!["`room` = \"Vega\"".to_string()]);
        assert!(near_duplicate(
            "Book Vega for 8 people",
            "book vega for 10 people"
        ));
        assert!(!near_duplicate(
            "Book Vega for 8 people",
            "Cancel my dentist appointment"
        ));
    }
}

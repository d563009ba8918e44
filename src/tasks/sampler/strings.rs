//! Sampling strings: formats (date, email, uri, uuid…), name-aware vocabulary, `pattern`s
//! (generated with rand_regex), min/maxLength.

use rand::{Rng, RngExt};
use serde_json::{Map, Value};

use super::{Gen, MAX_BYTES, MAX_STRING, count};
use crate::tasks::vocab;

impl<R: Rng> Gen<'_, R> {
    /// A string matching `pattern` (anchors dropped: the whole string matches).
    pub(super) fn string_matching(&mut self, pattern: &str, name: &str) -> Result<String, String> {
        let hir = regex_syntax::Parser::new()
            .parse(pattern)
            .map_err(|e| format!("`{name}`: cannot parse pattern `{pattern}`: {e}"))?;
        let generator = rand_regex::Regex::with_hir(without_anchors(hir), 6).map_err(|e| {
            format!("`{name}`: cannot generate strings for pattern `{pattern}`: {e}")
        })?;
        let v: String = self.rng.sample(&generator);
        self.bytes += v.len();
        Ok(v)
    }

    pub(super) fn string(&mut self, s: &Map<String, Value>, name: &str) -> Result<Value, String> {
        if let Some(d) = s.get("default").filter(|d| d.is_string())
            && self.chance(0.3)
        {
            return Ok(d.clone());
        }
        let fmt = s.get("format").and_then(Value::as_str).unwrap_or("");
        let mut v = match fmt {
            "date" => vocab::date(self.rng),
            "date-time" => vocab::date_time(self.rng),
            "time" => vocab::time(self.rng),
            "email" | "idn-email" => vocab::email(self.rng),
            "uri" | "url" | "iri" | "uri-reference" => {
                format!("https://example.com/{}", vocab::identifier(self.rng, name))
            }
            "uuid" => vocab::uuid(self.rng),
            "hostname" | "idn-hostname" => format!(
                "{}.example.com",
                vocab::identifier(self.rng, name).replace('_', "-")
            ),
            "ipv4" => format!("192.0.2.{}", self.rng.random_range(1..255u32)),
            "ipv6" => format!("2001:db8::{:x}", self.rng.random_range(1..65535u32)),
            _ => vocab::string_for(self.rng, name),
        };
        if let Some(p) = s.get("pattern").and_then(Value::as_str) {
            let re = regex::Regex::new(p)
                .map_err(|e| format!("`{name}` has a pattern the regex engine rejects: {e}"))?;
            if !re.is_match(&v) {
                let hir = regex_syntax::Parser::new()
                    .parse(p)
                    .map_err(|e| format!("`{name}`: cannot parse pattern `{p}`: {e}"))?;
                let generator =
                    rand_regex::Regex::with_hir(without_anchors(hir), 6).map_err(|e| {
                        format!("`{name}`: cannot generate strings for pattern `{p}`: {e}")
                    })?;
                v = self.rng.sample(&generator);
            }
        }
        let min = count(s, "minLength").unwrap_or(0);
        let max = count(s, "maxLength");
        if min > MAX_STRING {
            return Err(format!(
                "`{name}` needs at least {min} characters (minLength); toolgate samples strings of at most {MAX_STRING}"
            ));
        }
        // Pad and cut in one pass each (counting characters once, not per pushed character).
        let have = v.chars().count();
        if have < min {
            v.extend(std::iter::repeat_n('x', min - have));
        }
        if let Some(max) = max
            && have.max(min) > max
        {
            v = v.chars().take(max).collect();
        }
        self.bytes += v.len();
        if self.bytes > MAX_BYTES {
            return Err(format!(
                "`{name}`: the argument set would hold more than {MAX_BYTES} bytes of text; toolgate gives up rather than build it"
            ));
        }
        Ok(Value::String(v))
    }
}

/// The pattern with its anchors (`^`, `$`, `\b`…) removed: a string generated from the rest
/// matches the anchored pattern as a whole, which is what JSON Schema's `pattern` needs.
fn without_anchors(hir: regex_syntax::hir::Hir) -> regex_syntax::hir::Hir {
    use regex_syntax::hir::{Capture, Hir, HirKind, Repetition};
    match hir.into_kind() {
        HirKind::Look(_) => Hir::empty(),
        HirKind::Concat(v) => Hir::concat(v.into_iter().map(without_anchors).collect()),
        HirKind::Alternation(v) => Hir::alternation(v.into_iter().map(without_anchors).collect()),
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            sub: Box::new(without_anchors(*r.sub)),
            ..r
        }),
        HirKind::Capture(c) => Hir::capture(Capture {
            sub: Box::new(without_anchors(*c.sub)),
            ..c
        }),
        other => other_kind(other),
    }
}

fn other_kind(kind: regex_syntax::hir::HirKind) -> regex_syntax::hir::Hir {
    use regex_syntax::hir::{Hir, HirKind};
    match kind {
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(l) => Hir::literal(l.0),
        HirKind::Class(c) => Hir::class(c),
        _ => Hir::empty(),
    }
}

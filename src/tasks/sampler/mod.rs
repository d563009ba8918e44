//! The seeded schema sampler: concrete, schema-valid argument sets for a tool, drawn from its
//! inputSchema with realistic, name-aware values. The same seed gives the same bytes on every
//! machine (ChaCha8, integer ranges only, no hash-map iteration order).
//!
//! Honoured: type (and type lists, nullable), required vs optional, enum, const, default,
//! minimum/maximum (exclusive too), multipleOf, min/maxLength, min/maxItems, uniqueItems,
//! min/maxProperties, formats (date, date-time, time, email, uri, uuid, hostname, ipv4, ipv6),
//! pattern (via rand_regex), nested objects and arrays, prefixItems, patternProperties,
//! local `$ref` (JSON pointers and `$anchor`s, resolved by the lint's resolver), allOf/anyOf/
//! oneOf, if/then/else. Every sample is validated against the schema with the jsonschema
//! crate; a tool whose samples keep failing is reported as unsampleable with the reason.
//!
//! Hostile schemas are bounded: integers are drawn within ±2^53 (exact in JSON), strings of at
//! most [`MAX_STRING`] characters, arrays and objects of at most [`MAX_ITEMS`] entries, and at
//! most [`MAX_WORK`] values per sample; a schema that needs more is unsampleable, with a reason.

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Number, Value, json};
use sha2::{Digest, Sha256};

use super::vocab;
use crate::catalog::Tool;

const MAX_DEPTH: usize = 10;
const ATTEMPTS: u64 = 12;
/// Longest string sampled (characters).
pub const MAX_STRING: usize = 100_000;
/// Most items in a sampled array, or properties in a sampled object.
pub const MAX_ITEMS: usize = 1_000;
/// Most values (schema nodes) sampled for one argument set, and most string bytes.
pub const MAX_WORK: usize = 20_000;
const MAX_BYTES: usize = 4 * MAX_STRING;
/// Largest integer magnitude sampled: 2^53, exact as a JSON number everywhere.
const SAFE_INT: f64 = 9_007_199_254_740_992.0;

/// A deterministic generator for (seed, tool, variant).
pub fn rng_for(seed: u64, tool: &str, variant: u64) -> ChaCha8Rng {
    let digest = Sha256::digest(format!("{seed}\u{0}{tool}\u{0}{variant}").as_bytes());
    let mut bytes = [0u8; 32];
    bytes.copy_from_slice(&digest);
    ChaCha8Rng::from_seed(bytes)
}

/// Samples one valid argument object for `tool`. `Err` says why the schema cannot be sampled.
pub fn sample_args(tool: &Tool, seed: u64, variant: u64) -> Result<Map<String, Value>, String> {
    let schema = tool
        .input_schema()
        .cloned()
        .unwrap_or_else(|| json!({"type": "object"}));
    let validator = jsonschema::validator_for(&schema)
        .map_err(|e| format!("the input schema does not compile: {e}"))?;
    let mut last = String::from("no attempt made");
    for attempt in 0..ATTEMPTS {
        let mut rng = rng_for(seed, tool.name(), variant * ATTEMPTS + attempt);
        let mut g = Gen {
            root: &schema,
            rng: &mut rng,
            work: 0,
            bytes: 0,
        };
        match g.value(&schema, "", 0) {
            Ok(Value::Object(m)) => {
                let v = Value::Object(m);
                match validator.iter_errors(&v).next() {
                    None => return Ok(v.as_object().cloned().unwrap_or_default()),
                    Some(e) => {
                        last = format!("a sample failed validation at `{}`: {e}", e.instance_path())
                    }
                }
            }
            Ok(other) => {
                return Err(format!(
                    "the input schema does not describe an object (sampled {other})"
                ));
            }
            Err(e) => return Err(e),
        }
    }
    Err(format!(
        "no valid sample in {ATTEMPTS} attempts; last: {last}"
    ))
}

struct Gen<'a, R: Rng> {
    root: &'a Value,
    rng: &'a mut R,
    /// Values sampled so far, and string bytes produced (bounded by MAX_WORK, MAX_BYTES).
    work: usize,
    bytes: usize,
}

/// Resolves a local `$ref` (a JSON pointer, an `$anchor`, the root's `$id`) with the same
/// resolver the lint uses.
fn resolve<'v>(root: &'v Value, reference: &str) -> Result<&'v Value, String> {
    match crate::lint::resolve_ref(root, reference) {
        Some((_, target)) => Ok(target),
        None if reference.starts_with('#') => Err(format!("$ref `{reference}` does not resolve")),
        None => Err(format!(
            "$ref `{reference}` points outside the schema (remote references are not fetched)"
        )),
    }
}

/// A count from a schema keyword (`minLength`, `minItems`…): huge or fractional values
/// saturate instead of wrapping.
fn count(s: &Map<String, Value>, key: &str) -> Option<usize> {
    let v = s.get(key)?;
    v.as_u64()
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
        .or_else(|| {
            v.as_f64().filter(|f| f.is_finite() && *f >= 0.0).map(|f| {
                if f >= usize::MAX as f64 {
                    usize::MAX
                } else {
                    f.ceil() as usize
                }
            })
        })
}

impl<R: Rng> Gen<'_, R> {
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            0
        } else {
            self.rng.random_range(0..n as u64) as usize
        }
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    /// Merges allOf branches (and the schema's own keywords) into one object schema.
    fn merged(&self, schema: &Map<String, Value>) -> Result<Map<String, Value>, String> {
        let mut out = schema.clone();
        out.remove("allOf");
        for branch in schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let branch = match branch.get("$ref").and_then(Value::as_str) {
                Some(r) => resolve(self.root, r)?,
                None => branch,
            };
            let Some(b) = branch.as_object() else {
                continue;
            };
            let b = self.merged(b)?;
            for (k, v) in b {
                match (k.as_str(), out.get_mut(&k)) {
                    ("properties" | "patternProperties", Some(Value::Object(p))) => {
                        if let Value::Object(add) = v {
                            p.extend(add);
                        }
                    }
                    ("required", Some(Value::Array(r))) => {
                        if let Value::Array(add) = v {
                            r.extend(add);
                        }
                    }
                    (_, None) => {
                        out.insert(k, v);
                    }
                    _ => {}
                }
            }
        }
        Ok(out)
    }

    fn value(&mut self, schema: &Value, name: &str, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "the schema nests deeper than {MAX_DEPTH} levels at `{name}` (recursive without a way out?)"
            ));
        }
        self.work += 1;
        if self.work > MAX_WORK || self.bytes > MAX_BYTES {
            return Err(format!(
                "the schema asks for more than {MAX_WORK} values or {MAX_BYTES} bytes of text in one argument set (at `{name}`): toolgate gives up rather than build it"
            ));
        }
        let s = match schema {
            Value::Bool(true) => return Ok(Value::String(vocab::string_for(self.rng, name))),
            Value::Bool(false) => {
                return Err(format!(
                    "`{name}` has the schema `false`: no value is valid"
                ));
            }
            Value::Object(m) => m,
            _ => return Err(format!("`{name}` has a schema that is not an object")),
        };
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let target = resolve(self.root, r)?;
            let mut rest = s.clone();
            rest.remove("$ref");
            if rest
                .keys()
                .all(|k| matches!(k.as_str(), "description" | "title" | "$comment"))
            {
                return self.value(target, name, depth + 1);
            }
            if let Some(t) = target.as_object() {
                let mut combined = t.clone();
                combined.extend(rest);
                return self.value(&Value::Object(combined), name, depth + 1);
            }
        }
        if let Some(c) = s.get("const") {
            return Ok(c.clone());
        }
        if let Some(e) = s.get("enum").and_then(Value::as_array) {
            let options: Vec<&Value> = e.iter().filter(|v| !v.is_null()).collect();
            let pool: Vec<&Value> = if options.is_empty() {
                e.iter().collect()
            } else {
                options
            };
            if pool.is_empty() {
                return Err(format!("`{name}` has an empty enum"));
            }
            return Ok(pool[self.below(pool.len())].clone());
        }
        if let Some(cond) = s.get("if") {
            // Sample a value that satisfies `if` and `then` (so `then` applies and holds);
            // failing that, one for `else`. The sample is validated afterwards either way.
            let mut base = s.clone();
            let then = base.remove("then");
            let otherwise = base.remove("else");
            base.remove("if");
            let with = |extra: Vec<Value>| {
                let mut b = base.clone();
                let mut all = b
                    .get("allOf")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                all.extend(extra);
                b.insert("allOf".into(), Value::Array(all));
                Value::Object(b)
            };
            let first = with(vec![cond.clone(), then.unwrap_or(Value::Bool(true))]);
            return match self.value(&first, name, depth + 1) {
                Ok(v) => Ok(v),
                Err(e) => match otherwise {
                    Some(o) => self.value(&with(vec![o]), name, depth + 1),
                    None => Err(e),
                },
            };
        }
        if s.contains_key("allOf") {
            let merged = self.merged(s)?;
            return self.value(&Value::Object(merged), name, depth + 1);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(branches) = s.get(key).and_then(Value::as_array) {
                if branches.is_empty() {
                    return Err(format!("`{name}` has an empty {key}"));
                }
                let start = self.below(branches.len());
                let mut last = String::new();
                for i in 0..branches.len() {
                    let b = &branches[(start + i) % branches.len()];
                    if b.get("type").and_then(Value::as_str) == Some("null") && branches.len() > 1 {
                        continue;
                    }
                    let mut merged = s.clone();
                    merged.remove(key);
                    if let Some(bo) = b.as_object() {
                        merged.extend(bo.clone());
                    }
                    match self.value(&Value::Object(merged), name, depth + 1) {
                        Ok(v) => return Ok(v),
                        Err(e) => last = e,
                    }
                }
                return Err(last);
            }
        }
        let ty = match s.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(ts)) => {
                let non_null: Vec<&str> = ts
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|t| *t != "null")
                    .collect();
                if non_null.is_empty() {
                    "null".into()
                } else {
                    non_null[self.below(non_null.len())].to_string()
                }
            }
            _ => infer_type(s).to_string(),
        };
        match ty.as_str() {
            "object" => self.object(s, name, depth),
            "array" => self.array(s, name, depth),
            "string" => self.string(s, name),
            "integer" => self.number(s, name, true),
            "number" => self.number(s, name, false),
            "boolean" => Ok(Value::Bool(self.chance(0.5))),
            "null" => Ok(Value::Null),
            other => Err(format!("`{name}` has an unknown type `{other}`")),
        }
    }

    fn object(
        &mut self,
        s: &Map<String, Value>,
        name: &str,
        depth: usize,
    ) -> Result<Value, String> {
        let empty = Map::new();
        let props = s
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: Vec<String> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let min_props = count(s, "minProperties").unwrap_or(0);
        let max_props = count(s, "maxProperties");
        if min_props > MAX_ITEMS {
            return Err(format!(
                "`{name}` needs at least {min_props} properties (minProperties); toolgate samples at most {MAX_ITEMS}"
            ));
        }
        let mut out = Map::new();
        for (k, v) in props {
            let is_required = required.contains(k);
            let room = max_props.is_none_or(|m| out.len() < m);
            if is_required || (room && (out.len() < min_props || self.chance(0.5))) {
                match self.value(v, k, depth + 1) {
                    Ok(val) => {
                        out.insert(k.clone(), val);
                    }
                    Err(e) if is_required => return Err(e),
                    Err(_) => {}
                }
            }
        }
        for k in &required {
            if !out.contains_key(k) {
                let extra = s
                    .get("additionalProperties")
                    .filter(|a| a.is_object())
                    .cloned()
                    .unwrap_or(Value::Bool(true));
                out.insert(k.clone(), self.value(&extra, k, depth + 1)?);
            }
        }
        // Reach minProperties with names the schema allows: patternProperties first (a name
        // drawn from the pattern), then additionalProperties unless it is `false`.
        let patterns: Vec<(&String, &Value)> = s
            .get("patternProperties")
            .and_then(Value::as_object)
            .map(|m| m.iter().collect())
            .unwrap_or_default();
        let additional = s.get("additionalProperties").cloned();
        let mut tries = 0usize;
        while out.len() < min_props && tries < min_props.saturating_mul(4) + 8 {
            tries += 1;
            let (key, schema) = if !patterns.is_empty() {
                let (pattern, schema) = patterns[self.below(patterns.len())];
                (self.string_matching(pattern, name)?, schema.clone())
            } else if additional
                .as_ref()
                .is_some_and(|a| *a == Value::Bool(false))
            {
                break;
            } else {
                let key = format!(
                    "{}_{}",
                    if name.is_empty() { "extra" } else { name },
                    out.len() + 1
                );
                (key, additional.clone().unwrap_or(Value::Bool(true)))
            };
            if out.contains_key(&key) || props.contains_key(&key) {
                continue;
            }
            let v = self.value(&schema, &key, depth + 1)?;
            out.insert(key, v);
        }
        if out.len() < min_props {
            return Err(format!(
                "`{name}` needs {min_props} properties (minProperties) but its schema allows only {} here",
                out.len()
            ));
        }
        Ok(Value::Object(out))
    }

    /// A string matching `pattern` (anchors dropped: the whole string matches).
    fn string_matching(&mut self, pattern: &str, name: &str) -> Result<String, String> {
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

    fn array(&mut self, s: &Map<String, Value>, name: &str, depth: usize) -> Result<Value, String> {
        let min = count(s, "minItems").unwrap_or(1);
        if min > MAX_ITEMS {
            return Err(format!(
                "`{name}` needs at least {min} items (minItems); toolgate samples at most {MAX_ITEMS}"
            ));
        }
        let max = count(s, "maxItems").unwrap_or(min.max(1) + 1).max(min);
        let len = min + self.below(max - min + 1).min(2);
        let prefix: Vec<&Value> = s
            .get("prefixItems")
            .and_then(Value::as_array)
            .map(|a| a.iter().collect())
            .unwrap_or_default();
        let item = s.get("items").filter(|i| i.is_object() || i.is_boolean());
        let singular = name.strip_suffix('s').unwrap_or(name);
        let unique = s
            .get("uniqueItems")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let mut out: Vec<Value> = Vec::new();
        let mut tries = 0;
        while out.len() < len && tries < len * 8 + 8 {
            tries += 1;
            let schema = prefix
                .get(out.len())
                .copied()
                .or(item)
                .cloned()
                .unwrap_or(Value::Bool(true));
            let v = self.value(&schema, singular, depth + 1)?;
            if unique && out.contains(&v) {
                continue;
            }
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn string(&mut self, s: &Map<String, Value>, name: &str) -> Result<Value, String> {
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

    fn number(
        &mut self,
        s: &Map<String, Value>,
        name: &str,
        integer: bool,
    ) -> Result<Value, String> {
        let f = |k: &str| s.get(k).and_then(Value::as_f64);
        let lower_name = name.to_lowercase();
        let (dlo, dhi): (f64, f64) = if lower_name.contains("year") {
            (2020.0, 2030.0)
        } else if lower_name.contains("minute") || lower_name.contains("duration") {
            (15.0, 120.0)
        } else if lower_name.contains("page")
            || lower_name.contains("count")
            || lower_name.contains("limit")
            || lower_name.contains("max")
        {
            (1.0, 20.0)
        } else {
            (1.0, 100.0)
        };
        // Draft 4 writes exclusive bounds as booleans beside minimum/maximum.
        let flag = |k: &str| s.get(k).and_then(Value::as_bool).unwrap_or(false);
        // The tighter of the inclusive and the exclusive bound on each side (draft-4 booleans
        // make `minimum`/`maximum` themselves exclusive).
        let tighter = |a: Option<(f64, bool)>, b: Option<(f64, bool)>, lower: bool| match (a, b) {
            (Some(x), Some(y)) if x.0 == y.0 => Some((x.0, x.1 || y.1)),
            (Some(x), Some(y)) => Some(if (x.0 > y.0) == lower { x } else { y }),
            (x, y) => x.or(y),
        };
        let lower = tighter(
            f("minimum").map(|v| (v, flag("exclusiveMinimum"))),
            f("exclusiveMinimum").map(|v| (v, true)),
            true,
        );
        let upper = tighter(
            f("maximum").map(|v| (v, flag("exclusiveMaximum"))),
            f("exclusiveMaximum").map(|v| (v, true)),
            false,
        );
        // A side the schema leaves open gets a realistic default on the right side of the other.
        let ((lo, lo_open), (hi, hi_open)) = match (lower, upper) {
            (Some(l), Some(u)) => (l, u),
            (Some(l), None) => (l, (if l.0 < dhi { dhi } else { l.0 + (dhi - dlo) }, false)),
            (None, Some(u)) => ((if u.0 > dlo { dlo } else { u.0 - (dhi - dlo) }, false), u),
            (None, None) => ((dlo, false), (dhi, false)),
        };
        if lo > hi || (lo == hi && (lo_open || hi_open)) {
            return Err(format!("`{name}` has an empty numeric range [{lo}, {hi}]"));
        }
        if integer {
            return self.integer(s, name, (lo, lo_open), (hi, hi_open));
        }
        // Keep the span finite: a range like [-1e308, 1e308] is sampled within ±2^53.
        let (lo, lo_open) = if lo < -SAFE_INT {
            (-SAFE_INT, false)
        } else {
            (lo, lo_open)
        };
        let (hi, hi_open) = if hi > SAFE_INT {
            (SAFE_INT, false)
        } else {
            (hi, hi_open)
        };
        if lo > hi {
            return Err(format!(
                "`{name}`: its range [{lo}, {hi}] lies beyond ±2^53; toolgate does not sample numbers that large"
            ));
        }
        let inside = |v: f64| {
            v.is_finite()
                && (if lo_open { v > lo } else { v >= lo })
                && (if hi_open { v < hi } else { v <= hi })
        };
        let steps = 1000u64;
        // With an open end, draw strictly inside: t in (0, 1).
        let t = if lo_open || hi_open {
            (self.rng.random_range(0..=steps) as f64 + 1.0) / (steps as f64 + 2.0)
        } else {
            self.rng.random_range(0..=steps) as f64 / steps as f64
        };
        let raw = lo + (hi - lo) * t;
        let mut v = raw;
        let fractional = [
            "price",
            "amount",
            "ratio",
            "rate",
            "lat",
            "lon",
            "lng",
            "score",
            "weight",
            "temperature",
        ]
        .iter()
        .any(|w| lower_name.contains(w));
        if let Some(m) = f("multipleOf").filter(|m| *m > 0.0 && m.is_finite()) {
            v = (v / m).round() * m;
            if !inside(v) {
                v = (v / m).ceil() * m;
            }
            if !inside(v) {
                v = ((v / m).floor() - 1.0) * m;
            }
        } else if !fractional && hi - lo >= 10.0 && inside(v.round()) {
            v = v.round();
        } else if inside((v * 100.0).round() / 100.0) {
            v = (v * 100.0).round() / 100.0;
        }
        if !inside(v) {
            v = if inside(raw) {
                raw
            } else {
                lo / 2.0 + hi / 2.0
            };
        }
        if !inside(v) {
            return Err(format!(
                "`{name}`: no number found in its range ({lo}, {hi})"
            ));
        }
        if v.fract() == 0.0 && v.abs() < 1e15 {
            return Ok(Value::Number((v as i64).into()));
        }
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| format!("`{name}`: could not make a number"))
    }
}

impl<R: Rng> Gen<'_, R> {
    /// An integer in the range, drawn within ±2^53 (a range wider than i64, or all of it, is
    /// narrowed to that instead of overflowing).
    fn integer(
        &mut self,
        s: &Map<String, Value>,
        name: &str,
        (lo, lo_open): (f64, bool),
        (hi, hi_open): (f64, bool),
    ) -> Result<Value, String> {
        let mut lo = if lo_open && lo.fract() == 0.0 {
            lo + 1.0
        } else {
            lo.ceil()
        };
        let mut hi = if hi_open && hi.fract() == 0.0 {
            hi - 1.0
        } else {
            hi.floor()
        };
        if lo > hi {
            return Err(format!("`{name}` has no integer in its range"));
        }
        lo = lo.max(-SAFE_INT);
        hi = hi.min(SAFE_INT);
        if lo > hi {
            return Err(format!(
                "`{name}`: its integer range lies beyond ±2^53; toolgate does not sample integers that large"
            ));
        }
        // Exact now: both ends are integers within ±2^53.
        let (lo, hi) = (lo as i64, hi as i64);
        let span = (hi - lo) as u64;
        let mut v = lo + self.rng.random_range(0..=span) as i64;
        if let Some(m) = s
            .get("multipleOf")
            .and_then(Value::as_f64)
            .filter(|m| *m >= 1.0 && m.fract() == 0.0 && *m <= SAFE_INT)
        {
            let m = m as i64;
            v = v.div_euclid(m) * m;
            if v < lo {
                v += m;
            }
            if v > hi {
                return Err(format!("`{name}`: no multiple of {m} in [{lo}, {hi}]"));
            }
        }
        Ok(Value::Number(v.into()))
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

fn infer_type(s: &Map<String, Value>) -> &'static str {
    if s.contains_key("properties")
        || s.contains_key("additionalProperties")
        || s.contains_key("required")
    {
        "object"
    } else if s.contains_key("items") || s.contains_key("prefixItems") {
        "array"
    } else if [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]
    .iter()
    .any(|k| s.contains_key(*k))
    {
        "number"
    } else {
        "string"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(schema: Value) -> Tool {
        Tool::from_value(json!({"name": "t", "inputSchema": schema}), "t").unwrap()
    }

    #[test]
    fn same_seed_same_bytes_other_seed_other_values() {
        let t = tool(
            json!({"type": "object", "properties": {"assignee": {"type": "string"}, "due_date": {"type": "string", "format": "date"}, "points": {"type": "integer", "minimum": 1, "maximum": 13}}, "required": ["assignee", "due_date", "points"]}),
        );
        let a = serde_json::to_string(&sample_args(&t, 7, 0).unwrap()).unwrap();
        let b = serde_json::to_string(&sample_args(&t, 7, 0).unwrap()).unwrap();
        assert_eq!(a, b);
        let others: Vec<String> = (1..6)
            .map(|s| serde_json::to_string(&sample_args(&t, s, 0).unwrap()).unwrap())
            .collect();
        assert!(others.iter().any(|o| o != &a));
    }

    #[test]
    fn honours_refs_combinators_patterns_and_bounds() {
        let t = tool(json!({
            "type": "object",
            "$defs": {"code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"}},
            "properties": {
                "ticket": {"$ref": "#/$defs/code"},
                "when": {"anyOf": [{"type": "null"}, {"type": "string", "format": "date-time"}]},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 2, "maxItems": 3, "uniqueItems": true},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                "mode": {"const": "fast"},
                "both": {"allOf": [{"type": "object", "properties": {"x": {"type": "integer", "multipleOf": 5}}, "required": ["x"]}, {"properties": {"y": {"type": "boolean"}}, "required": ["y"]}]}
            },
            "required": ["ticket", "when", "tags", "ratio", "mode", "both"]
        }));
        let code = regex::Regex::new("^[A-Z]{3}-[0-9]{4}$").unwrap();
        for seed in 0..20 {
            let v = sample_args(&t, seed, 0).unwrap();
            assert!(code.is_match(v["ticket"].as_str().unwrap()));
            assert_eq!(v["mode"], "fast");
            assert!(v["both"]["x"].as_i64().unwrap() % 5 == 0);
        }
    }

    #[test]
    fn unsampleable_schemas_say_why() {
        let e = sample_args(
            &tool(json!({"type": "object", "properties": {"x": false}, "required": ["x"]})),
            1,
            0,
        )
        .unwrap_err();
        assert!(e.contains("`false`"), "{e}");
        let e = sample_args(&tool(json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}, "required": ["n"], "$defs": {"n": {"$ref": "#/$defs/n"}}})), 1, 0).unwrap_err();
        assert!(e.contains("deeper than"), "{e}");
        let e = sample_args(&tool(json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 1}}, "required": ["n"]})), 1, 0).unwrap_err();
        assert!(e.contains("empty numeric range"), "{e}");
    }
}

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

mod numbers;
mod objects;
mod strings;
#[cfg(test)]
mod tests;

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::vocab;
use crate::catalog::Tool;

const MAX_DEPTH: usize = 10;
const ATTEMPTS: u64 = 12;
/// Longest string sampled (characters).
pub(crate) const MAX_STRING: usize = 100_000;
/// Most items in a sampled array, or properties in a sampled object.
pub(crate) const MAX_ITEMS: usize = 1_000;
/// Most values (schema nodes) sampled for one argument set, and most string bytes.
pub(crate) const MAX_WORK: usize = 20_000;
const MAX_BYTES: usize = 4 * MAX_STRING;
/// Largest integer magnitude sampled: 2^53, exact as a JSON number everywhere.
const SAFE_INT: f64 = 9_007_199_254_740_992.0;

/// A deterministic generator for (seed, tool, variant).
pub(crate) fn rng_for(seed: u64, tool: &str, variant: u64) -> ChaCha8Rng {
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
                        last =
                            format!("a sample failed validation at `{}`: {e}", e.instance_path());
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
            return self.conditional(s, cond, name, depth);
        }
        if s.contains_key("allOf") {
            let merged = self.merged(s)?;
            return self.value(&Value::Object(merged), name, depth + 1);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(branches) = s.get(key).and_then(Value::as_array) {
                return self.one_branch(s, key, branches, name, depth);
            }
        }
        let ty = self.type_of(s);
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

    /// A value for a schema with `if`: one that satisfies `if` and `then` (so `then` applies
    /// and holds), or half the time first one for `else` that does not meet `if`; failing
    /// both, one for `else`. The sample is validated afterwards either way.
    fn conditional(
        &mut self,
        s: &Map<String, Value>,
        cond: &Value,
        name: &str,
        depth: usize,
    ) -> Result<Value, String> {
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
        // Half the samples try the `else` branch first: a value for `else` that does not
        // meet `if` (one that does falls back to the `then` branch).
        if let Some(o) = &otherwise
            && self.below(2) == 0
            && let Ok(v) = self.value(&with(vec![o.clone()]), name, depth + 1)
            && !jsonschema::is_valid(cond, &v)
        {
            return Ok(v);
        }
        match self.value(&first, name, depth + 1) {
            Ok(v) => Ok(v),
            Err(e) => match otherwise {
                Some(o) => self.value(&with(vec![o]), name, depth + 1),
                None => Err(e),
            },
        }
    }

    /// A value from one branch of `oneOf`/`anyOf` (`key`), tried from a random one on; a
    /// null branch is taken one time in four, when it comes up first.
    fn one_branch(
        &mut self,
        s: &Map<String, Value>,
        key: &str,
        branches: &[Value],
        name: &str,
        depth: usize,
    ) -> Result<Value, String> {
        if branches.is_empty() {
            return Err(format!("`{name}` has an empty {key}"));
        }
        let start = self.below(branches.len());
        let mut last = String::new();
        for i in 0..branches.len() {
            let b = &branches[(start + i) % branches.len()];
            // A null branch is taken one time in four, when it comes up first.
            if b.get("type").and_then(Value::as_str) == Some("null")
                && branches.len() > 1
                && !(i == 0 && self.below(4) == 0)
            {
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
        Err(last)
    }

    /// The type to sample: the schema's (one of a list, a nullable one null one time in
    /// four), else inferred from its keywords.
    fn type_of(&mut self, s: &Map<String, Value>) -> String {
        match s.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(ts)) => {
                let non_null: Vec<&str> = ts
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|t| *t != "null")
                    .collect();
                let nullable = non_null.len() < ts.len();
                // A nullable field is null one time in four: requests with "no value" exist.
                if non_null.is_empty() || (nullable && self.below(4) == 0) {
                    "null".into()
                } else {
                    non_null[self.below(non_null.len())].to_string()
                }
            }
            _ => infer_type(s).to_string(),
        }
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

//! The seeded schema sampler: concrete, schema-valid argument sets for a tool, drawn from its
//! inputSchema with realistic, name-aware values. The same seed gives the same bytes on every
//! machine (ChaCha8, integer ranges only, no hash-map iteration order).
//!
//! Honoured: type (and type lists, nullable), required vs optional, enum, const, default,
//! minimum/maximum (exclusive too), multipleOf, min/maxLength, min/maxItems, uniqueItems,
//! min/maxProperties, formats (date, date-time, time, email, uri, uuid, hostname, ipv4, ipv6),
//! pattern (via rand_regex), nested objects and arrays, prefixItems, local `$ref`/`$defs`,
//! allOf/anyOf/oneOf. Every sample is validated against the schema with the jsonschema crate;
//! a tool whose samples keep failing is reported as unsampleable with the reason.

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Number, Value, json};
use sha2::{Digest, Sha256};

use super::vocab;
use crate::catalog::Tool;

const MAX_DEPTH: usize = 10;
const ATTEMPTS: u64 = 12;

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
}

fn resolve<'v>(root: &'v Value, reference: &str) -> Result<&'v Value, String> {
    let Some(frag) = reference.strip_prefix('#') else {
        return Err(format!("remote $ref `{reference}` is not fetched"));
    };
    if frag.is_empty() {
        return Ok(root);
    }
    let decoded = frag
        .replace("%25", "%")
        .replace("%22", "\"")
        .replace("%20", " ");
    let mut cur = root;
    for token in decoded.trim_start_matches('/').split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        cur = match cur {
            Value::Object(m) => m.get(&token),
            Value::Array(a) => token.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        }
        .ok_or_else(|| format!("$ref `{reference}` does not resolve"))?;
    }
    Ok(cur)
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
                    ("properties", Some(Value::Object(p))) => {
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
        let min_props = s.get("minProperties").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max_props = s
            .get("maxProperties")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
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
        let _ = name;
        Ok(Value::Object(out))
    }

    fn array(&mut self, s: &Map<String, Value>, name: &str, depth: usize) -> Result<Value, String> {
        let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(1) as usize;
        let max = s
            .get("maxItems")
            .and_then(Value::as_u64)
            .map(|m| m as usize)
            .unwrap_or(min.max(1) + 1)
            .max(min);
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
        while out.len() < len && tries < len * 8 {
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
        let min = s.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = s
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        while v.chars().count() < min {
            v.push('x');
        }
        if let Some(max) = max
            && v.chars().count() > max
        {
            v = v.chars().take(max).collect();
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
        let mut lo = f("minimum").unwrap_or(dlo.min(f("maximum").unwrap_or(dlo)));
        let mut hi = f("maximum").unwrap_or(dhi.max(lo));
        if let Some(x) = f("exclusiveMinimum") {
            lo = lo.max(x + if integer { 1.0 } else { 1e-6 });
        }
        if let Some(x) = f("exclusiveMaximum") {
            hi = hi.min(x - if integer { 1.0 } else { 1e-6 });
        }
        if lo > hi {
            return Err(format!("`{name}` has an empty numeric range [{lo}, {hi}]"));
        }
        if integer {
            let (lo, hi) = (lo.ceil() as i64, hi.floor() as i64);
            if lo > hi {
                return Err(format!("`{name}` has no integer in its range"));
            }
            let mut v = lo + self.rng.random_range(0..(hi - lo + 1) as u64) as i64;
            if let Some(m) = f("multipleOf").filter(|m| *m >= 1.0) {
                let m = m as i64;
                v = (v / m) * m;
                if v < lo {
                    v += m;
                }
            }
            return Ok(Value::Number(v.into()));
        }
        let steps = 1000u64;
        let mut v = lo + (hi - lo) * (self.rng.random_range(0..=steps) as f64 / steps as f64);
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
        if let Some(m) = f("multipleOf").filter(|m| *m > 0.0) {
            v = (v / m).round() * m;
        } else if !fractional && hi - lo >= 10.0 && v.round() >= lo && v.round() <= hi {
            v = v.round();
        } else {
            v = (v * 100.0).round() / 100.0;
        }
        v = v.clamp(lo, hi);
        if v.fract() == 0.0 && v.abs() < 1e15 {
            return Ok(Value::Number((v as i64).into()));
        }
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| format!("`{name}`: could not make a number"))
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

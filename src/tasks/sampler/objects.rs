//! Sampling objects (properties, required, min/maxProperties, patternProperties) and arrays
//! (items, prefixItems, min/maxItems, uniqueItems).

use rand::Rng;
use serde_json::{Map, Value};

use super::{Gen, MAX_ITEMS, count};

impl<R: Rng> Gen<'_, R> {
    pub(super) fn object(
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

    pub(super) fn array(
        &mut self,
        s: &Map<String, Value>,
        name: &str,
        depth: usize,
    ) -> Result<Value, String> {
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
}

//! Sampling numbers and integers: minimum/maximum (exclusive too, draft-4 booleans),
//! multipleOf, name-aware defaults, everything within ±2^53.

use rand::{Rng, RngExt};
use serde_json::{Map, Number, Value};

use super::{Gen, SAFE_INT};

impl<R: Rng> Gen<'_, R> {
    pub(super) fn number(
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

//! ci.json as one type: `toolgate.ci/v1` has two shapes, told apart by `status` — a run's
//! report (`ok`, or `errored` when what it measured is not valid) and the short form `ci`
//! writes when it could not run (`error`, with the cause). Both are written and read here.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

use super::ci::{CI_SCHEMA, CiReport, CiStatus};

/// ci.json, either shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub(crate) enum CiJson {
    /// `status` `ok` or `errored`: what the run measured and decided.
    Report(Box<CiReport>),
    /// `status` `error`: `ci` could not run.
    CouldNotRun(CiError),
}

/// The short ci.json of a `ci` that could not run: the cause, and a gate that did not pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct CiError {
    pub schema_version: String,
    pub toolgate_version: String,
    /// Always [`CiStatus::Error`].
    pub status: CiStatus,
    /// Always false: a run that could not run never passes.
    pub passed: bool,
    #[serde(default = "unknown_cause")]
    pub error: String,
}

fn unknown_cause() -> String {
    "the evaluation job could not run".into()
}

impl CiError {
    pub(crate) fn new(error: &str) -> Self {
        CiError {
            schema_version: CI_SCHEMA.into(),
            toolgate_version: env!("CARGO_PKG_VERSION").into(),
            status: CiStatus::Error,
            passed: false,
            error: error.into(),
        }
    }
}

impl<'de> Deserialize<'de> for CiJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        if v.get("status").and_then(serde_json::Value::as_str) == Some("error") {
            let mut e = CiError::deserialize(v).map_err(D::Error::custom)?;
            // Whatever the file says, this shape never passed.
            e.passed = false;
            Ok(CiJson::CouldNotRun(e))
        } else {
            CiReport::deserialize(v)
                .map(|r| CiJson::Report(Box::new(r)))
                .map_err(D::Error::custom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_shape_round_trips_with_its_keys_in_order() {
        let e = CiJson::CouldNotRun(CiError::new("no server"));
        let text = serde_json::to_string(&e).unwrap();
        assert!(
            text.starts_with(r#"{"schema_version":"toolgate.ci/v1","toolgate_version":"#)
                && text.ends_with(r#","status":"error","passed":false,"error":"no server"}"#),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<CiJson>(&text).unwrap(), e);
        let odd = r#"{"schema_version":"toolgate.ci/v1","toolgate_version":"0","status":"error","passed":true}"#;
        let CiJson::CouldNotRun(e) = serde_json::from_str::<CiJson>(odd).unwrap() else {
            panic!("not the error shape")
        };
        assert!(!e.passed && e.error.contains("could not run"));
        assert!(serde_json::from_str::<CiJson>(r#"{"status":"ok"}"#).is_err());
    }
}

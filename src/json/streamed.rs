//! Canonical JSON text (keys sorted, compact: [`super::write_json_sorted`]'s bytes) of any
//! serializable value without building a `serde_json::Value` tree: the value is serialized
//! compactly once, then each object is re-emitted with its keys sorted, reading its members
//! in place as raw JSON. A value tree costs several times its text; a baseline's run with
//! per-tool retrieval scores for 10,000 tools made a 120 MB tree only to be hashed.

use std::collections::BTreeMap;
use std::io::Write;

use serde::Serialize;
use serde_json::value::RawValue;

/// Writes the canonical text of `x` to `w`: the same bytes as
/// `write_json_sorted(&serde_json::to_value(x)?, w, None)`.
pub(crate) fn write_sorted_of<T: Serialize + ?Sized>(
    x: &T,
    w: &mut impl Write,
) -> anyhow::Result<()> {
    let bytes = serde_json::to_vec(x)?;
    let raw: &RawValue = serde_json::from_slice(&bytes)?;
    write_raw_sorted(raw, w)
}

fn write_raw_sorted(raw: &RawValue, w: &mut impl Write) -> anyhow::Result<()> {
    let text = raw.get();
    match text.as_bytes().first() {
        Some(b'{') => {
            // Sorted as `String`s sort, each key written as serde_json writes a string.
            let members: BTreeMap<String, &RawValue> = serde_json::from_str(text)?;
            w.write_all(b"{")?;
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    w.write_all(b",")?;
                }
                serde_json::to_writer(&mut *w, k)?;
                w.write_all(b":")?;
                write_raw_sorted(v, w)?;
            }
            w.write_all(b"}")?;
        }
        Some(b'[') => {
            let items: Vec<&RawValue> = serde_json::from_str(text)?;
            w.write_all(b"[")?;
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    w.write_all(b",")?;
                }
                write_raw_sorted(v, w)?;
            }
            w.write_all(b"]")?;
        }
        // A leaf as serde_json wrote it: the bytes `to_writer` gives its value.
        _ => w.write_all(text.as_bytes())?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_same_bytes_as_the_value_path() {
        let cases = [
            json!({"b": 1, "a": {"z": [3, {"y": 1.5, "x": null}], "é": "\u{1}\"q\\"}, "A": true}),
            json!([1, -2, 3.0e-7, "s", {"k": {}}, []]),
            json!("plain"),
            json!(18446744073709551615u64),
            json!({"nested": {"deep": {"deeper": [{"b": 2, "a": 1}]}}}),
        ];
        for v in cases {
            let mut want = Vec::new();
            crate::json::write_json_sorted(&v, &mut want, None).unwrap();
            let mut got = Vec::new();
            write_sorted_of(&v, &mut got).unwrap();
            assert_eq!(
                String::from_utf8(got).unwrap(),
                String::from_utf8(want).unwrap()
            );
        }
        // A struct with a map field, an Option and floats: the value path and this agree.
        #[derive(Serialize)]
        struct S {
            zed: Option<f64>,
            map: std::collections::HashMap<String, Vec<f64>>,
            alpha: &'static str,
        }
        let s = S {
            zed: Some(0.1 + 0.2),
            map: [
                ("q".to_string(), vec![1.0, f64::NAN]),
                ("p".to_string(), vec![]),
            ]
            .into_iter()
            .collect(),
            alpha: "a",
        };
        let mut want = Vec::new();
        crate::json::write_json_sorted(&serde_json::to_value(&s).unwrap(), &mut want, None)
            .unwrap();
        let mut got = Vec::new();
        write_sorted_of(&s, &mut got).unwrap();
        assert_eq!(got, want);
    }
}

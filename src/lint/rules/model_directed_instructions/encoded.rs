//! Orders hidden in encodings a reviewer does not read: base64 runs that decode to text.

use std::sync::LazyLock;

use crate::text::pattern::Regex;

/// A run of base64 (standard or URL-safe alphabet) long enough to hold a sentence.
static BASE64_RUN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new("[A-Za-z0-9+/_-]{24,}={0,2}").unwrap());

/// Longest base64 run decoded (48 KiB of text).
const MAX_BASE64_LEN: usize = 1 << 16;

/// Readable base64 runs checked per text, at most: the check stays linear in the text.
const MAX_BASE64_RUNS: usize = 16;

/// The base64 runs of `text` that decode to readable UTF-8 text (letters and spaces, not
/// binary or an id), at most [`MAX_BASE64_RUNS`] of them: where an order may be hidden (the
/// rule reads each for orders).
pub(super) fn readable_base64(text: &str) -> Vec<String> {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
    // Only runs that decode to readable text count toward the bound, so decoys (paths,
    // identifiers) cannot push an encoded order past it; the scan itself is linear.
    let mut out = Vec::new();
    for m in BASE64_RUN.find_iter(text) {
        if out.len() >= MAX_BASE64_RUNS {
            break;
        }
        let run = m.as_str().trim_end_matches('=');
        if run.len() > MAX_BASE64_LEN {
            continue;
        }
        let Some(bytes) = [STANDARD_NO_PAD, URL_SAFE_NO_PAD]
            .iter()
            .find_map(|e| e.decode(run).ok())
        else {
            continue;
        };
        let Ok(decoded) = String::from_utf8(bytes) else {
            continue;
        };
        let readable = decoded.contains(' ')
            && decoded
                .chars()
                .all(|c| !c.is_control() || c.is_whitespace());
        if readable {
            out.push(decoded);
        }
    }
    out
}

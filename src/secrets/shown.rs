//! What counts as a secret in text a person or a log reads. toolgate never rewrites what a
//! server sent (the catalog that is hashed, pinned, linted and evaluated is byte for byte the
//! server's); it masks only what it shows: the terminal, the log, reports, the comment. And it
//! masks only values shaped like secrets: well-known token formats (provider and forge keys,
//! cloud access keys, JWTs, PEM private keys), toolgate's own credentials, and long,
//! mixed-character values of credential-named variables and of what the user handed a server
//! (`--header`, the bearer token, `--pass-env`). `FOO_TOKEN=database` or
//! `POSTGRES_PASSWORD=postgres` never turn the word "database" or "postgres" into `***`.

use std::sync::{Mutex, OnceLock};

use regex::Regex;

/// What a masked value becomes.
pub(crate) const MASK: &str = "***";

/// Token formats whose shape alone says "credential": provider and forge keys, cloud access
/// keys, Slack tokens, JWTs and PEM private keys. The key body matches only base64 characters
/// and escaped or real line breaks, so a key inside serialized JSON ends at its string's quote.
pub(crate) fn token_shapes() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"(?-u:\b)sk-(?:ant-|proj-|or-v1-)?[A-Za-z0-9_\-]{20,}",
            r"|(?-u:\b)gh[pousr]_[A-Za-z0-9]{30,}",
            r"|(?-u:\b)github_pat_[A-Za-z0-9_]{22,}",
            r"|(?-u:\b)glpat-[A-Za-z0-9_\-]{20,}",
            r"|(?-u:\b)xox[abprs]-[A-Za-z0-9\-]{10,}",
            r"|(?-u:\b)(?:AKIA|ASIA)[0-9A-Z]{16}(?-u:\b)",
            r"|(?-u:\b)AIza[0-9A-Za-z_\-]{35}",
            r"|(?-u:\b)hf_[A-Za-z0-9]{30,}",
            r"|(?-u:\b)eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}",
            // The key body, its line breaks raw, JSON-escaped (once or more) or percent-encoded
            // (a workflow command's data).
            r"|-----BEGIN [A-Z ]*PRIVATE KEY-----(?:[A-Za-z0-9+/=\s]|\\+[nr]|%0[AaDd])*(?:-----END [A-Z ]*PRIVATE KEY-----)?",
        ))
        .expect("token shapes")
    })
}

/// The character classes a value mixes: letters, digits, anything else.
fn classes(v: &str) -> usize {
    let letters = v.chars().any(char::is_alphabetic);
    let digits = v.chars().any(|c| c.is_ascii_digit());
    let other = v.chars().any(|c| !c.is_alphanumeric());
    usize::from(letters) + usize::from(digits) + usize::from(other)
}

/// Shannon entropy of the value's characters, in bits per character.
fn entropy(v: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    let mut n = 0usize;
    for c in v.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    counts
        .values()
        .map(|&k| {
            let p = k as f64 / n as f64;
            -p * p.log2()
        })
        .sum()
}

/// True when a value from a credential-named variable or a user-handed header looks like a
/// secret rather than a word: at least 12 characters, no blank, at least two kinds of
/// character (letters, digits, others) and at least 3 bits of entropy per character.
/// `database`, `postgres`, `default`, `my token` are words; `hunter2-password`,
/// `server-own-key-777` and any real key are not.
pub(crate) fn secret_shaped(v: &str) -> bool {
    let v = v.trim();
    v.chars().count() >= 12
        && !v.chars().any(char::is_whitespace)
        && classes(v) >= 2
        && entropy(v) >= 3.0
}

/// True for a credential toolgate itself holds (a provider key, the GitHub token) that is
/// worth masking: 8 characters or more and not a bare word (`ghp_test` is, `dummy` or
/// `database` is not), or secret-shaped.
pub(crate) fn own_shaped(v: &str) -> bool {
    let v = v.trim();
    (v.chars().count() >= 8 && !v.chars().all(char::is_alphabetic)) || secret_shaped(v)
}

fn registered() -> &'static Mutex<Vec<String>> {
    static VALUES: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    VALUES.get_or_init(|| Mutex::new(Vec::new()))
}

/// Remembers what the user handed a server (header values, a bearer token, `--pass-env`
/// values): every later line toolgate shows masks the secret-shaped ones.
pub(crate) fn register(values: &[String]) {
    let shaped: Vec<String> = values
        .iter()
        .filter(|v| secret_shaped(v))
        .map(|v| v.trim().to_string())
        .collect();
    if shaped.is_empty() {
        return;
    }
    if let Ok(mut r) = registered().lock() {
        for v in shaped {
            if !r.contains(&v) {
                r.push(v);
            }
        }
    }
}

/// The values shown text is masked with: toolgate's own credentials, the secret-shaped values
/// of credential-named variables, those [`register`]ed, and the secret-shaped ones of `extra`.
pub(crate) fn values(extra: &[String]) -> Vec<String> {
    let mut out: Vec<String> = super::store::store_snapshot()
        .into_values()
        .filter(|v| own_shaped(v))
        .collect();
    out.extend(
        std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .filter(|(k, v)| super::names::looks_secret(k) && secret_shaped(v))
            .map(|(_, v)| v),
    );
    if let Ok(r) = registered().lock() {
        out.extend(r.iter().cloned());
    }
    out.extend(extra.iter().filter(|v| secret_shaped(v)).cloned());
    out
}

/// The forms a value takes in the sinks toolgate writes, besides itself: HTML (`&amp;`),
/// a Markdown table cell (`\_`, `&lt;`), inside a JSON string (`\"`), and in a workflow
/// command's data or property (`%25`, `%3A`), also one inside another (JSON shown in HTML or
/// Markdown). A secret with `&`, `<`, `"` or `%` in it is masked in each (issue 40: it was
/// masked only as written). `report::escape` tests these against the real escapers.
pub(crate) fn escaped_forms(v: &str) -> Vec<String> {
    fn html(s: &str) -> String {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&#39;")
    }
    fn cell(s: &str) -> String {
        let mut out = String::with_capacity(s.len() + 8);
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '&' => out.push_str("&amp;"),
                '@' => out.push_str("@\u{2060}"),
                '|' | '[' | ']' | '(' | ')' | '!' | '*' | '_' | '`' | '~' | '#' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                ':' if chars.peek() == Some(&'/') => out.push_str(":\u{2060}"),
                '.' if out.ends_with("www") => out.push_str(".\u{2060}"),
                _ => out.push(c),
            }
        }
        out
    }
    fn json(s: &str) -> String {
        let q = serde_json::to_string(s).unwrap_or_default();
        q.get(1..q.len().saturating_sub(1))
            .unwrap_or("")
            .to_string()
    }
    fn data(s: &str) -> String {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    }
    fn property(s: &str) -> String {
        data(s).replace(':', "%3A").replace(',', "%2C")
    }
    let j = json(v);
    let mut out = Vec::new();
    for base in [v, j.as_str()] {
        out.extend([html(base), cell(base), data(base), property(base)]);
    }
    out.push(j.clone());
    out.push(json(&j));
    out.sort();
    out.dedup();
    out.retain(|f| f != v);
    out
}

/// Masks `text` for a person or a log: each of `known` (longest first) as written and in
/// its [`escaped_forms`], then every token shape. Returns the text and how many values were
/// masked.
pub(crate) fn mask_with(text: &str, known: &[String]) -> (String, usize) {
    let mut count = 0;
    let mut out = text.to_string();
    let trimmed: Vec<&str> = known
        .iter()
        .map(|v| v.trim())
        .filter(|v| v.chars().count() >= 6)
        .collect();
    let forms: Vec<String> = trimmed.iter().flat_map(|v| escaped_forms(v)).collect();
    let mut values: Vec<&str> = trimmed
        .iter()
        .copied()
        .chain(forms.iter().map(String::as_str))
        .collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    values.dedup();
    for v in values {
        let n = out.matches(v).count();
        if n > 0 {
            count += n;
            out = out.replace(v, MASK);
        }
    }
    let shapes = token_shapes();
    let n = shapes.find_iter(&out).count();
    if n > 0 {
        count += n;
        out = shapes.replace_all(&out, MASK).into_owned();
    }
    (out, count)
}

/// `text` as a person or a log may read it: [`mask_with`] the [`values`] of this process.
pub(crate) fn mask_shown(text: &str) -> String {
    let known = values(&[]);
    if known.is_empty() && !token_shapes().is_match(text) {
        return text.to_string();
    }
    mask_with(text, &known).0
}

/// A writer that masks what passes through it line by line, as [`mask_shown`] masks a whole
/// text (a secret value and a token shape never span a line break in toolgate's JSON and
/// Markdown), so a large report is streamed to its file instead of held as one string.
pub(crate) struct MaskLines<W: std::io::Write> {
    inner: W,
    line: Vec<u8>,
    known: Vec<String>,
}

impl<W: std::io::Write> MaskLines<W> {
    pub(crate) fn new(inner: W) -> Self {
        MaskLines {
            inner,
            line: Vec::new(),
            known: values(&[]),
        }
    }

    fn emit(&mut self) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(&self.line);
        if self.known.is_empty() && !token_shapes().is_match(&text) {
            self.inner.write_all(&self.line)?;
        } else {
            let masked = mask_with(&text, &self.known).0;
            self.inner.write_all(masked.as_bytes())?;
        }
        self.line.clear();
        Ok(())
    }
}

impl<W: std::io::Write> std::io::Write for MaskLines<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|b| *b == b'\n') {
            self.line.extend_from_slice(&rest[..=i]);
            self.emit()?;
            rest = &rest[i + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.line.is_empty() {
            self.emit()?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masking_line_by_line_is_masking_the_whole_text() {
        use std::io::Write;
        let text = "{\n  \"a\": \"ghp_0123456789abcdefghijABCDEFGHIJ0123\",\n  \"b\": \"plain\"\n}";
        let mut out = Vec::new();
        {
            let mut w = MaskLines::new(&mut out);
            for chunk in text.as_bytes().chunks(7) {
                w.write_all(chunk).unwrap();
            }
            w.flush().unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), mask_shown(text));
        assert!(!mask_shown(text).contains("ghp_0123"));
    }

    #[test]
    fn words_are_not_secrets_and_keys_are() {
        for word in [
            "database",
            "postgres",
            "default",
            "dummy",
            "my token value",
            "aaaaaaaaaaaaaaaaaaaa",
            "databasedatabase",
        ] {
            assert!(!secret_shaped(word), "{word}");
        }
        for key in [
            "hunter2-password",
            "server-own-key-777",
            "passed-through-value-888",
            "literal-secret-value-42",
            "Zq8xP2LmN4rT7vW1",
        ] {
            assert!(secret_shaped(key), "{key}");
        }
        assert!(own_shaped("ghp_test") && own_shaped("sk-ant-test"));
        assert!(!own_shaped("database") && !own_shaped("dummy"));
    }

    #[test]
    fn token_shapes_are_masked_and_ordinary_text_is_not() {
        for secret in [
            "sk-proj-abcdefghijklmnopqrstuvwx",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "github_pat_11ABCDEFG0123456789_abcdefghij",
            "AKIAIOSFODNN7EXAMPLE",
            "xoxb-1234567890-abcdefghij",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ] {
            let (m, n) = mask_with(&format!("use {secret} here"), &[]);
            assert_eq!((m.as_str(), n), ("use *** here", 1), "{secret}");
        }
        for plain in ["sk-learn models", "the task-id", "AKIA", "ask-me-anything"] {
            assert_eq!(mask_with(plain, &[]), (plain.to_string(), 0), "{plain}");
        }
    }

    #[test]
    fn a_private_key_in_escaped_text_is_masked_whole() {
        let body = "MIIEabc+/=";
        for text in [
            format!("-----BEGIN RSA PRIVATE KEY-----%0A{body}%0Axyz"),
            format!("-----BEGIN RSA PRIVATE KEY-----\\\\n{body}\\\\nxyz"),
        ] {
            let (m, _) = mask_with(&text, &[]);
            assert!(!m.contains(body), "{m}");
        }
    }

    #[test]
    fn a_private_key_in_json_text_ends_at_its_string() {
        let json = serde_json::json!({"d": "-----BEGIN RSA PRIVATE KEY-----\nMIIEabc+/=\nxyz", "next": "kept"})
            .to_string();
        let (m, n) = mask_with(&json, &[]);
        assert_eq!(n, 1);
        assert!(
            m.contains(r#""d":"***""#) && m.contains(r#""next":"kept""#),
            "{m}"
        );
        assert!(serde_json::from_str::<serde_json::Value>(&m).is_ok(), "{m}");
    }

    #[test]
    fn known_values_are_masked_longest_first() {
        let known = vec![
            "abcdef-secret".to_string(),
            "abcdef".to_string(),
            "xy".into(),
        ];
        let (m, n) = mask_with("k=abcdef-secret and abcdef, xy", &known);
        assert_eq!(m, "k=*** and ***, xy");
        assert_eq!(n, 2);
    }
}

//! Escaping for the HTML sinks (report.html, the belt and curve sections, badges' SVG text):
//! server text never becomes markup.

pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    /// Issue 40: a secret with `&`, `<`, `>`, `"`, `'`, `%`, `:`, `,`, `_` or `\` in it is
    /// masked in every sink's escaping, checked against the real escapers.
    #[test]
    fn a_secret_is_masked_in_every_escaped_form() {
        let secret = r#"p&ss<w0>"rd'%x:y,z_1\q"#;
        let known = vec![secret.to_string()];
        let line = format!("token {secret} in a sentence");
        let json = serde_json::to_string(&line).unwrap();
        let shown = [
            line.clone(),
            super::esc(&line),
            crate::report::markdown::escape_cell(&line),
            crate::report::markdown::message(&line),
            json.clone(),
            super::esc(&json),
            crate::report::markdown::escape_cell(&json),
            crate::report::github::escape_data(&line),
            crate::report::github::escape_data(&json),
        ];
        for s in shown {
            let (masked, n) = crate::secrets::shown::mask_with(&s, &known);
            assert!(n >= 1, "not masked: {s}");
            for piece in ["w0", "z_1", "z\\_1"] {
                assert!(
                    !masked.contains(piece),
                    "{piece} left in {masked} (from {s})"
                );
            }
        }
        // Words stay words.
        let (same, n) = crate::secrets::shown::mask_with("a plain line", &known);
        assert_eq!((same.as_str(), n), ("a plain line", 0));
    }
}

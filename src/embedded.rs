//! Data the binary embeds deflated (build/deflate.rs): inflated on first use, so neither the
//! binary's size nor its start-up pays for data most commands never read.

/// Inflates `bytes` the build script deflated. They are the binary's own data, so a failure
/// is a build defect; it is still an error, never a panic.
pub(crate) fn inflate(what: &str, bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(bytes, 64 << 20)
        .map_err(|e| anyhow::anyhow!("the embedded {what} is damaged ({e:?}): rebuild toolgate"))
}

/// Inflates deflated UTF-8 text.
pub(crate) fn inflate_text(what: &str, bytes: &[u8]) -> anyhow::Result<String> {
    String::from_utf8(inflate(what, bytes)?)
        .map_err(|_| anyhow::anyhow!("the embedded {what} is not UTF-8: rebuild toolgate"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trips_and_refuses_damage() {
        let text = "tool descriptions ".repeat(100);
        let z = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
        assert!(z.len() < text.len() / 10);
        assert_eq!(super::inflate_text("test", &z).unwrap(), text);
        let err = super::inflate("test", &z[..z.len() / 2]).unwrap_err();
        assert!(
            err.to_string().contains("embedded test is damaged"),
            "{err}"
        );
    }
}

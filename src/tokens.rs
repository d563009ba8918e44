//! Token counts with a real BPE tokenizer (OpenAI's o200k_base, via GitHub's bpe-openai, which
//! counts the same tokens as tiktoken several times faster), so the catalog's cost in a model's
//! context is measured, not guessed.

/// Name printed next to every token count.
pub const TOKENIZER: &str = "o200k_base";

/// Texts longer than this are estimated (bytes / 4) rather than encoded, so a hostile
/// multi-megabyte description cannot stall the run.
const EXACT_LIMIT: usize = 256 * 1024;

/// Token count of `text`; `false` in the second place when it is an estimate.
pub fn count(text: &str) -> (usize, bool) {
    if text.len() > EXACT_LIMIT {
        return (text.len().div_ceil(4), false);
    }
    (bpe_openai::o200k_base().count(text), true)
}

#[cfg(test)]
mod tests {
    #[test]
    fn agrees_with_tiktoken() {
        let bpe = tiktoken_rs::o200k_base().unwrap();
        for text in [
            "hello world",
            r#"{"name":"read_text_file","description":"Read the complete contents of a file from the file system as text.","parameters":{"type":"object"}}"#,
            "Émilie's café — naïve façade, 東京, emoji 👨‍👩‍👧 and   spaces\n\ttabs",
        ] {
            assert_eq!(
                super::count(text).0,
                bpe.encode_ordinary(text).len(),
                "{text}"
            );
        }
    }

    #[test]
    fn counts_real_tokens() {
        let (n, exact) = super::count("hello world");
        assert!(exact);
        assert_eq!(n, 2);
        let (n, exact) = super::count(&"x".repeat(1_000_000));
        assert!(!exact);
        assert_eq!(n, 250_000);
    }
}

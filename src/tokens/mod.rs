//! Token counts with a real BPE tokenizer (OpenAI's o200k_base: tiktoken's pre-tokenizer and
//! rank-ordered byte-pair merges), so the catalog's cost in a model's context is measured, not
//! guessed.
//!
//! The vocabulary is embedded as flat tables used in place ([`table`], ~2.7 MB, written by the
//! build script from bpe-openai's copy), so starting the binary costs nothing and the first
//! count only compiles the pre-tokenizer's pattern ([`split`]).

mod hash;
mod merge;
mod split;
mod table;

/// Name printed next to every token count.
pub(crate) const TOKENIZER: &str = "o200k_base";

/// Texts longer than this are estimated (bytes / 4) rather than encoded, so a hostile
/// multi-megabyte description cannot stall the run.
const EXACT_LIMIT: usize = 256 * 1024;

/// Token count of `text`; `false` in the second place when it is an estimate.
pub fn count(text: &str) -> (usize, bool) {
    if text.len() > EXACT_LIMIT {
        return (text.len().div_ceil(4), false);
    }
    let mut n = 0;
    let split = split::each_piece(text, |piece| {
        n += merge::count(piece.as_bytes(), table::rank);
    });
    if !split {
        return (text.len().div_ceil(4), false);
    }
    (n, true)
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

    /// Many texts: every fixture catalog, and random character soup (long pieces, rare scripts, digits, whitespace runs), against both
    /// tiktoken and bpe-openai (the tokenizer toolgate used before).
    #[test]
    fn agrees_with_tiktoken_and_bpe_openai_on_many_texts() {
        let tiktoken = tiktoken_rs::o200k_base().unwrap();
        let bpe = bpe_openai::o200k_base();
        let mut texts: Vec<String> = Vec::new();
        for dir in [
            "fixtures/catalogs",
            "fixtures/example",
            "fixtures/lint",
            "fixtures/lookalike",
        ] {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for e in entries.flatten() {
                if let Ok(t) = std::fs::read_to_string(e.path()) {
                    texts.push(t);
                }
            }
        }
        assert!(texts.len() >= 3, "fixture catalogs to compare on");
        let alphabet: Vec<char> = "aZé東👍 \n\t0123456789.,;:'\"-_/\\{}[]()ßяαあ\u{200b}\u{301}!?"
            .chars()
            .collect();
        let mut seed = 42u64;
        for len in [1, 2, 5, 17, 64, 300, 2000] {
            for _ in 0..40 {
                let s: String = (0..len)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        alphabet[(seed >> 33) as usize % alphabet.len()]
                    })
                    .collect();
                texts.push(s);
            }
        }
        texts.push("a".repeat(5000));
        texts.push(" ".repeat(3000) + "x");
        texts.push("1234567".repeat(400));
        for text in &texts {
            let ours = super::count(text);
            assert!(ours.1);
            assert_eq!(ours.0, tiktoken.encode_ordinary(text).len(), "{text:?}");
            assert_eq!(ours.0, bpe.count(text.as_str()), "{text:?}");
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

//! Token counts with a real BPE tokenizer (OpenAI's o200k_base, via tiktoken-rs), so the
//! catalog's cost in a model's context is measured, not guessed.

use std::sync::OnceLock;

/// Name printed next to every token count.
pub const TOKENIZER: &str = "o200k_base (tiktoken)";

/// Texts longer than this are estimated (bytes / 4) rather than encoded, so a hostile
/// multi-megabyte description cannot stall the run.
const EXACT_LIMIT: usize = 256 * 1024;

fn bpe() -> Option<&'static tiktoken_rs::CoreBPE> {
    static BPE: OnceLock<Option<tiktoken_rs::CoreBPE>> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().ok()).as_ref()
}

/// Token count of `text`; `false` in the second place when it is an estimate.
pub fn count(text: &str) -> (usize, bool) {
    if text.len() > EXACT_LIMIT {
        return (text.len().div_ceil(4), false);
    }
    match bpe() {
        Some(b) => (b.encode_ordinary(text).len(), true),
        None => (text.len().div_ceil(4), false),
    }
}

#[cfg(test)]
mod tests {
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

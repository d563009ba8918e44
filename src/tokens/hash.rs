//! The hash that places a token's bytes in the o200k lookup table, and the layout of the
//! embedded tables (shared, by `#[path]`, with the build script that writes them, so both
//! sides agree).

const K: u64 = 0x9e37_79b9_7f4a_7c15;

fn mix(h: u64, word: u64) -> u64 {
    (h ^ word).wrapping_mul(K).rotate_left(31)
}

fn finish(h: u64) -> u64 {
    let h = (h ^ (h >> 32)).wrapping_mul(K);
    h ^ (h >> 29)
}

/// A 64-bit hash of a token's bytes, eight at a time as little-endian words (a short last
/// word padded with zeros; o200k tokens average about seven bytes, so most are one word),
/// mixed at the end so the low bits (the slot) and the high bits (the fingerprint) both spread.
pub(super) fn hash(bytes: &[u8]) -> u64 {
    let (words, tail) = bytes.as_chunks::<8>();
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    for w in words {
        h = mix(h, u64::from_le_bytes(*w));
    }
    if !tail.is_empty() {
        h = mix(
            h,
            tail.iter().rev().fold(0, |w, &b| (w << 8) | u64::from(b)),
        );
    }
    finish(h)
}

/// [`hash`] of a token of 1 to 8 bytes given as the little-endian word of its bytes (the
/// bytes after it zero): what the table is built from without reading a token byte by byte.
pub(super) fn hash_word(word: u64, len: usize) -> u64 {
    finish(mix((len as u64).wrapping_mul(K), word))
}

/// Slots in the open-addressing table: a power of two at least 5/4 of the vocabulary (o200k:
/// 2^18 slots, 76 % full, 1 MB, built on first use).
pub(super) fn table_slots(tokens: usize) -> usize {
    (tokens + tokens / 4).next_power_of_two()
}

/// Tokens per block of the offset index: a token's offset is its block's offset plus the
/// lengths of the tokens before it in the block.
pub(super) const BLOCK: usize = 16;

/// Bits of a slot that hold rank + 1; the bits above hold [`fingerprint`], so most probes
/// that miss are told apart without reading the token's bytes.
pub(super) const RANK_BITS: u32 = 18;

/// The slot a probe for `hash` starts at.
pub(super) fn home(hash: u64, slots: usize) -> usize {
    (hash as usize) & (slots - 1)
}

/// The high bits of `hash`, kept in the slot beside the rank.
pub(super) fn fingerprint(hash: u64) -> u32 {
    (hash >> (64 - (32 - RANK_BITS))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_tokens_word_hashes_as_its_bytes_do() {
        for bytes in [&b"a"[..], b" the", b"1234567", b"12345678", b"\xff\x00\x01"] {
            let mut w = [0u8; 8];
            w[..bytes.len()].copy_from_slice(bytes);
            assert_eq!(hash_word(u64::from_le_bytes(w), bytes.len()), hash(bytes));
        }
        assert_ne!(hash(b"ab"), hash(b"ba"));
        assert_ne!(hash(b"a"), hash(b"a\0"));
        assert_ne!(hash(b"123456789"), hash(b"12345678"));
    }
}

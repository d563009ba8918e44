//! The o200k_base vocabulary, embedded as flat tables the build script wrote (build/o200k.rs)
//! and used in place, so nothing is deserialised when the binary starts or counts. The lookup
//! table from a token's bytes to its rank is built on the first count (a few milliseconds)
//! instead of being embedded: 1 MB less binary.

use super::hash::{BLOCK, RANK_BITS, fingerprint, hash, hash_word, home, table_slots};

/// Little-endian u32s, embedded byte by byte (no alignment to rely on).
struct U32s(&'static [u8]);

impl U32s {
    fn get(&self, i: usize) -> Option<u32> {
        let b = self.0.get(i * 4..i * 4 + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

static TOKENS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_tokens.bin"));
static LENS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_lens.bin"));
static BLOCKS: U32s = U32s(include_bytes!(concat!(
    env!("OUT_DIR"),
    "/o200k_blocks.bin"
)));
/// The open-addressing table ([`hash`], linear probing) from a token's bytes to its rank: in
/// each slot, rank + 1 in the low [`RANK_BITS`] bits and the hash's [`fingerprint`] above; 0
/// for an empty slot.
static TABLE: std::sync::LazyLock<Vec<u32>> = std::sync::LazyLock::new(build_table);

fn build_table() -> Vec<u32> {
    let slots = table_slots(vocabulary());
    let mut table = vec![0u32; slots];
    let mut start = 0usize;
    for (rank, &len) in (0u32..).zip(LENS) {
        let end = start + usize::from(len);
        let Some(bytes) = TOKENS.get(start..end) else {
            break;
        };
        // Most tokens are at most 8 bytes: one unaligned read, the bytes past the token masked.
        let h = match TOKENS.get(start..start + 8) {
            Some(&[a, b, c, d, e, f, g, h]) if (1..=8).contains(&len) => {
                let word = u64::from_le_bytes([a, b, c, d, e, f, g, h]);
                hash_word(
                    word & (u64::MAX >> (64 - 8 * u32::from(len))),
                    usize::from(len),
                )
            }
            _ => hash(bytes),
        };
        start = end;
        let mut slot = home(h, slots);
        // Fewer tokens than slots: a free slot is always found.
        while table.get(slot).is_some_and(|&s| s != 0) {
            slot = (slot + 1) & (slots - 1);
        }
        if let Some(s) = table.get_mut(slot) {
            *s = (fingerprint(h) << RANK_BITS) | (rank + 1);
        }
    }
    table
}

/// Number of tokens in the vocabulary.
pub(super) fn vocabulary() -> usize {
    LENS.len()
}

/// The bytes of the token of `rank`.
fn token(rank: u32) -> Option<&'static [u8]> {
    let r = rank as usize;
    let block = r / BLOCK;
    let before: usize = LENS
        .get(block * BLOCK..r)?
        .iter()
        .map(|&l| usize::from(l))
        .sum();
    let start = BLOCKS.get(block)? as usize + before;
    TOKENS.get(start..start + usize::from(*LENS.get(r)?))
}

/// The rank of the token spelled `bytes`, if it is one.
pub(super) fn rank(bytes: &[u8]) -> Option<u32> {
    let slots = TABLE.len();
    if slots == 0 {
        return None;
    }
    let h = hash(bytes);
    let (mut slot, fp) = (home(h, slots), fingerprint(h));
    // The table is never full, so an empty slot ends every probe.
    for _ in 0..slots {
        let entry = *TABLE.get(slot)?;
        if entry == 0 {
            return None;
        }
        let rank = (entry & ((1 << RANK_BITS) - 1)).wrapping_sub(1);
        if entry >> RANK_BITS == fp && token(rank) == Some(bytes) {
            return Some(rank);
        }
        slot = (slot + 1) & (slots - 1);
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_rank_is_found_by_its_bytes() {
        assert_eq!(super::vocabulary(), 200_000 - 2);
        for r in (0..super::vocabulary() as u32).step_by(97) {
            let t = super::token(r).unwrap();
            assert_eq!(super::rank(t), Some(r));
        }
        let tiktoken = tiktoken_rs::o200k_base().unwrap();
        for word in ["hello", " world", " file", "\n"] {
            let ranks = tiktoken.encode_ordinary(word);
            assert_eq!(ranks.len(), 1, "{word}");
            assert_eq!(super::rank(word.as_bytes()), Some(ranks[0]), "{word}");
        }
        assert_eq!(super::rank(b"no such token \x00\xff"), None);
    }

    #[test]
    fn the_table_holds_every_token_near_its_home_slot() {
        use super::super::hash::{RANK_BITS, hash, home};
        let slots = super::TABLE.len();
        let (mut held, mut distance) = (0usize, 0usize);
        for (slot, &entry) in super::TABLE.iter().enumerate() {
            if entry == 0 {
                continue;
            }
            held += 1;
            let rank = (entry & ((1 << RANK_BITS) - 1)) - 1;
            let h = hash(super::token(rank).unwrap());
            distance += (slot + slots - home(h, slots)) & (slots - 1);
        }
        assert_eq!(held, super::vocabulary());
        // Linear probing at 76 % full averages about two slots for a well spread hash.
        let mean = distance as f64 / held as f64;
        assert!(mean < 2.5, "mean probe distance {mean}");
    }
}

//! The o200k_base vocabulary, embedded as flat tables the build script wrote (build/o200k.rs):
//! used in place, so nothing is deserialised when the binary starts or counts.

use super::hash::{BLOCK, RANK_BITS, fingerprint, fnv1a, home, table_slots};

/// Little-endian u32s, embedded byte by byte (no alignment to rely on).
struct U32s(&'static [u8]);

impl U32s {
    fn len(&self) -> usize {
        self.0.len() / 4
    }

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
static TABLE: U32s = U32s(include_bytes!(concat!(env!("OUT_DIR"), "/o200k_table.bin")));

/// Number of tokens in the vocabulary.
pub fn vocabulary() -> usize {
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
pub fn rank(bytes: &[u8]) -> Option<u32> {
    let slots = TABLE.len();
    if slots == 0 || slots != table_slots(vocabulary()) {
        return None;
    }
    let h = fnv1a(bytes);
    let (mut slot, fp) = (home(h, slots), fingerprint(h));
    // The table is never full, so an empty slot ends every probe.
    for _ in 0..slots {
        let entry = TABLE.get(slot)?;
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
}

//! The hash that places a token's bytes in the o200k lookup table. Shared, by `#[path]`, with
//! the build script that writes the table, so both sides agree.

/// FNV-1a (64 bit) of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Slots in the open-addressing table: a power of two at least 5/4 of the vocabulary (o200k:
/// 2^18 slots, 76 % full, 1 MB).
pub fn table_slots(tokens: usize) -> usize {
    (tokens + tokens / 4).next_power_of_two()
}

/// Tokens per block of the offset index: a token's offset is its block's offset plus the
/// lengths of the tokens before it in the block.
pub const BLOCK: usize = 16;

/// Bits of a slot that hold rank + 1; the bits above hold [`fingerprint`], so most probes
/// that miss are told apart without reading the token's bytes.
pub const RANK_BITS: u32 = 18;

/// The slot a probe for `hash` starts at.
pub fn home(hash: u64, slots: usize) -> usize {
    (hash as usize) & (slots - 1)
}

/// The high bits of `hash`, kept in the slot beside the rank.
pub fn fingerprint(hash: u64) -> u32 {
    (hash >> (64 - (32 - RANK_BITS))) as u32
}

//! Writes the o200k_base vocabulary as three flat little-endian tables into OUT_DIR, so the
//! binary embeds ~1.6 MB it can use in place (no deserialising at start) instead of bpe-openai's
//! 32 MB serialised encoder (the lookup table from bytes to rank is built on first use, see
//! src/tokens/table.rs):
//! - `o200k_tokens.bin`: every token's bytes, concatenated in rank order;
//! - `o200k_lens.bin`: each token's length in bytes (one byte each);
//! - `o200k_blocks.bin`: u32 offsets of every [`hash::BLOCK`]th token, plus the end, so a
//!   token's offset is its block's plus at most `BLOCK - 1` lengths (a quarter of the size of
//!   an offset per token).
//!
//! The vocabulary comes from bpe-openai (a build dependency), whose token ids are tiktoken's
//! ranks (the order of the tiktoken file).

use std::path::Path;

// The build script uses the block size and the rank bits; the hash is the binary's.
#[path = "../src/tokens/hash.rs"]
#[allow(dead_code)]
mod hash;

pub fn write(out: &Path) {
    let bpe = &bpe_openai::o200k_base().bpe;
    let n = bpe.num_tokens();
    let mut tokens = Vec::new();
    let mut lens = Vec::with_capacity(n);
    let mut blocks = Vec::with_capacity((n / hash::BLOCK + 2) * 4);
    assert!(n < (1 << hash::RANK_BITS), "ranks fit the slot's rank bits");
    for rank in 0..n {
        let id = u32::try_from(rank).expect("vocabulary fits u32");
        let bytes = bpe.token_bytes(id);
        if rank % hash::BLOCK == 0 {
            blocks.extend_from_slice(&u32::try_from(tokens.len()).expect("fits").to_le_bytes());
        }
        lens.push(u8::try_from(bytes.len()).expect("o200k tokens are under 256 bytes"));
        tokens.extend_from_slice(bytes);
    }
    blocks.extend_from_slice(&u32::try_from(tokens.len()).expect("fits").to_le_bytes());
    for (name, data) in [
        ("o200k_tokens.bin", &tokens),
        ("o200k_lens.bin", &lens),
        ("o200k_blocks.bin", &blocks),
    ] {
        std::fs::write(out.join(name), data).expect("write the o200k table");
    }
}

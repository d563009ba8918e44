//! Which slice of a suite a run covers (`--shard K/N`), as run.json records it.

use serde::{Deserialize, Serialize};

/// Slice `k` (1-based) of `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub k: u32,
    pub n: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("--shard `{s}` is not K/N (e.g. 2/8)"))?;
        let (k, n): (u32, u32) = (
            k.trim()
                .parse()
                .map_err(|_| format!("--shard `{s}`: K is not a number"))?,
            n.trim()
                .parse()
                .map_err(|_| format!("--shard `{s}`: N is not a number"))?,
        );
        if n == 0 || n > 1000 || k == 0 || k > n {
            return Err(format!("--shard `{s}`: need 1 ≤ K ≤ N ≤ 1000"));
        }
        Ok(Shard { k, n })
    }
}

impl Shard {
    /// Whether task `id` belongs to this shard (a stable hash of the id, never its position).
    pub fn keeps(self, id: &str) -> bool {
        let h = crate::json::sha256_hex(id);
        let x = u64::from_str_radix(&h[..16], 16).unwrap_or(0);
        x % u64::from(self.n) == u64::from(self.k - 1)
    }
}

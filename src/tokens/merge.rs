//! Byte-pair merging by rank, tiktoken's algorithm: repeatedly merge the adjacent pair whose
//! joined bytes have the lowest rank (the leftmost on ties) until no pair is a token. A heap
//! keeps it O(n log n) on long pieces, where tiktoken's reference loop is quadratic; the merge
//! order, and so the count, is the same.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Number of tokens BPE splits `piece` into, given the vocabulary's `rank`.
pub(super) fn count(piece: &[u8], rank: impl Fn(&[u8]) -> Option<u32>) -> usize {
    let n = piece.len();
    if n <= 1 || rank(piece).is_some() {
        return n.min(1);
    }
    // Segment i covers piece[i .. end[i]]; segments are linked through `next`/`prev`
    // (usize::MAX: none) and named by their start, which never changes.
    let none = usize::MAX;
    let mut end: Vec<usize> = (1..=n).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
    let mut alive = vec![true; n];
    // The rank of segment i joined with its right neighbour.
    let pair = |i: usize, end: &[usize]| -> Option<u32> {
        let j = end[i];
        (j < n).then(|| rank(&piece[i..end[j]])).flatten()
    };
    let mut ranks: Vec<Option<u32>> = (0..n).map(|i| pair(i, &end)).collect();
    let mut heap: BinaryHeap<Reverse<(u32, usize)>> = ranks
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.map(|r| Reverse((r, i))))
        .collect();
    let mut segments = n;
    while let Some(Reverse((r, i))) = heap.pop() {
        // Stale: the segment merged away, or its pair grew (a longer join has another rank).
        if !alive[i] || ranks[i] != Some(r) {
            continue;
        }
        let j = end[i];
        alive[j] = false;
        end[i] = end[j];
        if end[i] < n {
            prev[end[i]] = i;
        }
        segments -= 1;
        for k in [i, prev[i]] {
            if k == none {
                continue;
            }
            ranks[k] = pair(k, &end);
            if let Some(r) = ranks[k] {
                heap.push(Reverse((r, k)));
            }
        }
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::count;

    /// tiktoken's reference loop (quadratic), to compare against.
    fn reference(piece: &[u8], rank: &dyn Fn(&[u8]) -> Option<u32>) -> usize {
        let mut parts: Vec<(usize, u32)> = (0..piece.len() + 1).map(|i| (i, u32::MAX)).collect();
        let get = |parts: &Vec<(usize, u32)>, i: usize| {
            if i + 3 < parts.len() {
                rank(&piece[parts[i].0..parts[i + 3].0]).unwrap_or(u32::MAX)
            } else {
                u32::MAX
            }
        };
        for i in 0..parts.len().saturating_sub(2) {
            parts[i].1 = rank(&piece[i..i + 2]).unwrap_or(u32::MAX);
        }
        loop {
            let mut min = (u32::MAX, 0);
            for (i, p) in parts[..parts.len() - 1].iter().enumerate() {
                if p.1 < min.0 {
                    min = (p.1, i);
                }
            }
            if min.0 == u32::MAX {
                break;
            }
            let i = min.1;
            parts[i].1 = get(&parts, i);
            if i > 0 {
                parts[i - 1].1 = get(&parts, i - 1);
            }
            parts.remove(i + 1);
        }
        parts.len() - 1
    }

    #[test]
    fn matches_the_reference_loop_on_a_toy_vocabulary() {
        // Ties and overlapping candidates: "aaaa…" merges left to right.
        let vocab = ["aa", "ab", "ba", "aaa", "aab", "abab", "bb", "aaaa"];
        let rank = |b: &[u8]| {
            vocab
                .iter()
                .position(|v| v.as_bytes() == b)
                .map(|p| p as u32)
        };
        let mut seed = 7u64;
        for len in 0..40 {
            for _ in 0..20 {
                let s: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                        if (seed >> 33).is_multiple_of(3) {
                            b'b'
                        } else {
                            b'a'
                        }
                    })
                    .collect();
                // A whole piece that is a token counts 1 in both (tiktoken checks it first).
                let want = if rank(&s).is_some() {
                    1
                } else {
                    reference(&s, &rank)
                };
                assert_eq!(count(&s, rank), want, "{}", String::from_utf8_lossy(&s));
            }
        }
    }
}

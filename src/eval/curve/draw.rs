//! Which belt tools join at each size of the distractor curve: the candidates (the belt's
//! tools that are not yours), the sizes measured, and the two orders the tools join in —
//! seeded random and nearest-first. A size's distractors are the first `size` of an order,
//! so each draw is nested: size k's tools are among size k+1's.

use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::catalog::Catalog;
use crate::catalog::belt::Belt;
use crate::catalog::belt::combine::distractors;
use crate::models::bm25::Bm25;
use crate::score::curve::Draw;
use crate::text;

/// The sizes measured unless `--curve-sizes` says otherwise (plus every tool when the belt
/// has more than the largest).
pub(crate) const DEFAULT_SIZES: [usize; 6] = [0, 10, 50, 100, 200, 500];

/// The seed of the random draw unless `--seed` gives one.
pub(crate) const DEFAULT_SEED: u64 = 12;

/// The most sizes one curve measures.
pub(crate) const MAX_SIZES: usize = 24;

/// A size asked for: a number of tools, or every tool the belt offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    Tools(usize),
    All,
}

impl std::str::FromStr for Size {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("all") {
            return Ok(Size::All);
        }
        s.parse::<usize>().map(Size::Tools).map_err(|_| {
            format!("`{s}` is not a number of distractor tools (or `all`), e.g. 0,10,50,all")
        })
    }
}

/// The belt's tools that can be drawn, `(server, tool)` in belt order, each once.
pub(crate) fn candidates(own: &Catalog, own_name: &str, belt: &Belt) -> Vec<(String, String)> {
    let mut seen = HashSet::new();
    distractors(own, own_name, belt)
        .into_iter()
        .filter(|c| seen.insert(c.clone()))
        .collect()
}

/// The sizes to measure: 0 always; each asked size capped at `available`; sorted, each once.
/// `None` asks for the defaults, which add every tool when the belt has more than 500.
pub(crate) fn sizes(asked: Option<&[Size]>, available: usize) -> Vec<usize> {
    let defaults: Vec<Size> = DEFAULT_SIZES
        .iter()
        .map(|&k| Size::Tools(k))
        .chain([Size::All])
        .collect();
    let mut out: Vec<usize> = asked
        .unwrap_or(&defaults)
        .iter()
        .map(|s| match s {
            Size::Tools(k) => (*k).min(available),
            Size::All => available,
        })
        .chain([0])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// An unbiased draw in `0..bound` (bound > 0) from the generator's raw output, so the order
/// depends only on ChaCha8's stream (fixed for a seed), not on a library's sampling method.
fn below(rng: &mut ChaCha8Rng, bound: u64) -> u64 {
    let rem = (u64::MAX % bound + 1) % bound;
    loop {
        let x = rng.next_u64();
        if rem == 0 || x < 0u64.wrapping_sub(rem) {
            return x % bound;
        }
    }
}

/// The candidates in a seeded random order (Fisher–Yates).
pub(crate) fn random(candidates: &[(String, String)], seed: u64) -> Vec<(String, String)> {
    let mut out = candidates.to_vec();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in (1..out.len()).rev() {
        let j = below(&mut rng, i as u64 + 1) as usize;
        out.swap(i, j);
    }
    out
}

/// The text a belt tool is compared by: its name's words and its description.
fn query(belt: &Belt, server: &str, tool: &str) -> String {
    let description = belt
        .servers
        .iter()
        .find(|s| s.name == server)
        .and_then(|s| s.catalog.tools.iter().find(|t| t.name() == tool))
        .and_then(|t| t.description())
        .unwrap_or("");
    format!("{} {description}", text::name_words(tool).join(" "))
}

/// The candidates most similar to your tools first: the BM25 score of each one's name and
/// description against an index of your tools, the best over your tools; ties by
/// (server, tool).
pub(crate) fn nearest(
    own: &Catalog,
    belt: &Belt,
    candidates: &[(String, String)],
) -> Vec<(String, String)> {
    let index = Bm25::new(own, 0.0);
    let mut scored: Vec<(f64, &(String, String))> = candidates
        .iter()
        .map(|c| {
            let best = index
                .rank(&query(belt, &c.0, &c.1))
                .first()
                .map_or(0.0, |r| r.1);
            (best, c)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().map(|(_, c)| c.clone()).collect()
}

/// The order of `draw`, cut to `max` tools.
pub(crate) fn order(
    draw: Draw,
    own: &Catalog,
    belt: &Belt,
    candidates: &[(String, String)],
    seed: u64,
    max: usize,
) -> Vec<(String, String)> {
    let mut out = match draw {
        Draw::Random => random(candidates, seed),
        Draw::Nearest => nearest(own, belt, candidates),
    };
    out.truncate(max);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Tool;
    use crate::catalog::belt::BeltServer;
    use serde_json::json;

    fn cat(tools: &[(&str, &str)]) -> Catalog {
        Catalog {
            tools: tools
                .iter()
                .map(|(n, d)| Tool::from_value(json!({"name": n, "description": d}), "t").unwrap())
                .collect(),
            ..Default::default()
        }
    }

    fn pairs(n: usize) -> Vec<(String, String)> {
        (0..n)
            .map(|i| ("s".to_string(), format!("t{i:03}")))
            .collect()
    }

    #[test]
    fn sizes_are_capped_and_all_is_added_past_the_defaults() {
        assert_eq!(sizes(None, 479), [0, 10, 50, 100, 200, 479]);
        assert_eq!(sizes(None, 800), [0, 10, 50, 100, 200, 500, 800]);
        assert_eq!(sizes(None, 30), [0, 10, 30]);
        assert_eq!(sizes(None, 0), [0]);
        let asked = [Size::Tools(20), Size::Tools(5), Size::All];
        assert_eq!(sizes(Some(&asked), 7), [0, 5, 7]);
        assert_eq!("all".parse::<Size>(), Ok(Size::All));
        assert!("x".parse::<Size>().is_err());
    }

    #[test]
    fn the_random_order_is_a_seeded_permutation() {
        let c = pairs(100);
        let a = random(&c, 7);
        assert_eq!(a, random(&c, 7));
        assert_ne!(a, random(&c, 8));
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, c);
        // Every position is reachable: over seeds, the first pick is spread out.
        let firsts: HashSet<String> = (0..200).map(|s| random(&c, s)[0].1.clone()).collect();
        assert!(firsts.len() > 50, "{}", firsts.len());
    }

    #[test]
    fn nearest_first_puts_look_alikes_first_and_breaks_ties_by_name() {
        let own = cat(&[("send_email", "Send an email message to a recipient.")]);
        let belt = Belt {
            config: "b".into(),
            servers: vec![BeltServer {
                name: "x".into(),
                catalog: cat(&[
                    ("zip_files", "Compress files."),
                    ("mail_send", "Send an email to someone."),
                    ("add_numbers", "Add numbers."),
                ]),
            }],
        };
        let c = candidates(&own, "mine", &belt);
        let o = nearest(&own, &belt, &c);
        assert_eq!(o[0].1, "mail_send");
        // The other two share no words with yours: tied at 0, by name.
        assert_eq!(o[1].1, "add_numbers");
        assert_eq!(o[2].1, "zip_files");
        assert_eq!(order(Draw::Nearest, &own, &belt, &c, 1, 1).len(), 1);
    }
}

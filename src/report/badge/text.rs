//! How wide a badge's text is, from DejaVu Sans's metrics as a table (`metrics.rs`): each
//! glyph's advance and whether it draws anything, the font's ligatures (ff, fi, fl,
//! ffi, ffl: one glyph each, taken longest first as the shaper does), and the kerning between
//! pairs of the common glyphs, in font units. The width is what resvg measures for a `<text>` laid out in
//! the font: the advances from the first glyph to the end of the last, or none when no glyph
//! draws (`metrics_tests.rs` checks the table against resvg and rewrites it), so
//! the binary needs neither the font nor a text shaper to size a badge.
//!
//! Outside the table (a model named in CJK, say) a glyph is taken as the font's missing-glyph
//! box, and pairs outside Latin-1 are not kerned: such a badge is sized approximately.

use super::metrics::{FALLBACK, GLYPHS, KERNING, UNITS_PER_EM};

/// The badge's font size in pixels.
pub(super) const FONT_SIZE: f64 = 11.0;

/// A glyph's metrics: its advance in font units, and whether it draws anything (a space
/// does not).
pub(super) type Glyph = (i32, bool);

fn glyph(c: &str) -> Glyph {
    GLYPHS
        .binary_search_by_key(&c, |g| g.0)
        .ok()
        .and_then(|i| GLYPHS.get(i))
        .map_or(FALLBACK, |&(_, advance, draws)| (i32::from(advance), draws))
}

fn kerning(a: &str, b: &str) -> i32 {
    KERNING
        .binary_search_by_key(&(a, b), |k| (k.0, k.1))
        .ok()
        .and_then(|i| KERNING.get(i))
        .map_or(0, |k| i32::from(k.2))
}

/// SVG's default white-space handling, as resvg applies it to a `<text>`: newlines removed,
/// tabs made spaces, runs of spaces made one, and spaces at either end dropped. A soft hyphen
/// draws nothing and goes too.
fn collapse(text: &str) -> Vec<char> {
    let mut out: Vec<char> = Vec::with_capacity(text.len());
    for c in text.chars() {
        let c = match c {
            '\n' | '\r' | '\u{ad}' => continue,
            '\t' => ' ',
            c => c,
        };
        if c == ' ' && out.last().is_none_or(|&p| p == ' ') {
            continue;
        }
        out.push(c);
    }
    while out.last() == Some(&' ') {
        out.pop();
    }
    out
}

/// The text as the glyphs it is set in: a ligature where the font has one (longest first),
/// else one glyph per character.
fn glyphs(chars: &[char]) -> Vec<String> {
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let take = (2..=LONGEST_LIGATURE)
            .rev()
            .find(|&n| {
                chars.get(i..i + n).is_some_and(|s| {
                    let s: String = s.iter().collect();
                    GLYPHS.binary_search_by_key(&s.as_str(), |g| g.0).is_ok()
                })
            })
            .unwrap_or(1);
        out.push(chars[i..i + take].iter().collect());
        i += take;
    }
    out
}

/// The longest ligature's length in characters.
const LONGEST_LIGATURE: usize = 3;

/// The width in pixels of `text` set in DejaVu Sans at [`FONT_SIZE`]: its glyphs' advances
/// and the kerning between them. 0 when no glyph draws anything.
pub(super) fn width(text: &str) -> f64 {
    let set = glyphs(&collapse(text));
    let (mut pen, mut draws) = (0i64, false);
    for (i, g) in set.iter().enumerate() {
        let (advance, drawn) = glyph(g);
        draws |= drawn;
        let next = set.get(i + 1).map_or(0, |n| kerning(g, n));
        pen += i64::from(advance) + i64::from(next);
    }
    if !draws {
        return 0.0;
    }
    pen as f64 * FONT_SIZE / UNITS_PER_EM
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_space_is_collapsed_as_svg_does() {
        assert_eq!(collapse("  a \t b\n "), vec!['a', ' ', 'b']);
        assert!(collapse(" \n ").is_empty());
        assert_eq!(width("  a  b "), width("a b"));
        assert_eq!(width("   "), 0.0);
    }

    #[test]
    fn ligatures_are_taken_longest_first() {
        let chars: Vec<char> = "fffi affle".chars().collect();
        assert_eq!(glyphs(&chars), ["ff", "fi", " ", "a", "ffl", "e"]);
    }

    #[test]
    fn kerning_pulls_a_pair_together() {
        // DejaVu Sans kerns "AV" and "To"; the table must carry it.
        assert!(kerning("A", "V") < 0 && kerning("T", "o") < 0);
        assert_eq!(kerning("a", "b"), 0);
        assert!(width("AV") < width("A") + width("V") + width("AV") / 10.0);
    }

    #[test]
    fn a_glyph_outside_the_table_is_the_missing_glyph_box() {
        let (advance, draws) = glyph("\u{4e2d}");
        assert!(advance > 0 && draws);
        assert!(width("\u{4e2d}\u{6587}") > width("\u{4e2d}"));
    }
}

//! The badge's font metrics against resvg: the table in `metrics.rs` is measured here from
//! assets/fonts/DejaVuSans.ttf as resvg lays text out (glyph positions after shaping, and each
//! glyph's box), and must be what is committed; `UPDATE_BADGE_METRICS=1` rewrites it. Then
//! widths from the table must be the widths resvg measures, on every glyph alone and on
//! seeded random strings.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rand::{RngExt, SeedableRng};
use resvg::usvg;

use super::metrics::{FALLBACK, GLYPHS, KERNING, UNITS_PER_EM};
use super::text::{FONT_SIZE, Glyph, width};

fn options() -> usvg::Options<'static> {
    let font = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/fonts/DejaVuSans.ttf"
    ))
    .unwrap();
    let mut o = usvg::Options::default();
    o.fontdb_mut().load_font_data(font);
    o
}

fn svg(text: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="40"><text x="0" y="20" font-family="DejaVu Sans" font-size="{FONT_SIZE}">{}</text></svg>"#,
        crate::report::escape::esc(text)
    )
}

/// What resvg measures for `text`: its bounding box (left, right) in pixels.
fn resvg_box(text: &str, o: &usvg::Options) -> Option<(f64, f64)> {
    let tree = usvg::Tree::from_str(&svg(text), o).ok()?;
    let b = tree.root().abs_bounding_box();
    (b.width() > 0.0).then(|| (f64::from(b.left()), f64::from(b.right())))
}

fn units(px: f64) -> i32 {
    let u = px * UNITS_PER_EM / FONT_SIZE;
    assert!(
        (u - u.round()).abs() < 0.05,
        "{px} px is not whole font units"
    );
    u.round() as i32
}

/// The glyphs the table covers: Latin (ASCII, Latin-1, Latin Extended-A), Greek, Cyrillic,
/// general punctuation and arrows; and the ones kerned with each other: ASCII and Latin-1.
fn covered() -> (Vec<char>, Vec<char>) {
    let ranges = [
        0x20..=0x7e,
        0xa0..=0x17f,
        0x370..=0x3ff,
        0x400..=0x4ff,
        0x2010..=0x2027,
        0x2030..=0x203a,
        0x2190..=0x2193,
    ];
    let all: Vec<char> = ranges
        .into_iter()
        .flatten()
        .filter_map(char::from_u32)
        // Combining marks take their place from the glyph before them; a soft hyphen draws
        // nothing (the width leaves it out).
        .filter(|c| !(0x483..=0x489).contains(&(*c as u32)) && *c != '\u{ad}')
        .collect();
    let kerned = all
        .iter()
        .copied()
        .filter(|&c| (c as u32) < 0x100)
        .collect();
    (all, kerned)
}

/// The most common value (the advance, when most pairs are not kerned).
fn mode(values: &[i32]) -> i32 {
    let mut counts: BTreeMap<i32, usize> = BTreeMap::new();
    for &v in values {
        *counts.entry(v).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(v, n)| (n, -v))
        .map(|(v, _)| v)
        .unwrap()
}

struct Measured {
    glyphs: Vec<(String, i32, bool)>,
    kerning: BTreeMap<(String, String), i32>,
    fallback: Glyph,
}

/// The font's ligatures among the kerned glyphs.
const LIGATURES: [&str; 5] = ["ff", "fi", "fl", "ffi", "ffl"];

/// Each glyph resvg sets `text` in: the text it stands for, its pen position in pixels, and
/// whether the font has it (glyph id not 0).
fn clusters(text: &str, o: &usvg::Options) -> Vec<(String, f64, bool)> {
    let tree = usvg::Tree::from_str(&svg(text), o).unwrap();
    let Some(usvg::Node::Text(t)) = tree.root().children().first() else {
        panic!("no text node for {text:?}");
    };
    t.layouted()
        .iter()
        .flat_map(|s| &s.positioned_glyphs)
        .map(|g| (g.text.clone(), f64::from(g.transform().tx), g.id.0 != 0))
        .collect()
}

/// Shapes `H c k0 c k1 … c kn c H` for each glyph c (a character or a ligature), k the kerned
/// characters: the step from each glyph to the next is its advance plus the pair's kerning.
fn measure() -> Measured {
    let o = options();
    let (all, kerned) = covered();
    let rows: Vec<String> = all
        .iter()
        .map(char::to_string)
        .chain(LIGATURES.iter().map(|l| l.to_string()))
        .collect();
    let mut glyphs = Vec::new();
    let mut steps: BTreeMap<(String, String), i32> = BTreeMap::new();
    let mut advance_of: BTreeMap<String, i32> = BTreeMap::new();
    for c in &rows {
        let mut text = String::from("H");
        for &k in kerned.iter().filter(|&&k| !(c == " " && k == ' ')) {
            text.push_str(c);
            text.push(k);
        }
        text.push_str(c);
        text.push('H');
        let set = clusters(&text, &o);
        if set.get(1).is_none_or(|g| g.0 != *c || !g.2) {
            continue; // not in the font (or not one glyph)
        }
        let mut own = Vec::new();
        for w in set.windows(2) {
            let step = units(w[1].1 - w[0].1);
            steps.insert((w[0].0.clone(), w[1].0.clone()), step);
            if w[0].0 == *c {
                own.push(step);
            }
        }
        let advance = mode(&own);
        advance_of.insert(c.clone(), advance);
        // resvg's box of a text is its glyphs' advances, not their ink.
        let ink = resvg_box(c, &o).map(|(l, r)| (units(l), units(r)));
        assert!(ink.is_none_or(|i| i == (0, advance)), "{c:?}: box {ink:?}");
        glyphs.push((c.clone(), advance, ink.is_some()));
    }
    glyphs.sort();
    let kerning = steps
        .into_iter()
        .filter_map(|((a, b), step)| {
            let k = step - advance_of.get(&a)?;
            (k != 0 && advance_of.contains_key(&b)).then_some(((a, b), k))
        })
        .collect();
    let missing = "\u{4e2d}";
    let set = clusters(&format!("H{missing}H"), &o);
    let fallback = (units(set[2].1 - set[1].1), resvg_box(missing, &o).is_some());
    Measured {
        glyphs,
        kerning,
        fallback,
    }
}

/// `items` as rows of `per` (the table stays a few hundred lines).
fn rows(s: &mut String, items: &[String], per: usize) {
    for row in items.chunks(per) {
        let _ = writeln!(s, "    {},", row.join(", "));
    }
}

fn render(m: &Measured) -> String {
    let mut s = String::from(
        "//! DejaVu Sans's metrics for the badge, in font units: written by\n\
         //! `UPDATE_BADGE_METRICS=1 cargo test --lib report::badge` from\n\
         //! assets/fonts/DejaVuSans.ttf as resvg lays it out (see `metrics_tests.rs`). Do not edit.\n\n",
    );
    let _ = writeln!(
        s,
        "/// Font units per em.\npub(super) const UNITS_PER_EM: f64 = {UNITS_PER_EM:?};\n"
    );
    let _ = writeln!(
        s,
        "/// A glyph the table lacks: the font's missing-glyph box.\npub(super) const FALLBACK: (i32, bool) = {:?};\n",
        m.fallback
    );
    s.push_str("/// Each glyph: its advance, and whether it draws anything.\n#[rustfmt::skip]\npub(super) static GLYPHS: &[(&str, i16, bool)] = &[\n");
    let glyphs: Vec<String> = m
        .glyphs
        .iter()
        .map(|(c, adv, draws)| format!("({c:?}, {adv}, {draws})"))
        .collect();
    rows(&mut s, &glyphs, 8);
    s.push_str("];\n\n/// Kerning between two glyphs (ASCII and Latin-1), added to the first one's advance.\n#[rustfmt::skip]\npub(super) static KERNING: &[(&str, &str, i16)] = &[\n");
    let kerning: Vec<String> = m
        .kerning
        .iter()
        .map(|((a, b), k)| format!("({a:?}, {b:?}, {k})"))
        .collect();
    rows(&mut s, &kerning, 10);
    s.push_str("];\n");
    s
}

fn committed() -> Measured {
    Measured {
        glyphs: GLYPHS
            .iter()
            .map(|&(c, a, draws)| (c.to_string(), i32::from(a), draws))
            .collect(),
        kerning: KERNING
            .iter()
            .map(|&(a, b, k)| ((a.to_string(), b.to_string()), i32::from(k)))
            .collect(),
        fallback: FALLBACK,
    }
}

#[test]
fn the_metrics_are_what_resvg_lays_out() {
    let measured = render(&measure());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/report/badge/metrics.rs");
    if std::env::var_os("UPDATE_BADGE_METRICS").is_some() {
        std::fs::write(path, &measured).unwrap();
    }
    assert!(
        render(&committed()) == measured,
        "src/report/badge/metrics.rs is not what resvg measures: rerun with UPDATE_BADGE_METRICS=1"
    );
}

#[test]
fn widths_from_the_table_are_resvgs() {
    let o = options();
    let check = |text: &str| {
        let want = resvg_box(text, &o).map_or(0.0, |(l, r)| r - l);
        let got = width(text);
        assert!(
            (got - want).abs() < 0.01,
            "{text:?}: table {got}, resvg {want}"
        );
    };
    let (_, kerned) = covered();
    for &(c, _, _) in GLYPHS {
        check(c);
    }
    for label in [
        "toolgate · findability@1 (bm25)",
        "toolgate · findability@1 (bm25) (smoke)",
        "toolgate · gpt-4o-mini",
        "52% (partial)",
        "AVAVA To Ty Wa ‘quoted’ — «done» … affine fffi soft\u{ad}ly",
        "  spaced   out  ",
    ] {
        check(label);
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..300 {
        let n = rng.random_range(1..24);
        let text: String = (0..n)
            .map(|_| kerned[rng.random_range(0..kerned.len())])
            .collect();
        check(&text);
    }
}

/// Rasterises an SVG with the badge's font to RGBA pixels: (width, height, pixels).
pub(super) fn rasterise(svg: &str) -> Option<(u32, u32, Vec<u8>)> {
    let tree = usvg::Tree::from_str(svg, &options()).ok()?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    Some((size.width(), size.height(), pixmap.data().to_vec()))
}

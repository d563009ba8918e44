//! A self-contained SVG line chart (no script, no external asset): categorical x axis, y from
//! 0 to 100 %, one line per series with a shaded 95 % interval band, labelled axes, a legend
//! and optional marked points. Every label is escaped; text is SVG `<text>` in the page's
//! colour (`currentColor`), so it reads in light and dark mode.

use crate::report::escape::esc;

/// One line: a value and its interval per x category (`None`: no point there).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Line {
    pub label: String,
    /// (value, lo, hi) as fractions 0–1, one per x category.
    pub points: Vec<Option<(f64, f64, f64)>>,
    /// The category to mark (e.g. a breaking point), with its caption.
    pub mark: Option<(usize, String)>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_ticks: Vec<String>,
    pub lines: Vec<Line>,
}

const W: f64 = 640.0;
const H: f64 = 360.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 56.0;
/// Colours readable on white and on a dark page; dashes tell lines apart without colour.
const COLOURS: [&str; 6] = [
    "#1f6feb", "#d4731a", "#2da44e", "#a371f7", "#cf222e", "#8c959f",
];
const DASHES: [&str; 3] = ["", "6 4", "2 3"];

fn f(v: f64) -> String {
    format!("{v:.1}")
}

/// The chart as an `<svg>` element.
pub(crate) fn svg(c: &Chart) -> String {
    let plot_w = W - LEFT - RIGHT;
    let plot_h = H - TOP - BOTTOM;
    let n = c.x_ticks.len().max(1);
    let x = |i: usize| {
        if n == 1 {
            LEFT + plot_w / 2.0
        } else {
            LEFT + plot_w * i as f64 / (n - 1) as f64
        }
    };
    let y = |v: f64| TOP + plot_h * (1.0 - v.clamp(0.0, 1.0));
    let mut out = format!(
        "<svg class=chart xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" width=\"{W}\" height=\"{H}\" role=\"img\" aria-label=\"{}\" font-family=\"system-ui,sans-serif\" font-size=\"12\">",
        esc(&c.title)
    );
    out.push_str(&format!("<title>{}</title>", esc(&c.title)));
    // Grid and y ticks.
    for pct in (0..=100).step_by(20) {
        let yy = y(pct as f64 / 100.0);
        out.push_str(&format!(
            "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"currentColor\" stroke-opacity=\"0.15\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"currentColor\">{pct}%</text>",
            f(LEFT), f(W - RIGHT), f(yy), f(yy), f(LEFT - 6.0), f(yy + 4.0)
        ));
    }
    for (i, t) in c.x_ticks.iter().enumerate() {
        out.push_str(&format!(
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"currentColor\" stroke-opacity=\"0.4\"/><text x=\"{0}\" y=\"{3}\" text-anchor=\"middle\" fill=\"currentColor\">{4}</text>",
            f(x(i)), f(TOP + plot_h), f(TOP + plot_h + 4.0), f(TOP + plot_h + 18.0), esc(t)
        ));
    }
    out.push_str(&format!(
        "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"currentColor\"/><line x1=\"{0}\" x2=\"{3}\" y1=\"{2}\" y2=\"{2}\" stroke=\"currentColor\"/>",
        f(LEFT), f(TOP), f(TOP + plot_h), f(W - RIGHT)
    ));
    out.push_str(&format!(
        "<text class=x-label x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"currentColor\">{}</text>",
        f(LEFT + plot_w / 2.0), f(H - 14.0), esc(&c.x_label)
    ));
    out.push_str(&format!(
        "<text class=y-label transform=\"translate(16 {}) rotate(-90)\" text-anchor=\"middle\" fill=\"currentColor\">{}</text>",
        f(TOP + plot_h / 2.0), esc(&c.y_label)
    ));
    out.push_str(&format!(
        "<text x=\"{}\" y=\"20\" font-size=\"14\" font-weight=\"600\" fill=\"currentColor\">{}</text>",
        f(LEFT), esc(&c.title)
    ));
    for (li, line) in c.lines.iter().enumerate() {
        let colour = COLOURS[li % COLOURS.len()];
        let dash = DASHES[li % DASHES.len()];
        let pts: Vec<(usize, (f64, f64, f64))> = line
            .points
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (i, p)))
            .collect();
        if pts.is_empty() {
            continue;
        }
        // The interval band: along the highs, back along the lows.
        let band: Vec<String> = pts
            .iter()
            .map(|(i, p)| format!("{},{}", f(x(*i)), f(y(p.2))))
            .chain(
                pts.iter()
                    .rev()
                    .map(|(i, p)| format!("{},{}", f(x(*i)), f(y(p.1)))),
            )
            .collect();
        out.push_str(&format!(
            "<polygon class=band points=\"{}\" fill=\"{colour}\" fill-opacity=\"0.15\" stroke=\"none\"/>",
            band.join(" ")
        ));
        let path: Vec<String> = pts
            .iter()
            .map(|(i, p)| format!("{},{}", f(x(*i)), f(y(p.0))))
            .collect();
        out.push_str(&format!(
            "<polyline class=series data-label=\"{}\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{}/>",
            esc(&line.label),
            path.join(" "),
            if dash.is_empty() { String::new() } else { format!(" stroke-dasharray=\"{dash}\"") }
        ));
        for (i, p) in &pts {
            out.push_str(&format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{colour}\"><title>{}: {} — {:.1}% [{:.1}, {:.1}]</title></circle>",
                f(x(*i)), f(y(p.0)), esc(&line.label), esc(c.x_ticks.get(*i).map_or("", String::as_str)),
                p.0 * 100.0, p.1 * 100.0, p.2 * 100.0
            ));
        }
        if let Some((i, caption)) = &line.mark
            && let Some((_, p)) = pts.iter().find(|(j, _)| j == i)
        {
            out.push_str(&format!(
                "<g class=mark><line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"{colour}\" stroke-dasharray=\"3 3\"/><circle cx=\"{0}\" cy=\"{3}\" r=\"6\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/><text x=\"{4}\" y=\"{5}\" fill=\"{colour}\">{6}</text></g>",
                f(x(*i)), f(TOP), f(TOP + plot_h), f(y(p.0)), f(x(*i) + 6.0), f(TOP + 14.0 + 14.0 * li as f64), esc(caption)
            ));
        }
    }
    // The legend, top right inside the plot.
    for (li, line) in c.lines.iter().enumerate() {
        let colour = COLOURS[li % COLOURS.len()];
        let dash = DASHES[li % DASHES.len()];
        let yy = H - BOTTOM - 12.0 - 16.0 * (c.lines.len() - 1 - li) as f64;
        let x0 = W - RIGHT - 200.0;
        out.push_str(&format!(
            "<g class=legend><line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"2\"{}/><text x=\"{}\" y=\"{}\" fill=\"currentColor\">{}</text></g>",
            f(x0), f(x0 + 24.0), f(yy - 4.0), f(yy - 4.0),
            if dash.is_empty() { String::new() } else { format!(" stroke-dasharray=\"{dash}\"") },
            f(x0 + 30.0), f(yy), esc(&line.label)
        ));
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_line_band_and_mark_and_escapes_labels() {
        let c = Chart {
            title: "<t>".into(),
            x_label: "tools".into(),
            y_label: "accuracy".into(),
            x_ticks: vec!["0".into(), "10".into(), "50".into()],
            lines: vec![
                Line {
                    label: "a&b".into(),
                    points: vec![Some((0.8, 0.7, 0.9)), Some((0.5, 0.4, 0.6)), None],
                    mark: Some((1, "breaks at 10".into())),
                },
                Line {
                    label: "c".into(),
                    points: vec![
                        Some((1.0, 0.9, 1.0)),
                        Some((0.0, 0.0, 0.1)),
                        Some((0.2, 0.1, 0.3)),
                    ],
                    mark: None,
                },
            ],
        };
        let s = svg(&c);
        assert_eq!(s.matches("<polyline").count(), 2);
        assert_eq!(s.matches("<polygon").count(), 2);
        assert_eq!(s.matches("class=mark").count(), 1);
        assert!(s.contains("a&amp;b") && s.contains("&lt;t&gt;") && !s.contains("<t>"));
        // y = 100% is the top of the plot, 0% its bottom: 80% of 264 px below 40 is 92.8.
        assert!(s.contains(&format!("points=\"{},92.8 ", f(LEFT))), "{s}");
    }
}

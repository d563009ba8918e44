//! The SVG badge: a shields-style flat badge (label, value, colour by thresholds) whose text
//! widths are DejaVu Sans's as resvg lays it out (a table of the font's metrics, checked
//! against resvg by the tests; see [`text`]), so it renders the same everywhere. Provenance
//! (model, trials, split, max steps, task-suite and catalog hashes, toolgate version) is
//! embedded in the SVG.

use crate::record::run::RunStatus;

mod metrics;
#[cfg(test)]
mod metrics_tests;
mod text;

use text::FONT_SIZE;

fn esc(s: &str) -> String {
    crate::report::escape::esc(s)
}

/// The rendered width of `text` in DejaVu Sans 11px (see [`text`]).
pub(crate) fn text_width(text: &str) -> f64 {
    Some(text::width(text))
        .filter(|w| *w > 0.0)
        .unwrap_or(text.chars().count() as f64 * 6.5)
}

/// Colour of a score (0–1): green from 0.9, yellow-green 0.8, yellow 0.6, orange 0.4, red below.
pub(crate) fn colour(score: f64) -> &'static str {
    match score {
        s if s >= 0.9 => "#4c1",
        s if s >= 0.8 => "#97ca00",
        s if s >= 0.6 => "#dfb317",
        s if s >= 0.4 => "#fe7d37",
        _ => "#e05d44",
    }
}

/// A flat badge. `provenance` is embedded as JSON in the SVG's `<desc>`.
pub(crate) fn render(
    label: &str,
    value: &str,
    colour: &str,
    provenance: &serde_json::Value,
) -> String {
    let lw = (text_width(label) + 10.0).round();
    let vw = (text_width(value) + 10.0).round();
    let w = lw + vw;
    let (l, v) = (esc(label), esc(value));
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="20" role="img" aria-label="{l}: {v}"><title>{l}: {v}</title><desc>{prov}</desc><linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="{w}" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{vw}" height="20" fill="{colour}"/><rect width="{w}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle" font-family="DejaVu Sans,Verdana,Geneva,sans-serif" font-size="{FONT_SIZE}"><text x="{lx}" y="15" fill="#010101" fill-opacity=".3">{l}</text><text x="{lx}" y="14">{l}</text><text x="{vx}" y="15" fill="#010101" fill-opacity=".3">{v}</text><text x="{vx}" y="14">{v}</text></g></svg>
"##,
        prov = esc(&provenance.to_string()),
        lx = lw / 2.0,
        vx = lw + vw / 2.0,
    )
}

/// The colour of a smoke suite's badge: grey, whatever the score.
pub(crate) const SMOKE: &str = "#9f9f9f";

/// What a run's badge says: label, value, colour and provenance (the first model's tool
/// accuracy).
struct Face {
    label: String,
    value: String,
    colour: &'static str,
    provenance: serde_json::Value,
}

fn face(run: &crate::record::RunFile) -> Option<Face> {
    let r = run.results.first()?;
    let a = &r.metrics.accuracy;
    let value = if run.status == RunStatus::Complete {
        format!("{:.0}%", a.value * 100.0)
    } else {
        format!("{:.0}% (partial)", a.value * 100.0)
    };
    let info = run.models.iter().find(|m| m.spec == r.model);
    let provenance = serde_json::json!({
        "generator": format!("toolgate {}", env!("CARGO_PKG_VERSION")),
        "model": r.model,
        "trials": info.map(|m| m.trials),
        "n": a.n,
        "interval": [a.lo, a.hi],
        "suite_sha256": run.suite.sha256,
        "catalog_sha256": run.catalog.sha256,
        "seed": run.seed,
        "suite_reviewed": run.suite.reviewed(),
        "metric": crate::record::metric::name(&r.model),
        // Which part of the suite, and how many calls a task could take: two badges of one
        // suite are comparable only when these match.
        "split": run.split,
        "max_steps": run.max_steps,
    });
    // A suite no person reviewed is a smoke test: shown, never coloured like a verdict.
    let smoke = !run.suite.reviewed();
    // A router's number is findability, not a model's accuracy: named so, and never coloured
    // like a verdict on the server.
    let router = crate::record::metric::is_router(&r.model);
    let who = if router {
        format!("toolgate · findability@1 ({})", badge_model(&r.model))
    } else {
        format!("toolgate · {}", badge_model(&r.model))
    };
    Some(Face {
        label: if smoke { format!("{who} (smoke)") } else { who },
        value,
        colour: if smoke || router {
            SMOKE
        } else {
            colour(a.value)
        },
        provenance,
    })
}

/// How the badge names the model that was measured: the model's own name for an LLM
/// (`openai:gpt-4o-mini` → `gpt-4o-mini`), the router for an offline one (`bm25:1.5` → `bm25`),
/// `replay` for recorded answers; at most 28 characters.
pub(crate) fn badge_model(spec: &str) -> String {
    use crate::record::model::{self, Head};
    let parts = model::parse(spec);
    let rest = parts.rest;
    let name = match parts.head {
        Head::Router(r) => r.name().to_string(),
        Head::Replay => "replay".to_string(),
        Head::Other("local") => std::path::Path::new(rest)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "local".into()),
        Head::Other(kind) if rest.is_empty() => kind.to_string(),
        Head::Other(_) => rest.rsplit('/').next().unwrap_or(rest).to_string(),
    };
    if name.chars().count() > 28 {
        format!("{}…", name.chars().take(27).collect::<String>())
    } else {
        name
    }
}

/// The badge of a run: the first model's score (tool accuracy for a model that chooses,
/// findability@1 for a router, grey).
pub(crate) fn for_run(run: &crate::record::RunFile) -> Option<String> {
    let f = face(run)?;
    Some(render(&f.label, &f.value, f.colour, &f.provenance))
}

/// The same badge as a shields.io endpoint document
/// (`https://img.shields.io/endpoint?url=<where it is published>`), for READMEs that want
/// shields' styles; the provenance rides along as extra keys shields ignores.
pub(crate) fn endpoint_json(run: &crate::record::RunFile) -> Option<String> {
    let f = face(run)?;
    let doc = serde_json::json!({
        "schemaVersion": 1,
        "label": f.label,
        "message": f.value,
        "color": f.colour.trim_start_matches('#'),
        "toolgate": f.provenance,
    });
    serde_json::to_string_pretty(&doc).ok().map(|t| t + "\n")
}

/// `FILE.svg` → `FILE.json`: where the endpoint document goes beside an SVG badge.
pub(crate) fn endpoint_path(svg: &std::path::Path) -> std::path::PathBuf {
    svg.with_extension("json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_document_says_what_the_svg_says() {
        let run: crate::record::RunFile = crate::record::v1::from_text(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/fixtures/example/toolgate-baseline.json"
            ))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .map(|v| v["run"].to_string())
            .unwrap_or_default(),
        )
        .unwrap();
        let svg = for_run(&run).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&endpoint_json(&run).unwrap()).unwrap();
        assert_eq!(doc["schemaVersion"], 1);
        let message = doc["message"].as_str().unwrap();
        assert!(message.ends_with('%') && svg.contains(&format!(">{message}</text>")));
        let colour = doc["color"].as_str().unwrap();
        assert!(svg.contains(&format!("fill=\"#{colour}\"")), "{colour}");
        assert_eq!(
            endpoint_path(std::path::Path::new("out/badge.svg")),
            std::path::PathBuf::from("out/badge.json")
        );
    }

    #[test]
    fn widths_come_from_the_fonts_metrics() {
        let short = text_width("52%");
        let long = text_width("tool accuracy");
        assert!(short > 10.0 && long > 2.0 * short, "{short} {long}");
        assert_eq!(text_width("WWW"), text_width("WWW"));
    }

    #[test]
    fn badge_rasterises_with_its_text_in_the_value_area() {
        let svg = render(
            "tool accuracy",
            "52%",
            colour(0.52),
            &serde_json::json!({"model": "bm25:4"}),
        );
        let (w, h, px) = super::metrics_tests::rasterise(&svg).unwrap();
        assert_eq!(h, 20);
        let lw = (text_width("tool accuracy") + 10.0).round() as u32;
        assert_eq!(w, lw + (text_width("52%") + 10.0).round() as u32);
        // The value area is orange (#fe7d37); white text pixels must be there.
        let mut text_pixels = 0;
        for y in 4..16 {
            for x in lw + 3..w - 3 {
                let i = ((y * w + x) * 4) as usize;
                let (r, g, b) = (px[i], px[i + 1], px[i + 2]);
                if r > 240 && g > 200 && b > 200 {
                    text_pixels += 1;
                }
            }
        }
        assert!(
            text_pixels > 20,
            "no text drawn in the value area ({text_pixels})"
        );
        assert!(svg.contains("<desc>{&quot;model&quot;:&quot;bm25:4&quot;}</desc>"));
    }

    #[test]
    fn the_badge_names_toolgate_and_the_model() {
        assert_eq!(badge_model("bm25:1.5"), "bm25");
        assert_eq!(badge_model("bm25"), "bm25");
        assert_eq!(badge_model("openai:gpt-4o-mini"), "gpt-4o-mini");
        assert_eq!(
            badge_model("openrouter:meta-llama/llama-3.1-8b"),
            "llama-3.1-8b"
        );
        assert_eq!(badge_model("replay:/x/answers.jsonl"), "replay");
        assert_eq!(badge_model("hybrid@0.3:/models/minilm"), "hybrid");
        assert_eq!(badge_model("local:/m/qwen2.5-0.5b.gguf"), "qwen2.5-0.5b");
        assert_eq!(
            badge_model(&format!("ollama:{}", "x".repeat(40)))
                .chars()
                .count(),
            28
        );
        assert!(text_width("toolgate · bm25") > text_width("toolgate bm25"));
    }

    #[test]
    fn colours_follow_thresholds() {
        assert_eq!(colour(0.95), "#4c1");
        assert_eq!(colour(0.5), "#fe7d37");
        assert_eq!(colour(0.1), "#e05d44");
    }
}

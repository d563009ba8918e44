//! Lint speed on synthetic catalogs of 50, 500 and 2,000 tools (target: < 0.5 s at 2,000,
//! near-linear growth). Run with `cargo bench --bench lint`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::json;
use toolgate::testing::catalog::{Catalog, Tool};
use toolgate::testing::lint::{self, LintSettings};

const VERBS: &[&str] = &[
    "get", "list", "create", "update", "delete", "search", "export", "sync", "archive", "share",
];
const NOUNS: &[&str] = &[
    "invoice",
    "customer",
    "ticket",
    "order",
    "refund",
    "calendar",
    "event",
    "file",
    "folder",
    "user",
    "team",
    "project",
    "report",
    "payment",
    "subscription",
    "comment",
    "label",
    "webhook",
    "token",
    "note",
];
const WORDS: &[&str] = &[
    "account",
    "record",
    "status",
    "history",
    "owner",
    "region",
    "window",
    "amount",
    "currency",
    "date",
    "range",
    "filter",
    "page",
    "limit",
    "summary",
    "detail",
    "version",
    "draft",
    "approval",
    "priority",
    "queue",
    "channel",
    "message",
    "attachment",
    "schedule",
    "reminder",
    "policy",
    "audit",
    "quota",
    "tag",
];

const SERVICES: &[&str] = &[
    "jira", "github", "slack", "stripe", "notion", "gmail", "drive", "zendesk", "hubspot", "linear",
];

/// A deterministic catalog of `n` tools shaped like a gateway that aggregates many servers:
/// 20 tools per service, siblings within a service overlapping as real ones do.
pub fn synthetic(n: usize) -> Catalog {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m as u64) as usize
    };
    let tools = (0..n)
        .map(|i| {
            let service = i / 20;
            let svc = format!("{}{}", SERVICES[service % SERVICES.len()], service / SERVICES.len());
            let verb = VERBS[i % VERBS.len()];
            let noun = NOUNS[(i / 2 + service * 7) % NOUNS.len()];
            let words: Vec<&str> = (0..12).map(|_| WORDS[next(WORDS.len())]).collect();
            let desc = format!(
                "{verb} a {noun} in the {svc} workspace {} by {} and {}. Use this when the user asks about the {svc} {noun} {}.",
                words[0], words[1], words[2], words[3]
            );
            let props: serde_json::Map<String, serde_json::Value> = words[4..8]
                .iter()
                .map(|w| (w.to_string(), json!({"type": "string", "description": format!("The {w} of the {noun}.")})))
                .collect();
            let v = json!({
                "name": format!("{svc}_{verb}_{noun}"),
                "description": desc,
                "inputSchema": {"type": "object", "properties": props, "required": [words[4]]},
                "annotations": {"readOnlyHint": verb == "get" || verb == "list" || verb == "search"}
            });
            Tool::from_value(v, "bench").expect("valid tool")
        })
        .collect();
    Catalog {
        tools,
        ..Default::default()
    }
}

fn per_rule_times() {
    if std::env::var_os("TOOLGATE_RULE_TIMES").is_none() {
        return;
    }
    let settings = LintSettings::default();
    let catalog = synthetic(2000);
    let t = std::time::Instant::now();
    let cx = lint::Context::new(&catalog, &settings);
    eprintln!("context (token counts): {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let docs: Vec<_> = catalog
        .tools
        .iter()
        .map(|t| toolgate::testing::text::similarity_doc(t.name(), t.description().unwrap_or("")))
        .collect();
    eprintln!("similarity docs (stemming): {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let n = toolgate::testing::text::similar_pairs(&docs, settings.lookalike_threshold).len();
    eprintln!("similarity pairs: {:?} ({n})", t.elapsed());
    let t = std::time::Instant::now();
    let pairs = cx.similar().len();
    eprintln!("similarity index: {:?} ({pairs} pairs)", t.elapsed());
    for rule in lint::RULES {
        let t = std::time::Instant::now();
        let mut out = Vec::new();
        (rule.check)(&cx, &mut out);
        eprintln!(
            "{} {:<32} {:?} ({} findings)",
            rule.code,
            rule.slug,
            t.elapsed(),
            out.len()
        );
    }
}

fn bench(c: &mut Criterion) {
    per_rule_times();
    let settings = LintSettings::default();
    // Load the tokenizer once outside the measurement (a fixed start-up cost).
    let _ = toolgate::testing::tokens::count("warm up");
    let mut group = c.benchmark_group("lint");
    group.sample_size(10);
    for n in [50, 500, 2000] {
        let catalog = synthetic(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &catalog, |b, cat| {
            b.iter(|| lint::run(cat, &settings));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

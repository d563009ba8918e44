//! The belt lint across servers (TG001, TG028 look-alikes, TG029 shadowing) on the ecosystem
//! belt (fixtures/ecosystem: 35 real servers, 479 tools), and on 2× and 4× copies of it whose
//! tools are renamed per copy (every tool then has a word-for-word look-alike on each other
//! copy: the worst case for the pair work). Run with `cargo bench --bench belt_lint`.

use std::path::Path;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::Value;
use toolgate::testing::catalog::{Catalog, Tool, snapshot};
use toolgate::testing::lint::{LintSettings, belt};

fn ecosystem() -> Vec<(String, Catalog)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ecosystem");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    manifest["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let name = s["name"].as_str().unwrap().to_string();
            let cat = snapshot::read(&dir.join(format!("{name}.json"))).unwrap();
            (name, cat)
        })
        .collect()
}

/// `copies` copies of the belt, servers and tools renamed per copy.
fn scaled(base: &[(String, Catalog)], copies: usize) -> Vec<(String, Catalog)> {
    let mut out = Vec::new();
    for c in 0..copies {
        for (name, cat) in base {
            let tools = cat
                .tools
                .iter()
                .map(|t| {
                    let mut raw = t.raw.clone();
                    if c > 0 {
                        raw.insert("name".into(), Value::String(format!("{}_v{c}", t.name())));
                    }
                    Tool::from_value(Value::Object(raw), "bench").unwrap()
                })
                .collect();
            let cat = Catalog {
                tools,
                ..Default::default()
            };
            out.push((format!("{name}-{c}"), cat));
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let base = ecosystem();
    let settings = LintSettings::default();
    let mut g = c.benchmark_group("belt_lint");
    g.sample_size(10);
    for copies in [1, 2, 4] {
        let belt_servers = scaled(&base, copies);
        let servers: Vec<(&str, &Catalog)> =
            belt_servers.iter().map(|(n, c)| (n.as_str(), c)).collect();
        let tools: usize = servers.iter().map(|s| s.1.tools.len()).sum();
        g.bench_with_input(BenchmarkId::new("tg001_only", tools), &servers, |b, s| {
            b.iter(|| belt::cross_server(s, &settings));
        });
        g.bench_with_input(BenchmarkId::new("across", tools), &servers, |b, s| {
            b.iter(|| belt::across(s, &settings));
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

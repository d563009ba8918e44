//! Issue 13, point 5: speed must not cost recall. The similarity index never walks a term
//! shared by more than 100 tools, so in a 20,000-tool gateway the common verbs and nouns
//! (`get`, `invoice`, `file`) give no candidates. Planted look-alike pairs must still be found
//! there: the labelled 500-tool catalog (fixtures/lookalike/synthetic-500) is copied 40 times,
//! each copy under its own service names (`billing` → `billing7`), and every labelled pair TG005
//! finds in the 500-tool catalog must be found in every copy of the 20,000-tool one.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use toolgate::testing::catalog::{Catalog, Tool, snapshot};
use toolgate::testing::lint::{Context, LintSettings};

const COPIES: usize = 40;

fn pair(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.into(), b.into())
    } else {
        (b.into(), a.into())
    }
}

fn found(catalog: &Catalog) -> BTreeSet<(String, String)> {
    let settings = LintSettings::default();
    let cx = Context::new(catalog, &settings);
    cx.lookalikes()
        .iter()
        .map(|p| pair(catalog.tools[p.a].name(), catalog.tools[p.b].name()))
        .collect()
}

/// `text` with every service name `s` written `s{k}` (`k` = 0 leaves it alone).
fn rename(text: &str, services: &[String], k: usize) -> String {
    if k == 0 {
        return text.to_string();
    }
    let mut out = text.to_string();
    for s in services {
        out = out
            .replace(&format!("{s}_"), &format!("{s}{k}_"))
            .replace(&format!(" {s} "), &format!(" {s}{k} "))
            .replace(&format!(" {s}."), &format!(" {s}{k}."))
            .replace(&format!(" {s},"), &format!(" {s}{k},"))
            .replace(&format!(" {s};"), &format!(" {s}{k};"))
            .replace(&format!(" {s}:"), &format!(" {s}{k}:"));
    }
    out
}

#[test]
fn planted_pairs_are_still_found_among_20000_tools() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lookalike");
    let small = snapshot::read(&dir.join("synthetic-500.json")).unwrap();
    let labels: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("synthetic-500.labels.json")).unwrap(),
    )
    .unwrap();
    let truth: Vec<(String, String)> = labels["lookalikes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            pair(
                p["pair"][0].as_str().unwrap(),
                p["pair"][1].as_str().unwrap(),
            )
        })
        .collect();
    let at_500 = found(&small);
    let caught: Vec<&(String, String)> = truth.iter().filter(|p| at_500.contains(*p)).collect();
    assert!(
        caught.len() * 10 >= truth.len() * 8,
        "{} of {}",
        caught.len(),
        truth.len()
    );

    let services: BTreeSet<String> = small
        .tools
        .iter()
        .filter_map(|t| t.name().split('_').next().map(str::to_string))
        .collect();
    let services: Vec<String> = services.into_iter().collect();
    let mut tools = Vec::new();
    for k in 0..COPIES {
        for t in &small.tools {
            let text = rename(&serde_json::to_string(&t.raw).unwrap(), &services, k);
            tools.push(Tool::from_value(serde_json::from_str(&text).unwrap(), "t").unwrap());
        }
    }
    let big = Catalog {
        tools,
        ..Default::default()
    };
    assert_eq!(big.tools.len(), 20_000);
    // The common words really are over the index's cap here.
    let with_invoice = big
        .tools
        .iter()
        .filter(|t| t.description().unwrap_or("").contains("invoice"))
        .count();
    assert!(with_invoice > 100, "{with_invoice}");
    let at_20000 = found(&big);
    let mut missed = Vec::new();
    for k in 0..COPIES {
        for (a, b) in &caught {
            let p = pair(&rename(a, &services, k), &rename(b, &services, k));
            if !at_20000.contains(&p) {
                missed.push(p);
            }
        }
    }
    assert!(
        missed.is_empty(),
        "{} planted pairs missed, e.g. {:?}",
        missed.len(),
        &missed[..missed.len().min(5)]
    );
}

//! SARIF 2.1.0 for code-scanning uploads: every rule described, every finding located in the
//! snapshot or lock file when one is known, and by tool name as a logical location.

use serde_json::{Value, json};

use super::LintReport;
use crate::lint::{RULES, Severity};

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

pub fn lint(report: &LintReport) -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.code,
                "name": r.slug,
                "shortDescription": {"text": r.summary},
                "fullDescription": {"text": r.summary},
                "help": {"text": r.doc, "markdown": r.doc},
                "helpUri": crate::lint::docs_url(r.code, r.slug),
                "defaultConfiguration": {"level": level(r.severity)},
            })
        })
        .collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let mut location = serde_json::Map::new();
            if let (Some(file), Some(line)) = (&f.file, f.line) {
                location.insert(
                    "physicalLocation".into(),
                    json!({"artifactLocation": {"uri": file.replace('\\', "/")}, "region": {"startLine": line}}),
                );
            }
            location.insert(
                "logicalLocations".into(),
                json!([{
                    "name": f.tool.clone().unwrap_or_else(|| "catalog".into()),
                    "fullyQualifiedName": format!("{}{}", f.tool.clone().unwrap_or_default(), f.pointer),
                    "kind": "function"
                }]),
            );
            let rule_index = RULES.iter().position(|r| r.code == f.code).unwrap_or(0);
            json!({
                "ruleId": f.code,
                "ruleIndex": rule_index,
                "level": level(f.severity),
                "message": {"text": format!("{} Fix: {}", f.message, f.help)},
                "locations": [Value::Object(location)],
                "partialFingerprints": {
                    "toolgate/v1": crate::catalog::canonical::sha256_hex(&format!("{}|{}|{}", f.code, f.tool.clone().unwrap_or_default(), f.pointer))
                }
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "toolgate",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": crate::lint::DOCS_BASE,
                "rules": rules
            }},
            "results": results
        }]
    })
}

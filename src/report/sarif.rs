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

/// One SARIF location: the file and line when known, and the tool (or server) by name.
fn location(
    file: Option<&str>,
    line: Option<usize>,
    name: &str,
    qualified: &str,
    related_server: bool,
) -> serde_json::Map<String, Value> {
    let mut location = serde_json::Map::new();
    if let (Some(file), Some(line)) = (file, line) {
        location.insert(
            "physicalLocation".into(),
            json!({"artifactLocation": {"uri": file.replace('\\', "/")}, "region": {"startLine": line}}),
        );
    }
    location.insert(
        "logicalLocations".into(),
        // A server (a name without `/`, only ever a related location) is a module.
        json!([{"name": name, "fullyQualifiedName": qualified, "kind": if related_server { "module" } else { "function" }}]),
    );
    location
}

pub(crate) fn lint(report: &LintReport) -> Value {
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
    let accepted = report
        .accepted
        .iter()
        .map(|a| (&a.finding, Some(a.reason.as_str())));
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| (f, None))
        .chain(accepted)
        .map(|(f, reason): (&crate::report::ReportFinding, Option<&str>)| {
            let mut locations = vec![location(
                f.file.as_deref(),
                f.line,
                &f.tool.clone().unwrap_or_else(|| "catalog".into()),
                &format!("{}{}", f.tool.clone().unwrap_or_default(), f.pointer),
                false,
            )];
            // A belt finding concerns several servers: one location in each server's section
            // of the belt lock, also listed as related locations.
            let mut related = Vec::new();
            for (i, r) in f.related.iter().enumerate() {
                let fq = if r.key.contains('/') {
                    format!("{}{}", r.key, f.pointer)
                } else {
                    r.key.clone()
                };
                let loc = location(r.file.as_deref(), r.line, &r.key, &fq, !r.key.contains('/'));
                locations.push(loc.clone());
                let mut rel = loc;
                rel.insert("id".into(), json!(i + 1));
                rel.insert(
                    "message".into(),
                    json!({"text": format!("also concerns {}", r.key)}),
                );
                related.push(Value::Object(rel));
            }
            let locations: Vec<Value> = locations.into_iter().map(Value::Object).collect();
            let rule_index = RULES.iter().position(|r| r.code == f.code).unwrap_or(0);
            let mut result = json!({
                "ruleId": f.code,
                "ruleIndex": rule_index,
                "level": level(f.severity),
                "message": {"text": format!("{} Fix: {}", f.message, f.help)},
                "locations": locations,
                "partialFingerprints": {
                    "toolgate/v1": crate::catalog::canonical::sha256_hex(&format!("{}|{}|{}", f.code, f.tool.clone().unwrap_or_default(), f.pointer))
                }
            });
            if !related.is_empty() {
                result["relatedLocations"] = Value::Array(related);
            }
            // An accepted finding stays a result, suppressed with the reviewer's reason.
            if let Some(why) = reason {
                result["suppressions"] = json!([{
                    "kind": "external",
                    "status": "accepted",
                    "justification": why
                }]);
            }
            result
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

//! Checking arguments against a tool's input schema: compiled validators, one per tool,
//! built on first use and kept for a few tools at a time.

use std::collections::HashMap;

use serde_json::Value;

use crate::catalog::Catalog;

/// Compiled input-schema validators, one per tool, built on first use.
pub(crate) struct ArgChecker<'a> {
    catalog: &'a Catalog,
    cache: HashMap<String, Result<jsonschema::Validator, String>>,
}

impl<'a> ArgChecker<'a> {
    pub(crate) fn new(catalog: &'a Catalog) -> Self {
        ArgChecker {
            catalog,
            cache: HashMap::new(),
        }
    }

    /// `Ok(())` when `args` satisfy `tool`'s input schema; `Err(reasons)` otherwise. A schema
    /// that cannot be compiled yields `Err` with that reason.
    pub(crate) fn check(&mut self, tool: &str, args: &Value) -> Result<(), Vec<String>> {
        let catalog = self.catalog;
        // Compiled validators are kept for a few tools at a time (requests come grouped by
        // tool): at 10,000 tools, keeping every one held tens of megabytes.
        if self.cache.len() >= 64 && !self.cache.contains_key(tool) {
            self.cache.clear();
        }
        let entry = self.cache.entry(tool.to_string()).or_insert_with(|| {
            let schema = catalog
                .tool(tool)
                .and_then(|t| t.input_schema())
                .cloned()
                .unwrap_or(Value::Bool(true));
            jsonschema::validator_for(&schema)
                .map_err(|e| format!("its input schema does not compile: {e}"))
        });
        match entry {
            Err(e) => Err(vec![e.clone()]),
            Ok(v) => {
                let errors: Vec<String> = v
                    .iter_errors(args)
                    .take(5)
                    .map(|e| {
                        let at = e.instance_path().to_string();
                        if at.is_empty() {
                            e.to_string()
                        } else {
                            format!("{at}: {e}")
                        }
                    })
                    .collect();
                if errors.is_empty() {
                    Ok(())
                } else {
                    Err(errors)
                }
            }
        }
    }
}

//! `toolgate rule ID` and `toolgate rules [--write-docs DIR]`.

use std::path::Path;

use anyhow::bail;

use crate::gate::Exit;
use crate::lint::{RULES, rule};
use crate::out::write_file;

pub(crate) fn show(id: &str) -> anyhow::Result<Exit> {
    let Some(r) = rule(id) else {
        bail!("no rule `{id}`: run `toolgate rules` for the list");
    };
    crate::out::println(&(r.page()));
    crate::out::println(&format!("Docs: {}", crate::lint::docs_url(r.code, r.slug)));
    Ok(Exit::Pass)
}

/// The index page of docs/rules/.
pub(crate) fn index_page() -> String {
    let mut out = String::from(
        "# toolgate lint rules\n\nGenerated from the rules' doc comments by `toolgate rules --write-docs docs/rules`; do not edit by hand.\n\n| code | slug | default | summary |\n|---|---|---|---|\n",
    );
    for r in RULES {
        out.push_str(&format!(
            "| [{}]({}-{}.md) | {} | {} | {} |\n",
            r.code, r.code, r.slug, r.slug, r.severity, r.summary
        ));
    }
    out
}

/// Every generated docs file: (file name, content).
pub fn doc_files() -> Vec<(String, String)> {
    let mut files = vec![("README.md".to_string(), index_page())];
    for r in RULES {
        files.push((format!("{}-{}.md", r.code, r.slug), r.page()));
    }
    files
}

pub(crate) fn list(write_docs: Option<&Path>) -> anyhow::Result<Exit> {
    if let Some(dir) = write_docs {
        for (name, text) in doc_files() {
            write_file(&dir.join(name), &text)?;
        }
        crate::elog!("wrote {} rule pages to {}", RULES.len(), dir.display());
        return Ok(Exit::Pass);
    }
    for r in RULES {
        crate::out::println(&format!(
            "{}  {:<30} {:<8} {}",
            r.code,
            r.slug,
            r.severity.as_str(),
            r.summary
        ));
    }
    Ok(Exit::Pass)
}

//! Extracts each lint rule's `//!` doc comment into OUT_DIR so the binary can print it
//! (`toolgate rule TG003`) and `docs/rules/` can be generated from the same text; writes the
//! o200k token tables the binary embeds (build/o200k.rs).

use std::fs;
use std::path::Path;

#[path = "build/o200k.rs"]
mod o200k;

fn main() {
    println!("cargo:rerun-if-changed=build/o200k.rs");
    println!("cargo:rerun-if-changed=src/tokens/hash.rs");
    o200k::write(Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")));
    let src = Path::new("src/lint/rules");
    println!("cargo:rerun-if-changed=src/lint/rules");
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("rule_docs");
    fs::create_dir_all(&out).expect("create OUT_DIR/rule_docs");
    let mut entries: Vec<_> = fs::read_dir(src)
        .expect("read src/lint/rules")
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
        let text = fs::read_to_string(&path).expect("read rule file");
        let doc: Vec<&str> = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .map(|l| l.strip_prefix("//!").unwrap_or(l))
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("file stem");
        fs::write(
            out.join(format!("{stem}.md")),
            doc.join("\n").trim().to_string() + "\n",
        )
        .expect("write rule doc");
    }
}

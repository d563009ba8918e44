//! Extracts each lint rule's `//!` doc comment into OUT_DIR so the binary can print it
//! (`toolgate rule TG003`) and `docs/rules/` can be generated from the same text; writes the
//! o200k token tables the binary embeds (build/o200k.rs) and deflates the rarely read data
//! it embeds (build/deflate.rs).

use std::fs;
use std::path::Path;

#[path = "build/deflate.rs"]
mod deflate;
#[path = "build/o200k.rs"]
mod o200k;

fn main() {
    pack_relocations();
    println!("cargo:rerun-if-changed=build/o200k.rs");
    println!("cargo:rerun-if-changed=src/tokens/hash.rs");
    o200k::write(Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")));
    deflate::write(Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")));
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

/// On glibc Linux, packs the binary's relative relocations (`-z pack-relative-relocs`, DT_RELR:
/// glibc 2.36+, binutils 2.38+, lld 15+): a position-independent binary's table of pointers to
/// fix up at start shrinks from ~0.8 MB to a few kB, and the loader does less work before
/// `main`. Older toolchains ignore the option with a warning. Other targets are left alone
/// (musl and macOS binaries are static or use their own formats).
fn pack_relocations() {
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.contains("-linux-gnu") {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

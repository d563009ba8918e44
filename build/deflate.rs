//! Deflates the large data files the binary embeds but rarely reads into OUT_DIR: the bundled
//! `ecosystem` belt's snapshots (1.2 MB of JSON, 0.14 MB deflated; read only by
//! `--belt ecosystem`). They are inflated when first used, so start-up and the binary's size
//! pay for neither.

use std::fs;
use std::path::Path;

pub fn write(out: &Path) {
    println!("cargo:rerun-if-changed=fixtures/ecosystem");
    let eco = out.join("ecosystem");
    fs::create_dir_all(&eco).expect("create OUT_DIR/ecosystem");
    let mut entries: Vec<_> = fs::read_dir("fixtures/ecosystem")
        .expect("read fixtures/ecosystem")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    entries.sort();
    for path in entries {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("file name");
        deflate(&path, &eco.join(format!("{name}.z")));
    }
}

fn deflate(from: &Path, to: &Path) {
    let data = fs::read(from).expect("read a file to embed");
    fs::write(to, miniz_oxide::deflate::compress_to_vec(&data, 9)).expect("write OUT_DIR");
}

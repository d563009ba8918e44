//! What the Linux sandbox does, in words: for error messages, the failure hint and `-v`.

use std::path::{Path, PathBuf};

use super::SandboxMode;

/// The sandbox in one sentence (the mode, the uid, what it may write, the network).
pub(super) fn statement(
    mode: SandboxMode,
    uid: Option<u32>,
    abi: i32,
    writable: &[PathBuf],
    root: bool,
) -> String {
    let who = match uid {
        Some(u) => format!(", uid {u}"),
        None if root => ", uid 0 (--sandbox-uid 0)".to_string(),
        None => String::new(),
    };
    let shown: Vec<String> = writable.iter().map(|p| shown(p)).collect();
    let writes = if abi > 0 {
        format!(
            "writes only beneath {} (Landlock ABI {abi})",
            shown.join(", ")
        )
    } else {
        "writes not limited (this kernel has no Landlock)".to_string()
    };
    let net = if mode == SandboxMode::Strict {
        ", no network"
    } else {
        ""
    };
    format!(
        "{}: no_new_privs, no capabilities{who}, {writes}{net}",
        mode.as_str()
    )
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}

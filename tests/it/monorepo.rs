//! Issue 23 point 2: settings in a package of a monorepo. Paths in toolgate.toml (or a
//! pyproject.toml's `[tool.toolgate]`) are relative to that file, its `server` command runs in
//! its folder, and the file is found from any folder below it, up to the repository's top.

use std::path::Path;

use crate::common::{fixture, read_json, toolgate};

/// A repository whose `packages/calendar` is the bundled example (server, lock, tasks,
/// baseline), with its settings in `settings_file` (`toolgate.toml` or `pyproject.toml`).
fn monorepo(root: &Path, settings_file: &str) -> std::path::PathBuf {
    std::fs::create_dir(root.join(".git")).unwrap();
    let pkg = root.join("packages/calendar");
    std::fs::create_dir_all(pkg.join("src")).unwrap();
    for f in [
        "after.json",
        "tasks.jsonl",
        "toolgate.lock",
        "toolgate-baseline.json",
    ] {
        std::fs::copy(fixture(&format!("example/{f}")), pkg.join(f)).unwrap();
    }
    let toml = std::fs::read_to_string(fixture("example/toolgate.toml"))
        .unwrap()
        .replace("../servers/fakemcp.py", &fixture("servers/fakemcp.py"));
    let text = if settings_file == "pyproject.toml" {
        // The same keys under [tool.toolgate] (tables become [tool.toolgate.ci]).
        format!(
            "[project]\nname = \"calendar\"\n\n[tool.toolgate]\n{}",
            toml.replace("[ci]", "[tool.toolgate.ci]")
        )
    } else {
        toml
    };
    std::fs::write(pkg.join(settings_file), text).unwrap();
    pkg
}

fn ci_passes(dir: &Path, args: &[&str], out: &Path) -> serde_json::Value {
    let o = toolgate()
        .current_dir(dir)
        .args(["ci", "--no-github", "--out"])
        .arg(out)
        .args(args)
        .output()
        .unwrap();
    let report = read_json(&out.join("ci.json"));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}\n{report:#}",
        String::from_utf8_lossy(&o.stderr)
    );
    report
}

#[test]
fn a_package_config_is_read_from_the_repository_top_and_from_below() {
    for settings in ["toolgate.toml", "pyproject.toml"] {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        std::fs::create_dir(&root).unwrap();
        let pkg = monorepo(&root, settings);
        // From the top, naming the package's file: the lock, tasks and baseline are the
        // package's, and the server's relative `after.json` is found in the package.
        let config = format!("packages/calendar/{settings}");
        let r = ci_passes(&root, &["--config", &config], &tmp.path().join("out1"));
        assert_eq!(r["lock"]["status"], "match", "{settings}: {:#}", r["lock"]);
        assert!(
            r["tasks"]
                .as_str()
                .unwrap()
                .ends_with("packages/calendar/tasks.jsonl"),
            "{:#}",
            r["tasks"]
        );
        // From a folder below the package: the settings are found up the tree.
        let o = toolgate()
            .current_dir(pkg.join("src"))
            .args(["ci", "--no-github", "--out"])
            .arg(tmp.path().join("out2"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{settings}: {err}");
        assert!(
            err.contains(&format!("../{settings}")),
            "the file used is named: {err}"
        );
        // The numbers are the same either way.
        let a = read_json(&tmp.path().join("out1/ci.json"));
        let b = read_json(&tmp.path().join("out2/ci.json"));
        assert_eq!(a["run"]["results"], b["run"]["results"], "{settings}");
    }
}

#[test]
fn nothing_is_found_above_the_repository_top() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("toolgate.toml"), "server = \"unused\"\n").unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let o = toolgate()
        .current_dir(&repo)
        .args(["inspect"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !err.contains("unused"),
        "the file above the repository was read: {err}"
    );
}

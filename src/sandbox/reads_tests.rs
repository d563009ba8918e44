//! Tests of `reads`.

use super::*;
use crate::sandbox::programs::shebang;

#[test]
fn an_install_root_is_above_its_bin_but_never_home_or_root() {
    let home = Path::new("/root");
    assert_eq!(
        install_root(
            Path::new("/root/.pyenv/versions/3.12/bin/python3"),
            Some(home)
        ),
        PathBuf::from("/root/.pyenv/versions/3.12")
    );
    assert_eq!(
        install_root(Path::new("/root/.pyenv/shims/python3"), Some(home)),
        PathBuf::from("/root/.pyenv")
    );
    assert_eq!(
        install_root(Path::new("/root/.local/bin/uvx"), Some(home)),
        PathBuf::from("/root/.local/bin")
    );
    assert_eq!(
        install_root(Path::new("/root/bin/tool"), Some(home)),
        PathBuf::from("/root/bin")
    );
    assert_eq!(
        install_root(Path::new("/srv/app/server.py"), Some(home)),
        PathBuf::from("/srv/app")
    );
}

#[test]
fn a_hidden_path_splits_its_tree() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/config"), "x").unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("package.json"), "{}").unwrap();
    let mut reads = Reads::default();
    let mut budget = BUDGET;
    grant(root, &[root.join(".git")], &mut reads, &mut budget);
    assert_eq!(reads.list, vec![root.to_path_buf()]);
    assert!(reads.full.contains(&root.join("src")));
    assert!(reads.full.contains(&root.join("package.json")));
    assert!(!reads.full.iter().any(|p| p.starts_with(root.join(".git"))));
}

#[test]
fn shebangs_name_their_interpreter_or_envs_program() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    std::fs::write(&a, "#!/usr/bin/env -S node --flag\n").unwrap();
    assert_eq!(
        shebang(&a),
        Some(("/usr/bin/env".into(), Some("node".into())))
    );
    std::fs::write(&a, "#!/opt/py/bin/python3\nprint()\n").unwrap();
    assert_eq!(shebang(&a), Some(("/opt/py/bin/python3".into(), None)));
    std::fs::write(&a, "plain").unwrap();
    assert_eq!(shebang(&a), None);
}

#[test]
fn git_configuration_is_hidden_but_the_repository_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let repo = real(dir.path()).join("repo");
    std::fs::create_dir_all(repo.join(".git/refs")).unwrap();
    std::fs::create_dir_all(repo.join(".git/modules/sub")).unwrap();
    std::fs::write(repo.join(".git/config"), "[http]\n\textraheader = x\n").unwrap();
    std::fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    // The workspace elsewhere; the repository named by an argument, even as its `.git`.
    let ws = tempfile::tempdir().unwrap();
    for arg in [repo.clone(), repo.join(".git")] {
        let args = vec![arg.display().to_string()];
        let reads = plan(
            &Launch {
                program: "true",
                args: &args,
                cwd: Some(ws.path()),
            },
            &[],
        );
        let granted = |p: &Path| reads.full.iter().any(|t| p.starts_with(t));
        assert!(granted(&repo.join(".git/HEAD")), "{arg:?}: {reads:?}");
        assert!(granted(&repo.join(".git/refs")), "{arg:?}: {reads:?}");
        for hidden in [".git/config", ".git/modules/sub"] {
            assert!(!granted(&repo.join(hidden)), "{arg:?} {hidden}: {reads:?}");
        }
    }
}

#[test]
fn dedup_keeps_each_tree_once_and_siblings_that_share_a_prefix() {
    let paths = [
        "/a/b/c",
        "/ab",
        "/a",
        "/a-b",
        "/a/b",
        "/b/x",
        "/a b",
        "/b",
        "/usr/lib",
        "/usr/lib64",
        "/usr/lib/x",
        "/usr/lib",
    ];
    let got = dedup(paths.iter().map(PathBuf::from).collect());
    // The quadratic definition: sorted, unique, nothing inside another kept path.
    let mut want: Vec<PathBuf> = Vec::new();
    let mut sorted: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    sorted.sort();
    sorted.dedup();
    for p in sorted {
        if !want.iter().any(|q| p.starts_with(q)) {
            want.push(p);
        }
    }
    assert_eq!(got, want);
    let shown: Vec<&str> = got.iter().filter_map(|p| p.to_str()).collect();
    assert_eq!(
        shown,
        ["/a", "/a b", "/a-b", "/ab", "/b", "/usr/lib", "/usr/lib64"]
    );
}

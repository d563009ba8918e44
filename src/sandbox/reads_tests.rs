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

/// The two-pass walk `etc` replaced (ask whether a folder's whole tree is readable, then walk
/// it), kept as the reference the one-pass walk must agree with.
fn etc_two_pass(dir: &Path, reads: &mut Reads, budget: &mut usize, depth: usize) {
    use std::os::unix::fs::PermissionsExt;
    fn all_readable(dir: &Path, budget: &mut usize) -> bool {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return false;
        };
        for e in entries.flatten() {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let Ok(meta) = e.path().symlink_metadata() else {
                return false;
            };
            if meta.file_type().is_symlink() || meta.permissions().mode() & 0o004 == 0 {
                return false;
            }
            if meta.is_dir() && !all_readable(&e.path(), budget) {
                return false;
            }
        }
        true
    }
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let Ok(meta) = std::fs::symlink_metadata(dir) else {
        return;
    };
    if meta.file_type().is_symlink() {
        let target = std::fs::metadata(dir);
        if target.is_ok_and(|t| t.is_file() && t.permissions().mode() & 0o004 != 0) {
            reads.full.push(dir.to_path_buf());
        }
        return;
    }
    if meta.permissions().mode() & 0o004 == 0 {
        return;
    }
    if !meta.is_dir() {
        reads.full.push(dir.to_path_buf());
        return;
    }
    if depth > 8 || all_readable(dir, budget) {
        reads.full.push(dir.to_path_buf());
        return;
    }
    reads.list.push(dir.to_path_buf());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        etc_two_pass(&e.path(), reads, budget, depth + 1);
    }
}

/// The trees read whole and the folders listed.
type Rules = (Vec<PathBuf>, Vec<PathBuf>);

fn both_walks(dir: &Path) -> (Rules, Rules) {
    let (mut one, mut two) = (Reads::default(), Reads::default());
    etc(dir, &mut one, &mut BUDGET.clone(), 0);
    etc_two_pass(dir, &mut two, &mut BUDGET.clone(), 0);
    (
        (dedup(one.full), dedup(one.list)),
        (dedup(two.full), dedup(two.list)),
    )
}

#[test]
fn the_one_pass_etc_walk_grants_what_the_two_pass_walk_did() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("etc");
    let mode = |p: &Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    };
    for d in [
        "open/deep/er",
        "ssl/private",
        "ssl/certs",
        "mixed/a",
        "linked",
    ] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for (f, m) in [
        ("hosts", 0o644),
        ("shadow", 0o640),
        ("open/a", 0o644),
        ("open/deep/er/b", 0o644),
        ("ssl/private/key.pem", 0o600),
        ("ssl/certs/ca.pem", 0o644),
        ("mixed/a/ok", 0o644),
        ("mixed/a/secret", 0o600),
        ("mixed/top", 0o644),
    ] {
        std::fs::write(root.join(f), "x").unwrap();
        mode(&root.join(f), m);
    }
    mode(&root.join("ssl/private"), 0o700);
    symlink(root.join("hosts"), root.join("linked/to-hosts")).unwrap();
    symlink(root.join("shadow"), root.join("linked/to-shadow")).unwrap();
    symlink(root.join("open"), root.join("linked/to-dir")).unwrap();
    std::fs::write(root.join("linked/plain"), "x").unwrap();
    mode(&root.join("linked/plain"), 0o644);

    let (one, two) = both_walks(&root);
    assert_eq!(one, two);
    // What each grants, spelled out: readable trees whole, a folder with a secret split.
    let (full, list) = one;
    assert!(full.contains(&root.join("open")) && full.contains(&root.join("ssl/certs")));
    assert!(full.contains(&root.join("linked/to-hosts")));
    assert!(
        !full
            .iter()
            .any(|p| p.ends_with("shadow") || p.ends_with("to-shadow"))
    );
    assert!(!full.iter().any(|p| p.starts_with(root.join("ssl/private"))));
    assert!(list.contains(&root));
    assert!(!full.contains(&root.join("mixed/a")) && full.contains(&root.join("mixed/top")));

    // And on this machine's /etc.
    let (one, two) = both_walks(Path::new("/etc"));
    assert_eq!(one, two);
}

#[test]
fn an_argument_beside_the_workspace_is_granted_but_a_link_out_of_it_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let root = real(dir.path());
    let (ws, servers, secret) = (
        root.join("example"),
        root.join("servers"),
        root.join("secret"),
    );
    for d in [&ws, &servers, &secret] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(servers.join("s.py"), "print()").unwrap();
    std::fs::write(secret.join("key"), "x").unwrap();
    std::os::unix::fs::symlink(&secret, ws.join("out")).unwrap();
    let plan_for = |arg: &str| {
        let args = vec![arg.to_string()];
        plan(
            &Launch {
                program: "true",
                args: &args,
                cwd: Some(&ws),
            },
            &[],
        )
    };
    let reads = plan_for("../servers/s.py");
    assert!(
        reads
            .full
            .iter()
            .any(|t| servers.join("s.py").starts_with(t)),
        "{reads:?}"
    );
    let reads = plan_for("out/key");
    assert!(
        !reads.full.iter().any(|t| secret.join("key").starts_with(t)),
        "{reads:?}"
    );
}

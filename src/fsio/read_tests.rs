//! Tests of `read`.

use super::*;

#[test]
fn a_regular_file_reads_and_special_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.txt");
    std::fs::write(&f, "text").unwrap();
    assert_eq!(read_text(&f).unwrap(), "text");
    let e = read_text(dir.path()).unwrap_err().to_string();
    assert!(e.contains("a folder"), "{e}");
    #[cfg(unix)]
    {
        let e = read_text(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.display().to_string()).unwrap();
        // SAFETY: mkfifo with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_text(&fifo).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
    }
    std::fs::write(&f, [0xff, 0xfe]).unwrap();
    assert!(read_text(&f).unwrap_err().to_string().contains("not UTF-8"));
}

#[test]
fn a_pinned_missing_file_that_is_still_missing_says_it_does_not_exist() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("tasks.jsonl");
    pin_reviewed([f.as_path()]).unwrap();
    let e = read_text(&f).unwrap_err().to_string();
    assert_eq!(e, "it does not exist");
    std::fs::write(&f, "x").unwrap();
    let e = read_text(&f).unwrap_err().to_string();
    assert!(e.contains("something created it"), "{e}");
}

#[test]
fn a_pinned_file_that_changed_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("toolgate.lock");
    std::fs::write(&f, "reviewed").unwrap();
    pin_reviewed([f.as_path(), dir.path().join("missing").as_path()]).unwrap();
    assert_eq!(read_text(&f).unwrap(), "reviewed");
    std::fs::write(&f, "rewritten").unwrap();
    let e = read_text(&f).unwrap_err().to_string();
    assert!(e.contains("changed after toolgate first read it"), "{e}");
}

#[test]
fn a_pinned_file_deleted_or_a_missing_one_created_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("gone.lock");
    let base = dir.path().join("new-baseline.json");
    std::fs::write(&lock, "reviewed").unwrap();
    pin_reviewed([lock.as_path(), base.as_path()]).unwrap();
    std::fs::remove_file(&lock).unwrap();
    let mine = |p: &Path| p.starts_with(dir.path());
    let e = verify(mine).unwrap_err().to_string();
    assert!(e.contains("gone.lock") && e.contains("deleted"), "{e}");
    std::fs::write(&lock, "reviewed").unwrap();
    std::fs::write(&base, "{}").unwrap();
    let e = verify(mine).unwrap_err().to_string();
    assert!(
        e.contains("new-baseline.json") && e.contains("did not exist"),
        "{e}"
    );
    std::fs::remove_file(&base).unwrap();
    // A swap for a link to another file with other bytes, under the same name.
    #[cfg(unix)]
    {
        let other = dir.path().join("other");
        std::fs::write(&other, "forged").unwrap();
        std::fs::remove_file(&lock).unwrap();
        std::os::unix::fs::symlink(&other, &lock).unwrap();
        assert!(read_text(&lock).is_err());
        std::fs::remove_file(&lock).unwrap();
        std::fs::write(&lock, "reviewed").unwrap();
    }
    // Other tests' pins live in the same process: only this test's paths are checked here.
    verify(mine).unwrap();
}

#[test]
fn a_plain_file_outside_the_workspace_is_not_taken_for_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("plain.json");
    std::fs::write(&f, "{}").unwrap();
    let real = std::fs::canonicalize(&f).unwrap();
    // Written as an absolute path outside the workspace: not "inside as written".
    assert!(check_links(&f, &real).is_ok());
}

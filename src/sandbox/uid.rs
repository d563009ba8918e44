//! What changes when the server runs under another uid than toolgate (root's server runs as
//! 65534): git must still open the repositories of toolgate's user, and a `--sandbox-write`
//! folder that uid may not write is said before the server fails on it.

/// Git refuses a repository another user owns ("dubious ownership"), and a server that toolgate
/// moved to uid 65534 sees every repository of toolgate's user that way (a git MCP server fails
/// to start). The check guards a user against another user's repository configuration; here
/// the uid change is toolgate's, and whatever that configuration could run, it runs confined,
/// as the server already does. So git, in the server's environment only, trusts every owner
/// (one more entry of `GIT_CONFIG_COUNT`, after any the environment already has).
pub(super) fn git_trusts_any_owner() -> Vec<(String, String)> {
    let n: usize = std::env::var("GIT_CONFIG_COUNT")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|n| *n < 1000)
        .unwrap_or(0);
    vec![
        ("GIT_CONFIG_COUNT".into(), (n + 1).to_string()),
        (format!("GIT_CONFIG_KEY_{n}"), "safe.directory".into()),
        (format!("GIT_CONFIG_VALUE_{n}"), "*".into()),
    ]
}

/// Says when a `--sandbox-write` folder is one the server's uid may not write (the sandbox
/// allows it, the folder's owner and mode do not): a server that fails to open its database
/// there is then explained before it starts.
pub(super) fn warn_unwritable(dir: &std::path::Path, uid: u32) {
    use std::os::unix::fs::MetadataExt;
    let Ok(m) = std::fs::metadata(dir) else {
        return;
    };
    let mode = m.mode();
    let can = (m.uid() == uid && mode & 0o200 != 0)
        || (m.gid() == uid && mode & 0o020 != 0)
        || mode & 0o002 != 0;
    if !can {
        crate::elog!(
            "note: --sandbox-write {}: the server runs as uid {uid} (toolgate runs as root), which may not write there (owner uid {}, mode {:o}): make it writable for that uid (`chown {uid} {}`) or keep root's uid with --sandbox-uid 0",
            dir.display(),
            m.uid(),
            mode & 0o7777,
            dir.display()
        );
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn git_trusts_every_owner_after_the_entries_already_set() {
        let env = super::git_trusts_any_owner();
        let n: usize = env[0].1.parse().unwrap();
        assert!(n >= 1);
        assert_eq!(
            env[1],
            (format!("GIT_CONFIG_KEY_{}", n - 1), "safe.directory".into())
        );
        assert_eq!(env[2].1, "*");
    }
}

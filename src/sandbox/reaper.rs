//! Nothing a server starts outlives toolgate. A server's group is ended after each session,
//! but a grandchild that called `setsid` (or double-forked into its own session) has left that
//! group. On Linux toolgate is a child subreaper (`PR_SET_CHILD_SUBREAPER`): such orphans are
//! re-parented to toolgate rather than to init, and [`reap_all`] ends and reaps every process
//! still parented to toolgate when it finishes, round after round (a killed process's own
//! orphans come to toolgate next), for at most [`ROUNDS`] rounds.

/// Rounds of kill-and-reap before giving up (each round is one generation).
pub const ROUNDS: usize = 16;

/// Makes this process the subreaper of everything it starts. Call once, early.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_CHILD_SUBREAPER, 1) only sets a flag on this process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// Pids whose parent is this process, from /proc.
#[cfg(target_os = "linux")]
fn children() -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| {
                    // `pid (comm) state ppid …`: comm may hold spaces and parentheses.
                    let rest = &s[s.rfind(')')? + 1..];
                    rest.split_whitespace().nth(1)?.parse::<i32>().ok()
                })
                == Some(me)
        })
        .collect()
}

/// Ends and reaps every process still parented to toolgate; returns how many were ended.
pub fn reap_all() -> usize {
    #[cfg(target_os = "linux")]
    {
        let mut ended = 0;
        for _ in 0..ROUNDS {
            let kids = children();
            if kids.is_empty() {
                break;
            }
            for pid in &kids {
                // SAFETY: kill(2) and waitpid(2) on a pid that is our own child.
                unsafe {
                    libc::kill(*pid, libc::SIGKILL);
                }
            }
            for pid in &kids {
                let mut status = 0;
                // SAFETY: as above; a pid tokio already reaped fails with ECHILD, harmlessly.
                unsafe {
                    libc::waitpid(*pid, &mut status, 0);
                }
            }
            ended += kids.len();
        }
        ended
    }
    #[cfg(not(target_os = "linux"))]
    0
}

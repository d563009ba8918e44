//! Nothing a server starts outlives toolgate. A server's group is ended after each session,
//! but a grandchild that called `setsid` (or double-forked into its own session) has left that
//! group. On Linux toolgate is a child subreaper (`PR_SET_CHILD_SUBREAPER`): such orphans are
//! re-parented to toolgate rather than to init, and [`reap_all`] ends and reaps every process
//! still parented to toolgate when it finishes, round after round (a killed process's own
//! orphans come to toolgate next), for at most [`ROUNDS`] rounds.

//!
//! Orphans are also ended after each server session ([`reap_orphans`], called when a server's
//! group is ended). Each server starts in a session of its own (setsid), so nothing it starts
//! can move into toolgate's session or process group: every child of toolgate in another
//! session and outside the group of a server still running is an orphan that escaped a
//! server's group (its own parent is gone, or it would not be toolgate's child).

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

/// Rounds of kill-and-reap before giving up (each round is one generation).
pub(crate) const ROUNDS: usize = 16;

/// Groups of servers that are running, and every server leader toolgate spawned (tokio
/// reaps those itself).
struct Groups {
    live: HashSet<i32>,
    leaders: HashSet<i32>,
    /// Servers being started: forked, in their own group, not yet registered. While any is,
    /// no orphan is reaped (the exit's [`reap_all`] still ends what is left).
    spawning: usize,
}

static GROUPS: LazyLock<Mutex<Groups>> = LazyLock::new(|| {
    Mutex::new(Groups {
        live: HashSet::new(),
        leaders: HashSet::new(),
        spawning: 0,
    })
});

/// A server is about to be started in its own process group: call before `spawn`, and
/// [`server_started`] after it (with `None` when the spawn failed).
pub(crate) fn server_spawning() {
    if let Ok(mut g) = GROUPS.lock() {
        g.spawning += 1;
    }
}

/// The server [`server_spawning`] announced started, as the leader of its own group (`None`:
/// it did not start).
pub(crate) fn server_started(pid: Option<u32>) {
    if let Ok(mut g) = GROUPS.lock() {
        g.spawning = g.spawning.saturating_sub(1);
        if let Some(pid) = pid.and_then(|p| i32::try_from(p).ok()) {
            g.live.insert(pid);
            g.leaders.insert(pid);
        }
    }
}

/// A server's group was ended: it is live no more, and what escaped it is ended now.
pub(crate) fn server_ended(pgid: u32) -> usize {
    if let (Ok(pgid), Ok(mut g)) = (i32::try_from(pgid), GROUPS.lock()) {
        g.live.remove(&pgid);
    }
    reap_orphans()
}

/// Ends and reaps every child of toolgate that is in neither toolgate's own process group nor
/// a running server's (a grandchild that left its server's group with setsid or setpgid and
/// was re-parented to toolgate); returns how many.
pub(crate) fn reap_orphans() -> usize {
    #[cfg(target_os = "linux")]
    {
        // Servers start in sessions of their own (setsid), so nothing they start can join
        // toolgate's session: a child of toolgate in another session is a server's.
        // SAFETY: getsid(0) has no preconditions.
        let own = unsafe { libc::getsid(0) };
        let mut ended = 0;
        for _ in 0..ROUNDS {
            // Held for the whole round: a server cannot start between the look and the kill.
            let Ok(g) = GROUPS.lock() else {
                return ended;
            };
            if g.spawning > 0 {
                return ended;
            }
            let strays: Vec<i32> = children()
                .into_iter()
                .filter(|pid| !g.leaders.contains(pid))
                .filter(|pid| {
                    // SAFETY: getsid(2) and getpgid(2) on any pid; -1 when it is gone.
                    let (sid, pg) = unsafe { (libc::getsid(*pid), libc::getpgid(*pid)) };
                    sid > 0 && sid != own && pg > 0 && !g.live.contains(&pg)
                })
                .collect();
            if strays.is_empty() {
                break;
            }
            kill_and_reap(&strays);
            drop(g);
            ended += strays.len();
        }
        ended
    }
    #[cfg(not(target_os = "linux"))]
    0
}

#[cfg(target_os = "linux")]
fn kill_and_reap(pids: &[i32]) {
    for pid in pids {
        // SAFETY: kill(2) and waitpid(2) on a pid that is our own child.
        unsafe {
            libc::kill(*pid, libc::SIGKILL);
        }
    }
    for pid in pids {
        let mut status = 0;
        // SAFETY: as above; a pid already reaped fails with ECHILD, harmlessly.
        unsafe {
            libc::waitpid(*pid, &mut status, 0);
        }
    }
}

/// Makes this process the subreaper of everything it starts. Call once, early.
pub(crate) fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_CHILD_SUBREAPER, 1) only sets a flag on this process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// Pids whose parent is this process, from /proc.
#[cfg(target_os = "linux")]
fn children() -> Vec<i32> {
    children_of(std::process::id() as i32)
}

/// Pids whose parent is `me`, from /proc.
#[cfg(target_os = "linux")]
pub(crate) fn children_of(me: i32) -> Vec<i32> {
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
pub(crate) fn reap_all() -> usize {
    #[cfg(target_os = "linux")]
    {
        let mut ended = 0;
        for _ in 0..ROUNDS {
            let kids = children();
            if kids.is_empty() {
                break;
            }
            kill_and_reap(&kids);
            ended += kids.len();
        }
        ended
    }
    #[cfg(not(target_os = "linux"))]
    0
}

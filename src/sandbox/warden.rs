//! No server outlives toolgate, however toolgate ends (issue 42 point 4).
//!
//! A sandboxed server's parent is a *warden*, a child subreaper: whatever the server starts
//! and leaves (detached, double-forked or `setsid` children) is re-parented to the warden,
//! which ends it all when the server ends. When toolgate is root the server is also the first
//! process of a PID namespace of its own, so the kernel ends everything in it the moment the
//! server ends. The warden is toolgate's own binary, started as `toolgate __toolgate-warden <pid>` with one open file, the read end of a
//! *lifeline* pipe whose write end only toolgate holds. When toolgate ends by any route
//! (SIGKILL, SIGSEGV, a panic, a normal exit) the kernel closes that write end; the warden
//! sees the hang-up, kills the server (and with it the namespace) and exits. The server in
//! turn holds a parent-death signal on the warden, so killing the warden ends it too.
//!
//! The warden is what toolgate waits on and signals: it leaves with the server's exit code
//! (or dies by the server's signal), so toolgate sees the server's own end.

use std::ffi::CString;
use std::io;
use std::os::fd::RawFd;
use std::sync::OnceLock;

/// The hidden first argument that makes toolgate's binary a warden.
pub(crate) const ARG: &str = "__toolgate-warden";

/// The fd the warden finds the lifeline's read end on.
const LIFELINE_FD: RawFd = 3;

/// The lifeline pipe, made once: (read, write), both close-on-exec.
static LIFELINE: OnceLock<Option<(RawFd, RawFd)>> = OnceLock::new();

fn lifeline() -> Option<(RawFd, RawFd)> {
    *LIFELINE.get_or_init(|| {
        let mut fds = [0; 2];
        // SAFETY: pipe2 writes two fds into the array.
        let r = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
        (r == 0).then_some((fds[0], fds[1]))
    })
}

/// What the child needs, built before the fork so the child makes system calls only.
pub(crate) struct Warden {
    read: RawFd,
    write: RawFd,
    exe: CString,
    arg: CString,
}

impl Warden {
    /// `None` when no pipe could be made or toolgate's binary cannot be named.
    pub(crate) fn new() -> Option<Warden> {
        let (read, write) = lifeline()?;
        let exe = std::env::current_exe().ok()?;
        Some(Warden {
            read,
            write,
            exe: CString::new(exe.into_os_string().into_encoded_bytes()).ok()?,
            arg: CString::new(ARG).ok()?,
        })
    }

    /// In the child, after it entered a new PID namespace: forks. The new process (the
    /// namespace's first) returns to become the server; this one becomes the warden and never
    /// returns. Only system calls.
    pub(crate) fn split(&self) -> io::Result<()> {
        // Set before the fork: whatever the server starts and leaves (setsid, a double
        // fork) comes to the warden, never to init, from the first instant.
        // SAFETY: prctl and fork in a single-threaded child (between fork and exec).
        let pid = unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
            libc::fork()
        };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        if pid == 0 {
            // The server (its parent-death signal is set once its uid is final).
            return Ok(());
        }
        // SAFETY: only system calls on this process's own fds, then exec or wait.
        unsafe { self.become_warden(pid) }
    }

    unsafe fn become_warden(&self, child: libc::pid_t) -> ! {
        // SAFETY: fd calls on our own fds; exec with prepared strings.
        unsafe {
            // The write end must not live on in the warden, or the line never breaks.
            libc::close(self.write);
            if self.read == LIFELINE_FD {
                libc::fcntl(LIFELINE_FD, libc::F_SETFD, 0);
            } else {
                libc::dup2(self.read, LIFELINE_FD);
            }
            // Everything else goes, std's exec-error pipe included (so toolgate's spawn
            // returns once the server execs) and the server's stdio.
            close_from(LIFELINE_FD + 1);
            for fd in 0..3 {
                libc::close(fd);
            }
            let mut digits = [0u8; 24];
            let pid_arg = format_pid(child, &mut digits);
            let argv = [
                self.exe.as_ptr(),
                self.arg.as_ptr(),
                pid_arg,
                std::ptr::null(),
            ];
            let envp = [std::ptr::null::<libc::c_char>()];
            libc::execve(self.exe.as_ptr(), argv.as_ptr(), envp.as_ptr());
            // toolgate's binary could not be executed again: watch from here (a copy of
            // toolgate's memory, which holds no more than the parent does), without
            // allocating (another thread of the parent may have held the allocator's lock).
            watch(child, LIFELINE_FD, false)
        }
    }
}

/// Writes `pid` as decimal digits and a NUL into `buf`; a pointer to the string.
fn format_pid(pid: libc::pid_t, buf: &mut [u8; 24]) -> *const libc::c_char {
    let mut n = pid.unsigned_abs();
    let mut i = buf.len() - 1;
    buf[i] = 0;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 || i == 0 {
            break;
        }
    }
    buf[i..].as_ptr().cast()
}

fn close_from(first: RawFd) {
    // SAFETY: close_range(2) on our own fds; the fallback closes one by one.
    unsafe {
        if libc::syscall(
            libc::SYS_close_range,
            first as libc::c_uint,
            libc::c_uint::MAX,
            0,
        ) != 0
        {
            for fd in first..4096 {
                libc::close(fd);
            }
        }
    }
}

/// The warden's loop: leaves as the server left; kills it when the lifeline breaks. With
/// `exec'd` false (a forked copy of toolgate that could not exec) it only system-calls, and
/// leaves the server's orphans to toolgate's own reaper.
fn watch(child: libc::pid_t, lifeline: RawFd, execd: bool) -> ! {
    let end_descendants = || {
        if execd {
            end_descendants();
        }
    };
    // SAFETY: pidfd_open, poll, waitpid, kill on our own child; exit.
    unsafe {
        let pidfd = libc::syscall(libc::SYS_pidfd_open, child, 0) as RawFd;
        loop {
            let mut fds = [
                libc::pollfd {
                    fd: lifeline,
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: pidfd,
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            let n = if pidfd >= 0 { 2 } else { 1 };
            let timeout = if pidfd >= 0 { -1 } else { 100 };
            libc::poll(fds.as_mut_ptr(), n, timeout);
            let mut status = 0;
            let r = libc::waitpid(child, &mut status, libc::WNOHANG);
            if r == child {
                end_descendants();
                leave_as(status);
            }
            if r < 0 {
                end_descendants();
                libc::_exit(0);
            }
            // Orphans that came to us and died: reaped (never the server, handled above).
            if execd {
                reap_others(child);
            }
            if fds[0].revents != 0 {
                // toolgate is gone (or wrote to the lifeline, which it never does).
                libc::kill(child, libc::SIGKILL);
                libc::waitpid(child, &mut status, 0);
                end_descendants();
                libc::_exit(137);
            }
        }
    }
}

/// Reaps exited orphans that came to the warden, leaving `server` to the caller.
fn reap_others(server: libc::pid_t) {
    for pid in children() {
        if pid != server {
            let mut status = 0;
            // SAFETY: waitpid on our own child, without blocking.
            unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        }
    }
}

/// Our children, from /proc (after exec: the warden may allocate).
fn children() -> Vec<libc::pid_t> {
    let me = std::process::id().to_string();
    let path = format!("/proc/{me}/task/{me}/children");
    match std::fs::read_to_string(path) {
        Ok(s) => s
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect(),
        Err(_) => super::reaper::children_of(std::process::id() as i32),
    }
}

/// Ends and reaps everything still under the warden (the server's escaped orphans), one
/// generation per round.
fn end_descendants() {
    for _ in 0..super::reaper::ROUNDS {
        let kids = children();
        if kids.is_empty() {
            return;
        }
        for pid in &kids {
            // SAFETY: kill and waitpid on our own children.
            unsafe { libc::kill(*pid, libc::SIGKILL) };
        }
        for pid in &kids {
            let mut status = 0;
            // SAFETY: as above.
            unsafe { libc::waitpid(*pid, &mut status, 0) };
        }
    }
}

fn leave_as(status: libc::c_int) -> ! {
    // SAFETY: signal/kill on ourselves, then exit.
    unsafe {
        if libc::WIFSIGNALED(status) {
            let sig = libc::WTERMSIG(status);
            libc::signal(sig, libc::SIG_DFL);
            libc::kill(libc::getpid(), sig);
            libc::_exit(128 + sig);
        }
        libc::_exit(libc::WEXITSTATUS(status))
    }
}

/// `toolgate __toolgate-warden <pid>`: called first thing in main.
pub(crate) fn run_if_warden() {
    let mut args = std::env::args_os().skip(1);
    if args.next().as_deref() != Some(std::ffi::OsStr::new(ARG)) {
        return;
    }
    let pid = args
        .next()
        .and_then(|p| p.to_str()?.parse::<libc::pid_t>().ok())
        .filter(|p| *p > 0);
    // SAFETY: prctl on this process only: nothing may read the warden's memory either, and
    // what the server leaves behind comes to the warden.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
    match pid {
        Some(pid) => watch(pid, LIFELINE_FD, true),
        None => std::process::exit(2),
    }
}

/// The handlers std installed for SIGSEGV and SIGBUS (stack-overflow reports).
static mut PREVIOUS: [Option<libc::sigaction>; 2] = [None, None];

/// A SIGSEGV or SIGBUS *sent* by another process (kill, tkill, sigqueue) ends toolgate as a
/// real fault would; std's handler (which reports stack overflows) would return and run on.
/// Real faults still go to std's handler. Call once, first thing in main.
pub(crate) fn die_on_sent_faults() {
    extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        // SAFETY: the kernel hands a valid siginfo; the statics are written once before
        // the handler is installed.
        unsafe {
            let code = (*info).si_code;
            let slot = usize::from(sig == libc::SIGBUS);
            #[allow(static_mut_refs)]
            let previous = PREVIOUS[slot];
            if code > 0
                && let Some(prev) = previous
                && prev.sa_flags & libc::SA_SIGINFO != 0
                && prev.sa_sigaction > libc::SIG_IGN
            {
                let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    std::mem::transmute(prev.sa_sigaction);
                f(sig, info, ctx);
                return;
            }
            // Sent by someone, or no handler before ours: die of it (on return the signal,
            // unblocked, is delivered again with the default action).
            libc::signal(sig, libc::SIG_DFL);
            if code <= 0 {
                libc::raise(sig);
            }
        }
    }
    for (slot, sig) in [libc::SIGSEGV, libc::SIGBUS].into_iter().enumerate() {
        // SAFETY: sigaction with zeroed structs filled here; single-threaded at this point.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
                continue;
            }
            PREVIOUS[slot] = Some(old);
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = on_fault as *const () as usize;
            new.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut new.sa_mask);
            libc::sigaction(sig, &new, std::ptr::null_mut());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pids_are_written_as_decimal() {
        for pid in [1, 9, 10, 4321, 4_194_304, i32::MAX] {
            let mut buf = [0u8; 24];
            let p = format_pid(pid, &mut buf);
            // SAFETY: format_pid wrote a NUL-terminated string into buf.
            let s = unsafe { std::ffi::CStr::from_ptr(p) };
            assert_eq!(s.to_str().unwrap(), pid.to_string());
        }
    }
}

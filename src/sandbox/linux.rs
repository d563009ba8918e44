//! The Linux sandbox: what the child does between fork and exec, and the Landlock ruleset
//! the parent builds for it (built before the fork, so the child only makes system calls).

use std::io;
use std::sync::Mutex;

use landlock::RulesetCreated;

use super::seccomp::Filters;
use super::warden::Warden;

/// What the child applies to itself before it executes the server.
pub(crate) struct Plan {
    /// toolgate runs as root: the child holds every capability until it drops them.
    pub(super) root: bool,
    /// The uid and gid the child takes (root only).
    pub(super) uid: Option<u32>,
    /// Cut the network (`--sandbox strict`).
    pub(super) strict: bool,
    /// Landlock's TCP rules stand in when no network namespace can be made.
    pub(super) net_by_landlock: bool,
    /// The highest capability number this kernel knows.
    pub(super) last_cap: u32,
    /// The Landlock ruleset (None when the kernel has no Landlock).
    pub(super) ruleset: Option<RulesetCreated>,
    /// Start the server as the first process of a PID namespace, under a warden (None: the
    /// lifeline pipe could not be made).
    pub(super) warden: Option<Warden>,
    /// The seccomp filters (None: this kernel or architecture has none).
    pub(super) seccomp: Option<Filters>,
    /// Keep CAP_DAC_READ_SEARCH (ambient, so across exec) as the other uid: Landlock's read
    /// rules limit what it reads.
    pub(super) read_cap: bool,
}

// Secure bits (linux/securebits.h): no privilege for uid 0 at exec, no ambient raise, and
// keep-caps off, each locked.
const SECBIT_NOROOT: libc::c_ulong = 1 << 0;
const SECBIT_NOROOT_LOCKED: libc::c_ulong = 1 << 1;
const SECBIT_KEEP_CAPS: libc::c_ulong = 1 << 4;
const SECBIT_KEEP_CAPS_LOCKED: libc::c_ulong = 1 << 5;
/// The capability to read any file and search any directory (capability.h).
const CAP_DAC_READ_SEARCH: u32 = 2;
const CAP_SETPCAP: u32 = 8;
const SECBIT_NO_CAP_AMBIENT_RAISE: libc::c_ulong = 1 << 6;
const SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED: libc::c_ulong = 1 << 7;

#[repr(C)]
struct CapHeader {
    version: u32,
    pid: libc::c_int,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

const CAP_VERSION_3: u32 = 0x2008_0522;

/// capset's data for capabilities 0–31 (`set` effective and permitted, `inheritable`); none
/// of 32–63.
fn caps(set: u32, inheritable: u32) -> [CapData; 2] {
    let none = CapData {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    };
    [
        CapData {
            effective: set,
            permitted: set,
            inheritable,
        },
        none,
    ]
}

/// `r` is 0, else the errno as an error. Between fork and exec nothing is formatted or
/// allocated; std hands the parent only the errno anyway (`what` names the step for readers).
fn check(r: libc::c_int, what: &str) -> io::Result<()> {
    let _ = what;
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

impl Plan {
    /// Runs in the child after fork: only system calls, no allocation or free on the way to
    /// exec (the caller forgets the plan instead of dropping it).
    fn enter(&mut self) -> io::Result<()> {
        // SAFETY: each call is a plain system call on the child's own process state.
        unsafe {
            let mut wanted = 0;
            if self.strict {
                wanted |= libc::CLONE_NEWNET;
            }
            // Root only: a PID namespace makes the kernel end all the server started. (A
            // user namespace would give one to others too, but toolgate's non-dumpable
            // memory keeps its id maps unwritable: the warden's subreaping does it there.)
            if self.root && self.warden.is_some() {
                wanted |= libc::CLONE_NEWPID;
            }
            let mut made = 0;
            if wanted != 0 {
                // Not root: a user namespace of our own gives the right to cut the network.
                let may = self.root || libc::unshare(libc::CLONE_NEWUSER) == 0;
                if may {
                    if libc::unshare(wanted) == 0 {
                        made = wanted;
                    } else if self.strict && libc::unshare(libc::CLONE_NEWNET) == 0 {
                        made = libc::CLONE_NEWNET;
                    }
                }
            }
            if self.strict && made & libc::CLONE_NEWNET == 0 && !self.net_by_landlock {
                return check(-1, "--sandbox strict could not cut the network");
            }
            if let Some(w) = &self.warden {
                // Returns in the server-to-be; the other process becomes its warden.
                w.split()?;
            }
            if self.root {
                // Keeping the read capability across the change of uid needs keep-caps and an
                // ambient raise; otherwise both are locked off.
                let bits = if self.read_cap {
                    SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_KEEP_CAPS
                } else {
                    SECBIT_NOROOT
                        | SECBIT_NOROOT_LOCKED
                        | SECBIT_KEEP_CAPS_LOCKED
                        | SECBIT_NO_CAP_AMBIENT_RAISE
                        | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED
                };
                check(
                    libc::prctl(libc::PR_SET_SECUREBITS, bits, 0, 0, 0),
                    "securebits",
                )?;
            }
            for cap in 0..=self.last_cap {
                if self.read_cap && cap == CAP_DAC_READ_SEARCH {
                    continue;
                }
                let r = libc::prctl(libc::PR_CAPBSET_DROP, cap as libc::c_ulong, 0, 0, 0);
                // Without CAP_SETPCAP (an unprivileged toolgate) there is nothing to drop.
                if r != 0 && self.root {
                    check(r, "dropping the capability bounding set")?;
                }
            }
            if self.root {
                // No supplementary group (docker, adm, …) stays, even with --sandbox-uid 0.
                check(libc::setgroups(0, std::ptr::null()), "setgroups")?;
            }
            if let Some(uid) = self.uid {
                check(libc::setresgid(uid, uid, uid), "setresgid")?;
                check(libc::setresuid(uid, uid, uid), "setresuid")?;
            }
            let header = CapHeader {
                version: CAP_VERSION_3,
                pid: 0,
            };
            let keep = if self.read_cap {
                1u32 << CAP_DAC_READ_SEARCH
            } else {
                0
            };
            // With the read capability, CAP_SETPCAP stays a moment longer: locking the secure
            // bits below needs it.
            let setpcap = if self.read_cap {
                1u32 << CAP_SETPCAP
            } else {
                0
            };
            let data = caps(keep | setpcap, keep);
            check(
                libc::syscall(libc::SYS_capset, &header, data.as_ptr()) as libc::c_int,
                "clearing capabilities",
            )?;
            // Old kernels have no ambient set (EINVAL): nothing to clear there.
            let _ = libc::prctl(
                libc::PR_CAP_AMBIENT,
                libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
                0,
                0,
                0,
            );
            if self.read_cap {
                check(
                    libc::prctl(
                        libc::PR_CAP_AMBIENT,
                        libc::PR_CAP_AMBIENT_RAISE as libc::c_ulong,
                        CAP_DAC_READ_SEARCH as libc::c_ulong,
                        0,
                        0,
                    ),
                    "keeping the read capability",
                )?;
                // No further raise, ever.
                check(
                    libc::prctl(
                        libc::PR_SET_SECUREBITS,
                        SECBIT_NOROOT
                            | SECBIT_NOROOT_LOCKED
                            | SECBIT_KEEP_CAPS_LOCKED
                            | SECBIT_NO_CAP_AMBIENT_RAISE
                            | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED,
                        0,
                        0,
                        0,
                    ),
                    "securebits",
                )?;
                let only_read = caps(keep, keep);
                check(
                    libc::syscall(libc::SYS_capset, &header, only_read.as_ptr()) as libc::c_int,
                    "keeping only the read capability",
                )?;
            }
            match self.ruleset.take() {
                // Sets no_new_privs, then restricts.
                Some(ruleset) => {
                    ruleset
                        .restrict_self()
                        .map_err(|_| io::Error::from_raw_os_error(libc::EPERM))?;
                }
                None => check(
                    libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
                    "no_new_privs",
                )?,
            }
            if let Some(filters) = &self.seccomp {
                filters.install()?;
            }
            if self.warden.is_some() {
                // Set last: a change of uid clears it. The warden is our parent now.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            }
        }
        Ok(())
    }
}

/// Makes the child enter `plan` between fork and exec.
pub(crate) fn install(cmd: &mut tokio::process::Command, plan: Plan) {
    let cell = Mutex::new(Some(plan));
    // SAFETY: the closure makes system calls only (see `Plan::enter`); the mutex lives in the
    // closure and no other thread of the child can hold it.
    unsafe {
        cmd.pre_exec(move || {
            let plan = cell.lock().ok().and_then(|mut p| p.take());
            match plan {
                Some(mut p) => {
                    let r = p.enter();
                    // Freed by exec, not by free(): no allocator call between fork and exec.
                    #[allow(clippy::mem_forget)]
                    std::mem::forget(p);
                    r
                }
                None => Err(io::Error::from_raw_os_error(libc::EBUSY)),
            }
        });
    }
}
